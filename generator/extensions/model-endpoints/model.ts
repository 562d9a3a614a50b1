/**
 * The model-endpoints extension's model-stage side: a contract with `x-model-endpoints` gets
 * per-model calls on its client (`runModel`, `getModelJob`…), typed model inputs and outputs,
 * the job helpers and a terminal command. Its keys are checked in every contract.
 */
import { ContractError } from "../../common/errors.ts";
import type { LoadedContract } from "../../load/index.ts";
import { runtimeExports } from "../../model/names.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ExtensionReader } from "../reader.ts";
import { readModelEndpoints } from "./endpoints.ts";
import { checkRoleShapes, readRoleMarks } from "./roles.ts";
import { readTerminalStatuses } from "./terminal-statuses.ts";
import { MODEL_ENDPOINTS_EXTENSION as NAME, type ModelEndpointsModel } from "./types.ts";

/** The client's per-model calls. */
const METHOD_NAMES = ["runModel", "runModelSync", "getModelJob", "cancelModelJob", "retryModelJob", "streamModelJob", "getModelHealth", "purgeModelQueue"];

/** What `src/models.ts`, `src/jobs.ts` and `src/client.ts` export for the models. */
const GENERATED_EXPORTS = [
  "ModelJobOptions", "ModelInputs", "ModelOutputs", "ModelId", "KnownModelId", "ModelInput", "ModelOutput", "ModelJob", "ModelJobBase", "MODEL_ENDPOINTS", "TERMINAL_JOB_STATUSES",
  "validateModelInput", "withModelDefaults", "ModelInputChecks", "loadModelInputChecks", "loadedModelInputChecks", "checkModelInput", "MODEL_CATALOG", "JobResult", "waitForJob", "runAndWait", "estimateCost", "runMany", "streamJob",
];

export const modelEndpointsReader: ExtensionReader = {
  name: NAME,
  isUsedBy: (document) => {
    const endpoints = (document as Record<string, unknown>)["x-model-endpoints"];
    return typeof endpoints === "object" && endpoints !== null && Object.keys(endpoints).length > 0;
  },
  methodNames: METHOD_NAMES,
  exportNames: () => [...GENERATED_EXPORTS, ...runtimeExports(NAME)],
  read: (contract, api) => readModelEndpointsModel(contract, api),
};

function readModelEndpointsModel(contract: LoadedContract, api: ApiModel): ModelEndpointsModel | undefined {
  const marks = readRoleMarks(contract, api.operations);
  const endpoints = readModelEndpoints(contract);
  const terminalStatuses = readTerminalStatuses(contract);
  if (endpoints.length === 0) {
    if (marks.serverWaitPointer !== undefined) {
      throw new ContractError(`${marks.serverWaitPointer}/x-server-wait`, "x-server-wait is filled by runModelSync, which is generated only when the document has x-model-endpoints");
    }
    return undefined;
  }
  const status = marks.roles.status;
  const jobResponse = status?.successResponses.find((r) => r.mediaType);
  if (!status || !jobResponse?.mediaType) {
    throw new ContractError("/x-model-endpoints", 'x-model-endpoints needs an operation with x-model-endpoint-role "status" that returns the job as JSON');
  }
  checkRoleShapes(marks.roles);
  const submitting = marks.roles.run ?? marks.roles.runsync;
  return {
    endpoints,
    roles: marks.roles,
    resultRetentionSeconds: marks.resultRetentionSeconds,
    serverWait: marks.serverWait,
    terminalStatuses: terminalStatuses ?? {},
    jobResponse: { status: jobResponse.status, mediaType: jobResponse.mediaType },
    jobOptionsOperation: submitting?.requestBody ? submitting : undefined,
  };
}

/** The extension's part of a model, when the contract uses it. */
export function modelEndpointsOf(api: Pick<ApiModel, "extensions">): ModelEndpointsModel | undefined {
  return api.extensions.find((extension) => extension.name === NAME)?.model as ModelEndpointsModel | undefined;
}
