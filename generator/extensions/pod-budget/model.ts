/**
 * The pod-budget extension's model-stage side: `x-pod-cost` on the operation that creates a pod and
 * `x-pod-readiness` on the one that reads it, each read and checked here (a stray key, a pointer
 * that is not one, an operation that does not fit is refused with its pointer).
 */
import { ContractError } from "../../common/errors.ts";
import type { LoadedContract } from "../../load/index.ts";
import { HTTP_METHODS, type ApiModel, type OperationModel } from "../../model/types.ts";
import { runtimeExports } from "../../model/names.ts";
import type { ExtensionReader } from "../reader.ts";
import { EVENT_STREAM } from "../server-sent-events/types.ts";
import { POD_BUDGET_EXTENSION as NAME, type PodBudgetModel, type PodCost, type PodLogs, type PodReadiness } from "./types.ts";

const COST_KEY = "x-pod-cost";
const READINESS_KEY = "x-pod-readiness";

/** What `src/pods.ts` exports besides the runtime's names. */
const GENERATED_EXPORTS = ["POD_COST", "POD_READINESS", "estimatePodCost", "createPodWithinBudget", "waitForPod"];

export const podBudgetReader: ExtensionReader = {
  name: NAME,
  isUsedBy: (document) => markedOperations(document).length > 0,
  methodNames: [],
  exportNames: () => [...GENERATED_EXPORTS, ...runtimeExports(NAME)],
  read: (contract, api) => readPodBudget(contract, api),
};

/** The operation objects that carry one of the extension's keys, with their pointers. */
function markedOperations(document: unknown): Array<{ pointer: string; object: Record<string, unknown> }> {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  return Object.entries(paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const object = item?.[method] as Record<string, unknown> | undefined;
      if (object === undefined || (object[COST_KEY] === undefined && object[READINESS_KEY] === undefined)) return [];
      return [{ pointer: `/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}`, object }];
    }),
  );
}

function readPodBudget(contract: LoadedContract, api: ApiModel): PodBudgetModel | undefined {
  const model: PodBudgetModel = { commands: { gpuStockOnRequest: false } };
  for (const operation of api.operations) {
    const object = contract.at<Record<string, unknown>>(operation.pointer) ?? {};
    if (object[COST_KEY] !== undefined) {
      if (model.cost) throw new ContractError(`${operation.pointer}/${COST_KEY}`, `a second ${COST_KEY} (the first is on ${model.cost.create.pointer}); one operation creates pods`);
      model.cost = readCost(object[COST_KEY], `${operation.pointer}/${COST_KEY}`, operation, api.operations);
    }
    if (object[READINESS_KEY] !== undefined) {
      if (model.readiness) throw new ContractError(`${operation.pointer}/${READINESS_KEY}`, `a second ${READINESS_KEY} (the first is on ${model.readiness.read.pointer}); one operation reads a pod`);
      model.readiness = readReadiness(object[READINESS_KEY], `${operation.pointer}/${READINESS_KEY}`, operation);
    }
  }
  if (!model.cost && !model.readiness) return undefined;
  model.commands = commandOperations(api.operations, model);
  return model;
}

/** The other calls the terminal command's pod commands use, where they sit beside the marked ones. */
function commandOperations(operations: readonly OperationModel[], model: PodBudgetModel): PodBudgetModel["commands"] {
  const at = (method: string, path: string | undefined) => (path === undefined ? undefined : operations.find((operation) => operation.method === method && operation.path === path));
  const list = at("get", model.cost?.create.path);
  const readPath = model.readiness?.read.path;
  const action = at("post", readPath === undefined ? undefined : `${readPath}/action`);
  const pricePath = model.cost?.priceOperation.path;
  const gpuTypes = at("get", pricePath?.replace(/\/[^/]+$/, ""));
  const query = new Set(gpuTypes?.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name));
  const logs = logStream(at("get", readPath === undefined ? undefined : `${readPath}/logs`));
  return {
    ...(logs ? { logs } : {}),
    ...(list && list.parameters.every((parameter) => !parameter.required) ? { list } : {}),
    ...(action && action.parameters.filter((parameter) => parameter.in === "path").length === 1 && action.requestBody !== undefined ? { action } : {}),
    ...(gpuTypes && gpuTypes.parameters.every((parameter) => !parameter.required) ? { gpuTypes } : {}),
    gpuStockOnRequest: query.has("include") && query.has("product"),
  };
}

/**
 * The pod's log stream when the operation beside the read one is one: its first answer with a body
 * an event stream, the pod's id its one path parameter, nothing else required. The filters are the
 * query parameters `pods logs` has flags for.
 */
function logStream(operation: OperationModel | undefined): PodLogs | undefined {
  if (operation === undefined) return undefined;
  const answer = operation.successResponses.find((response) => response.mediaType !== undefined);
  if (answer?.mediaType?.split(";", 1)[0]!.trim().toLowerCase() !== EVENT_STREAM) return undefined;
  if (operation.parameters.filter((parameter) => parameter.in === "path").length !== 1) return undefined;
  if (operation.parameters.some((parameter) => parameter.in !== "path" && parameter.required)) return undefined;
  const query = operation.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name);
  return { operation, filters: LOG_FILTERS.filter((filter) => query.includes(filter)) };
}

const LOG_FILTERS = ["tail", "since", "source"] as const;

function readCost(value: unknown, at: string, create: OperationModel, operations: readonly OperationModel[]): PodCost {
  const spec = objectWithKeys(value, at, ["priceOperation", "gpuTypeFrom", "gpuCountFrom", "defaultGpuCount", "cloudFrom", "defaultCloud", "rates"], []);
  if (create.requestBody?.mediaType === undefined || !/json$/i.test(create.requestBody.mediaType)) {
    throw new ContractError(at, `${COST_KEY} reads the pod from the request body, which this operation does not take as JSON`);
  }
  const priceName = spec["priceOperation"];
  const priceOperation = operations.find((operation) => operation.operationId === priceName);
  if (priceOperation === undefined) throw new ContractError(`${at}/priceOperation`, `names no operation of the document: ${JSON.stringify(priceName)}`);
  const pathParameters = priceOperation.parameters.filter((parameter) => parameter.in === "path");
  if (pathParameters.length !== 1) throw new ContractError(`${at}/priceOperation`, `${String(priceName)} must take exactly one path parameter (the GPU type's id), not ${pathParameters.length}`);
  if (!priceOperation.successResponses.some((response) => response.mediaType !== undefined && /json$/i.test(response.mediaType))) {
    throw new ContractError(`${at}/priceOperation`, `${String(priceName)} must answer JSON`);
  }
  const defaultGpuCount = spec["defaultGpuCount"];
  if (typeof defaultGpuCount !== "number" || !Number.isInteger(defaultGpuCount) || defaultGpuCount < 1) {
    throw new ContractError(`${at}/defaultGpuCount`, "must be a whole number, 1 or more");
  }
  const rates = spec["rates"];
  if (typeof rates !== "object" || rates === null || Array.isArray(rates) || Object.keys(rates).length === 0) {
    throw new ContractError(`${at}/rates`, "must map each cloud to the JSON pointer of its price in the price operation's answer");
  }
  for (const [cloud, pointer] of Object.entries(rates)) jsonPointer(pointer, `${at}/rates/${cloud.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  const defaultCloud = spec["defaultCloud"];
  if (typeof defaultCloud !== "string" || !Object.prototype.hasOwnProperty.call(rates, defaultCloud)) {
    throw new ContractError(`${at}/defaultCloud`, "must be one of the clouds of rates");
  }
  return {
    create,
    priceOperation,
    priceParameter: pathParameters[0]!.name,
    gpuTypeFrom: jsonPointer(spec["gpuTypeFrom"], `${at}/gpuTypeFrom`),
    gpuCountFrom: jsonPointer(spec["gpuCountFrom"], `${at}/gpuCountFrom`),
    defaultGpuCount,
    cloudFrom: jsonPointer(spec["cloudFrom"], `${at}/cloudFrom`),
    defaultCloud,
    rates: rates as Record<string, string>,
  };
}

function readReadiness(value: unknown, at: string, read: OperationModel): PodReadiness {
  const spec = objectWithKeys(value, at, ["statusFrom", "ready", "failed"], ["portsFrom", "mappingsFrom"]);
  const pathParameters = read.parameters.filter((parameter) => parameter.in === "path");
  if (pathParameters.length !== 1) throw new ContractError(at, `${READINESS_KEY} needs an operation with exactly one path parameter (the pod's id), not ${pathParameters.length}`);
  if (!read.successResponses.some((response) => response.mediaType !== undefined && /json$/i.test(response.mediaType))) {
    throw new ContractError(at, `${READINESS_KEY} needs an operation that answers the pod as JSON`);
  }
  if ((spec["portsFrom"] === undefined) !== (spec["mappingsFrom"] === undefined)) {
    throw new ContractError(at, "portsFrom and mappingsFrom go together: the ports asked for and their live mappings");
  }
  const ready = statuses(spec["ready"], `${at}/ready`, 1);
  const failed = statuses(spec["failed"], `${at}/failed`, 0);
  const both = ready.find((status) => failed.includes(status));
  if (both !== undefined) throw new ContractError(`${at}/failed`, `${JSON.stringify(both)} is both ready and failed`);
  return {
    read,
    idParameter: pathParameters[0]!.name,
    statusFrom: jsonPointer(spec["statusFrom"], `${at}/statusFrom`),
    ready,
    failed,
    ...(spec["portsFrom"] !== undefined ? { portsFrom: jsonPointer(spec["portsFrom"], `${at}/portsFrom`), mappingsFrom: jsonPointer(spec["mappingsFrom"], `${at}/mappingsFrom`) } : {}),
  };
}

/** An object holding every required key, and no key outside `required` and `optional`. */
function objectWithKeys(value: unknown, at: string, required: readonly string[], optional: readonly string[]): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ContractError(at, "must be an object");
  const object = value as Record<string, unknown>;
  const stray = Object.keys(object).find((key) => !required.includes(key) && !optional.includes(key));
  if (stray !== undefined) throw new ContractError(`${at}/${stray}`, `is not a key of this extension (known: ${[...required, ...optional].join(", ")})`);
  const missing = required.find((key) => object[key] === undefined);
  if (missing !== undefined) throw new ContractError(at, `needs ${missing}`);
  return object;
}

function jsonPointer(value: unknown, at: string): string {
  if (typeof value !== "string" || !/^(\/([^~/]|~[01])*)+$/.test(value)) throw new ContractError(at, `must be a JSON pointer such as "/gpu/count", not ${JSON.stringify(value)}`);
  return value;
}

function statuses(value: unknown, at: string, least: number): string[] {
  if (!Array.isArray(value) || value.length < least || value.some((status) => typeof status !== "string" || status === "")) {
    throw new ContractError(at, `must be a list of ${least > 0 ? "at least one " : ""}status string${least > 0 ? "" : "s"}`);
  }
  return value as string[];
}

/** The extension's part of a model, when the contract uses it. */
export function podBudgetOf(api: Pick<ApiModel, "extensions">): PodBudgetModel | undefined {
  return api.extensions.find((extension) => extension.name === NAME)?.model as PodBudgetModel | undefined;
}
