/**
 * The model-endpoints extension's emit-stage side: `src/models.ts`, `src/jobs.ts`, its commands,
 * the job runtime, the per-model calls of the client, and its README sections.
 */
import { pointer } from "../../common/json-pointer.ts";
import type { ApiModel } from "../../model/types.ts";
import type { EmitContext, ExtensionOutput } from "../output.ts";
import { clientDeclarations, clientImports, clientMethods, emitModelCallsModule, OPERATION_SPEC_IMPORTS, operationSpecEntries } from "./client-members.ts";
import { raw } from "../../emit/code.ts";
import { emitJobsModule, roleOperations } from "./emit-jobs.ts";
import { emitModelInputModules, emitModelsModule } from "./emit-models.ts";
import { readmeContribution } from "./readme.ts";
import { MODEL_ENDPOINTS_EXTENSION, type EndpointRole, type ModelEndpointsModel } from "./types.ts";

/** The job operations a batch sends (runMany), through its rate gate. */
const PACED_ROLES: ReadonlySet<EndpointRole> = new Set(["run", "runsync", "status", "cancel", "retry"]);

export function emitModelEndpoints(api: ApiModel, model: ModelEndpointsModel, context: EmitContext): ExtensionOutput {
  const roleOf = new Map(roleOperations(api, model).map(([role, operation]) => [operation.operationId, role]));
  const submits = model.roles.run !== undefined || model.roles.runsync !== undefined;
  return {
    files: [
      { path: "src/models.ts", contents: emitModelsModule(model, context.validators, (schema) => api.markedSchemas.has(pointer("components", "schemas", schema))) },
      ...emitModelInputModules(context.standaloneValidators),
      { path: "src/model-calls.ts", contents: emitModelCallsModule(api, model) },
      { path: "src/jobs.ts", contents: emitJobsModule(api, model) },
    ],
    runtimeFolders: [MODEL_ENDPOINTS_EXTENSION],
    client: { imports: clientImports(model), declarations: clientDeclarations(model), methods: clientMethods(model) },
    operationSpecs: { imports: submits ? OPERATION_SPEC_IMPORTS : [], entries: (operation) => operationSpecEntries(model, operation) },
    limitsNote: (operation) => {
      const role = roleOf.get(operation.operationId);
      return role !== undefined && PACED_ROLES.has(role) ? "runMany paces itself by them" : undefined;
    },
    indexExports: [
      { from: "./models.js" },
      { from: "./jobs.js" },
      ...(model.serverWait !== undefined ? [{ from: "./runtime/model-endpoints/server-wait.js", typeOnly: true, names: ["ServerWaitOptions"] }] : []),
    ],
    bin: {
      imports: [raw('import { modelCommands } from "./runtime/model-endpoints/cli.js";'), raw('import { MODEL_CATALOG } from "./jobs.js";'), raw('import { validateModelInput } from "./models.js";')],
      group: [raw("modelCommands({ ...environment, createClient, catalog: MODEL_CATALOG, validateInput: validateModelInput })")],
    },
    readme: readmeContribution(api, model),
  };
}
