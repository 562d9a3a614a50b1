/**
 * The pod-budget extension's emit-stage side: `src/pods.ts` (the runtime's pod helpers bound to the
 * contract's operations and pointers), the runtime folder, its exports, its commands (`pods`,
 * `gpus`) and its README section.
 */
import { propertyKeyForValue, stringLiteral } from "../../common/escape.ts";
import { code, join, raw, type Code } from "../../emit/code.ts";
import { moduleText } from "../../emit/typescript.ts";
import { hasParams } from "../../emit/operation-docs.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import type { BinContribution, EmitContext, ExtensionOutput } from "../output.ts";
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
    bin: binContribution(model),
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
  // The body priced is the body sent: a copy, so that a caller changing its own object while the price is read changes neither.
  const sent = { ...params, body: structuredClone(params.body) };
  const create = () => operations.${createCall}(client, sent, requestOptions);
  return pods.createPodWithinBudget(readPrice(client), create, POD_COST, sent.body, maxCostPerHourUsd, requestOptions);
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

/** `pods` and `gpus` in the terminal command: the runtime's command group given the package's pod calls. */
function binContribution(model: PodBudgetModel): BinContribution {
  const { cost, readiness, commands } = model;
  const call = (operation: OperationModel, params: string) => raw(`operations.${operation.methodName}(client${hasParams(operation) ? `, ${params}` : ""}, options)`);
  const pathOf = (operation: OperationModel, value: string) => `{ ${propertyKeyForValue(operation.parameters.find((parameter) => parameter.in === "path")!.name)}: ${value} }`;
  // The catalog gives stock only on request, and then for one use: the CLI lists GPUs for pods.
  const stock = commands.gpuStockOnRequest ? '{ query: { include: ["AVAILABILITY"], product: ["POD"] } }' : "{}";
  const calls: Code[] = [
    ...(commands.list ? [code`    listPods: (client, options) => ${call(commands.list, "{}")},`] : []),
    ...(readiness ? [code`    getPod: (client, id, options) => ${call(readiness.read, `{ path: ${pathOf(readiness.read, "id")} }`)},`] : []),
    ...(cost ? [code`    createPodWithinBudget: (client, body, options) => createPodWithinBudget(client, { body: body as ${raw(cost.create.paramsType)}["body"] }, options),`] : []),
    ...(readiness ? [raw("    waitForPod: (client, id, options) => waitForPod(client, id, options),")] : []),
    // The command line gives strings: a contract whose sets are closed gets them as its types say (the service checks them).
    ...(commands.action ? [code`    podAction: (client, id, action, options) => ${call(commands.action, `{ path: ${pathOf(commands.action, "id")}, body: { action } as ${commands.action.paramsType}["body"] }`)},`] : []),
    ...(commands.gpuTypes ? [code`    listGpuTypes: (client, options) => ${call(commands.gpuTypes, stock)},`] : []),
    ...(commands.logs
      ? [code`    podLogs: (client, id, ${raw(commands.logs.filters.length > 0 ? "query" : "_query")}, options) => operations.${raw(commands.logs.operation.methodName)}(client, { path: ${raw(pathOf(commands.logs.operation, "id"))}${raw(commands.logs.filters.length > 0 ? `, query: query as ${commands.logs.operation.paramsType}["query"]` : "")} }, options),`]
      : []),
  ];
  const fromPods = [...(cost ? ["POD_COST", "createPodWithinBudget"] : []), ...(readiness ? ["POD_READINESS", "waitForPod"] : [])];
  return {
    imports: [
      raw('import { podCommands } from "./runtime/pod-budget/cli.js";'),
      raw(`import { ${fromPods.join(", ")} } from "./pods.js";`),
      ...(commands.list || commands.action || commands.gpuTypes || commands.logs || readiness ? [raw('import * as operations from "./operations.js";')] : []),
      ...paramsTypeImports(model),
    ],
    group: [
      raw("podCommands({"),
      raw("  ...environment,"),
      raw("  createClient,"),
      ...(cost ? [raw("  cost: POD_COST,")] : []),
      ...(readiness ? [raw("  readiness: POD_READINESS,")] : []),
      ...(commands.logs ? [raw(`  logFilters: [${commands.logs.filters.map(stringLiteral).join(", ")}],`)] : []),
      raw("  calls: {"),
      ...calls,
      raw("  },"),
      raw("})"),
    ],
  };
}

/** The params types the command bindings cast to: the create body's, the action's and the log filters'. */
function paramsTypeImports({ cost, commands }: PodBudgetModel): Code[] {
  const names = new Set<string>();
  if (cost) names.add(cost.create.paramsType);
  if (commands.action) names.add(commands.action.paramsType);
  if (commands.logs && commands.logs.filters.length > 0) names.add(commands.logs.operation.paramsType);
  return names.size === 0 ? [] : [raw(`import type { ${[...names].join(", ")} } from "./client.js";`)];
}
