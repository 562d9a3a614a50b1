/**
 * The pod-budget extension's emit-stage side: `src/pods.ts` (the runtime's pod helpers bound to the
 * contract's operations and pointers), the runtime folder, its exports and its README section.
 */
import { propertyKeyForValue } from "../../common/escape.ts";
import { code, join, raw, type Code } from "../../emit/code.ts";
import { moduleText } from "../../emit/typescript.ts";
import type { ApiModel } from "../../model/types.ts";
import type { EmitContext, ExtensionOutput } from "../output.ts";
import { readmeContribution } from "./readme.ts";
import { POD_BUDGET_EXTENSION, type PodBudgetModel, type PodCost, type PodReadiness } from "./types.ts";

export function emitPodBudget(api: ApiModel, model: PodBudgetModel, _context: EmitContext): ExtensionOutput {
  return {
    files: [{ path: "src/pods.ts", contents: emitPodsModule(api, model) }],
    runtimeFolders: [POD_BUDGET_EXTENSION],
    client: { imports: [], declarations: [], methods: [] },
    operationSpecs: { imports: [], entries: () => [] },
    limitsNote: () => undefined,
    indexExports: [{ from: "./pods.js" }],
    bin: false,
    readme: readmeContribution(api, model),
  };
}

export function emitPodsModule(api: ApiModel, model: PodBudgetModel): string {
  const core = raw(api.names.core);
  const { cost, readiness } = model;
  const clientTypes = [api.names.core, ...(cost ? [cost.create.paramsType, cost.create.responseType] : []), ...(readiness ? [readiness.read.responseType] : [])];
  const runtimeTypes = [...(cost ? ["PodCostEstimate", "PodCostSpec"] : []), ...(readiness ? ["PodReadinessSpec", "PodWaitOptions"] : [])];
  return moduleText([
    [
      raw('import * as pods from "./runtime/pod-budget/index.js";'),
      raw(`import type { ${runtimeTypes.join(", ")} } from "./runtime/pod-budget/index.js";`),
      raw(`import type { ${cost ? "ApiResult, " : ""}RequestOptions } from "./runtime/client-core.js";`),
      raw(`import type { ${clientTypes.join(", ")} } from "./client.js";`),
      raw('import * as operations from "./operations.js";'),
    ],
    [
      raw(`export { ${[...(cost ? ["PodCostLimitError"] : []), ...(readiness ? ["PodWaitError", "podState"] : [])].join(", ")} } from "./runtime/pod-budget/index.js";`),
      raw(`export type { ${[...(cost ? ["PodCostEstimate"] : []), ...(readiness ? ["PodState", "PodWaitOptions", "PodWaitReason"] : [])].join(", ")} } from "./runtime/pod-budget/index.js";`),
    ],
    ...(cost ? costGroups(core, cost) : []),
    ...(readiness ? readinessGroups(core, readiness) : []),
  ]);
}

function costGroups(core: Code, cost: PodCost): Code[][] {
  const params = raw(cost.create.paramsType);
  const response = raw(cost.create.responseType);
  const rates = join(
    Object.entries(cost.rates).map(([cloud, pointer]) => code`${raw(propertyKeyForValue(cloud))}: ${pointer}`),
    ", ",
  );
  const priceCall = raw(cost.priceOperation.methodName);
  const createCall = raw(cost.create.methodName);
  return [
    [
      raw("/** Where a pod's cost comes from: the contract's `x-pod-cost` (pointers into the create body and the price answer). */"),
      raw("export const POD_COST: PodCostSpec = {"),
      code`  priceOperation: ${cost.priceOperation.operationId},`,
      code`  gpuTypeFrom: ${cost.gpuTypeFrom},`,
      code`  gpuCountFrom: ${cost.gpuCountFrom},`,
      code`  defaultGpuCount: ${cost.defaultGpuCount},`,
      code`  cloudFrom: ${cost.cloudFrom},`,
      code`  defaultCloud: ${cost.defaultCloud},`,
      code`  rates: { ${rates} },`,
      raw("};"),
    ],
    [
      raw("/** One GPU type's prices, read with the price operation. */"),
      code`function readPrice(client: ${core}): pods.PriceReader {`,
      code`  return (gpuTypeId, options) => operations.${priceCall}(client, { path: { ${raw(propertyKeyForValue(cost.priceParameter))}: gpuTypeId } }, options);`,
      raw("}"),
    ],
    [
      code`/**
 * What the pod \`body\` describes would cost per hour at the catalog's list price (one read of its GPU
 * type's price): that price on its cloud times its GPU count. Undefined when it cannot be told (a
 * pod without a GPU type, a cloud without a price).
 */
export function estimatePodCost(client: ${core}, body: ${params}["body"], options?: RequestOptions): Promise<PodCostEstimate | undefined> {
  return pods.estimatePodCost(readPrice(client), POD_COST, body, options);
}`,
    ],
    [
      code`/**
 * Creates the pod only when its estimate is at most \`maxCostPerHourUsd\`; otherwise, or when there is
 * no estimate, throws \`PodCostLimitError\` before the create request is sent. The result carries the
 * estimate.
 */
export function createPodWithinBudget(
  client: ${core},
  params: ${params},
  options: RequestOptions & { maxCostPerHourUsd: number },
): Promise<ApiResult<${response}> & { estimate: PodCostEstimate }> {
  const { maxCostPerHourUsd, ...requestOptions } = options;
  const create = () => operations.${createCall}(client, params, requestOptions);
  return pods.createPodWithinBudget(readPrice(client), create, POD_COST, params.body, maxCostPerHourUsd, requestOptions);
}`,
    ],
  ];
}

function readinessGroups(core: Code, readiness: PodReadiness): Code[][] {
  const list = (values: readonly string[]) => join(values.map((value) => code`${value}`), ", ");
  const ports = readiness.portsFrom !== undefined && readiness.mappingsFrom !== undefined ? [code`  portsFrom: ${readiness.portsFrom},`, code`  mappingsFrom: ${readiness.mappingsFrom},`] : [];
  return [
    [
      raw("/** When a pod is ready: the contract's `x-pod-readiness` (its status, and its ports asked for and mapped). */"),
      raw("export const POD_READINESS: PodReadinessSpec = {"),
      code`  statusFrom: ${readiness.statusFrom},`,
      code`  ready: [${list(readiness.ready)}],`,
      code`  failed: [${list(readiness.failed)}],`,
      ...ports,
      raw("};"),
    ],
    [
      code`/**
 * Reads the pod until it runs with every TCP port it asked for reachable (resolves with it), or until
 * it reaches a status it will not run from, \`timeoutMs\` passes or \`signal\` aborts (throws
 * \`PodWaitError\` with the last pod read).
 */
export function waitForPod(client: ${core}, id: string, options?: PodWaitOptions): Promise<${raw(readiness.read.responseType)}> {
  return pods.waitForPod((requestOptions) => operations.${raw(readiness.read.methodName)}(client, { path: { ${raw(propertyKeyForValue(readiness.idParameter))}: id } }, requestOptions), POD_READINESS, options);
}`,
    ],
  ];
}
