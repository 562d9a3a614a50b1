/**
 * `src/jobs.ts`: the job helpers of `runtime/model-endpoints/` bound to the generated client and
 * typed per model (`runAndWait("wan-2-6-i2v", input)` returns a result whose `output` has
 * `video_url`). Standalone functions, so an app that imports one bundles only it.
 */
import { code, join, raw, type Code } from "../../emit/code.ts";
import { moduleText } from "../../emit/typescript.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import { WHOLE_ENDPOINT_ROLES, type EndpointRole, type ModelEndpointsModel } from "./types.ts";

export function emitJobsModule(api: ApiModel, model: ModelEndpointsModel): string {
  // The helpers take the client's core (the client is one): through the per-model functions, an
  // app that runs jobs bundles only the job operations, not every operation's validator.
  const client = raw(api.names.core);
  const hasStream = model.roles.stream !== undefined;
  // The run body's other members, typed from the contract, go with each submission.
  const jobOptions = raw(model.jobOptionsOperation ? " & { jobOptions?: ModelJobOptions | undefined }" : "");
  const catalog: Code[] = [
    raw("  endpoints: MODEL_ENDPOINTS,"),
    raw("  terminalStatuses: TERMINAL_JOB_STATUSES,"),
    ...(model.serverWait ? [code`  syncWaitMs: { minimum: ${model.serverWait.minimum}, maximum: ${model.serverWait.maximum} },`] : []),
    ...requestLimitsEntry(api, model),
    ...resultRetentionEntry(api, model),
  ];
  return moduleText([
    [
      raw('import * as jobs from "./runtime/model-endpoints/index.js";'),
      raw(`import type { BatchOptions, BatchResult, JobClient, JobResult as AnyJobResult, ModelCatalog, RunOptions, ${hasStream ? "StreamChunk, StreamOptions, " : ""}WaitOptions } from "./runtime/model-endpoints/index.js";`),
      code`import type { ${client}${raw(model.jobOptionsOperation ? ", ModelJobOptions" : "")} } from "./client.js";`,
      raw('import * as calls from "./model-calls.js";'),
      raw('import { MODEL_ENDPOINTS, TERMINAL_JOB_STATUSES, loadModelInputChecks, loadedModelInputChecks, validateModelInput, withModelDefaults } from "./models.js";'),
      raw('import type { ModelId, ModelInput, ModelOutput } from "./models.js";'),
    ],
    [
      raw('export { BatchAbortedError, BudgetExceededError, CostLimitError, DownloadError, JobExpiredError, JobFailedError, JobWaitError, RateGate, RateLimitWaitError, download } from "./runtime/model-endpoints/index.js";'),
      raw('export type { BatchItem, BatchOptions, BatchProgress, BatchResult, CancelReport, Downloadable, DownloadOptions, DownloadReport, RunOptions, StreamChunk, StreamOptions, WaitOptions, WaitProgress } from "./runtime/model-endpoints/index.js";'),
    ],
    [
      raw("/** The contract's models, as the job helpers read them, every model's input checks included. */"),
      raw("export const MODEL_CATALOG: ModelCatalog = {"),
      ...catalog,
      // The client's own check of a run's input loads the model's checks: loaded before the helpers' timers start.
      raw("  prepare: async (model) => void (await loadModelInputChecks(model)),"),
      raw("  withDefaults: withModelDefaults,"),
      raw("  validate: validateModelInput,"),
      raw("};"),
    ],
    [
      raw("// The helpers' own: each model's input checks loaded when it is first priced, so an app bundles only the models it runs."),
      raw("const JOB_CATALOG: ModelCatalog = {"),
      ...catalog,
      raw("  prepare: async (model) => void (await loadModelInputChecks(model)),"),
      raw("  withDefaults: (model, input) => {"),
      raw("    const fill = loadedModelInputChecks(model)?.withDefaults;"),
      raw("    return fill === undefined ? input : fill(input as never);"),
      raw("  },"),
      raw("  validate: (model, input) => loadedModelInputChecks(model)?.validate(input) ?? [],"),
      raw("};"),
    ],
    jobClient(api, model),
    [
      raw("/** A finished job of model `M`: typed `output`, `costUsd`, `url`, `expiresAt`. */"),
      raw("export type JobResult<M extends string> = AnyJobResult<ModelOutput<M>>;"),
    ],
    [
      code`/**
 * Polls a job until it finishes (see \`waitForJob\` in the README for the schedule). Resolves with the
 * typed result when it is \`COMPLETED\`; throws \`JobFailedError\` when it fails, \`JobWaitError\` on
 * timeout or abort (with the last job seen).
 */
export function waitForJob<M extends ModelId>(client: ${client}, model: M, jobId: string, options?: WaitOptions): Promise<JobResult<M>> {
  return jobs.waitForJob(jobClient(client), JOB_CATALOG, model, jobId, options) as Promise<JobResult<M>>;
}`,
    ],
    [
      code`/** Submits one job (\`run\`, or \`runsync\` with \`sync: true\`) exactly once and waits for it. */
export function runAndWait<M extends ModelId>(client: ${client}, model: M, input: ModelInput<M>, options?: RunOptions${jobOptions}): Promise<JobResult<M>> {
  return jobs.runAndWait(jobClient(client), JOB_CATALOG, model, input, options) as Promise<JobResult<M>>;
}`,
    ],
    [
      raw(`/** The estimated cost in USD of a job, from the contract's pricing with defaults applied (an upper bound for token prices); undefined where no estimate can be made (no published price, a price per unit of the result, a value without a rate). */
export function estimateCost<M extends ModelId>(model: M, input: ModelInput<M>): number | undefined {
  return jobs.estimateCost(MODEL_CATALOG, model, input);
}`),
    ],
    [
      code`/** Runs many jobs of one model within the server's rate limits; results in input order. */
export function runMany<M extends ModelId>(
  client: ${client},
  model: M,
  inputs: ReadonlyArray<ModelInput<M>>,
  options?: BatchOptions${jobOptions},
): Promise<BatchResult<ModelOutput<M>>> {
  return jobs.runMany(jobClient(client), JOB_CATALOG, model, inputs, options) as Promise<BatchResult<ModelOutput<M>>>;
}`,
    ],
    hasStream
      ? [
          code`/**
 * The job's partial outputs as the stream operation hands them out, polled every \`intervalMs\`
 * until the job ends (the iterator returns its status); \`break\` or the signal stops the polling.
 */
export function streamJob<M extends ModelId>(client: ${client}, model: M, jobId: string, options?: StreamOptions): AsyncGenerator<StreamChunk, string, undefined> {
  return jobs.streamJob(jobClient(client), JOB_CATALOG, model, jobId, options);
}`,
        ]
      : [],
  ]);
}

/**
 * `jobClient(client)`: the calls the job helpers make. The client's own methods when it has them (a
 * subclass's or a wrapper's included), else the per-model functions on the core.
 */
function jobClient(api: ApiModel, model: ModelEndpointsModel): Code[] {
  const roles = model.roles;
  const calls: Array<[string, boolean, string]> = [
    ["runModel", roles.run !== undefined, "(model, input, options) => calls.runModel(client, model, input, options as never)"],
    ["runModelSync", roles.runsync !== undefined, "(model, input, options) => calls.runModelSync(client, model, input, options as never)"],
    ["getModelJob", true, "(model, jobId, options) => calls.getModelJob(client, model, jobId, options)"],
    ["cancelModelJob", roles.cancel !== undefined, "(model, jobId, options) => calls.cancelModelJob(client, model, jobId, options)"],
    ["retryModelJob", roles.retry !== undefined, "(model, jobId, options) => calls.retryModelJob(client, model, jobId, options)"],
    ["streamModelJob", roles.stream !== undefined, "(model, jobId, options) => calls.streamModelJob(client, model, jobId, options)"],
    ["getModelHealth", roles.health !== undefined, "(model, options) => calls.getModelHealth(client, model, options)"],
    ["purgeModelQueue", roles["purge-queue"] !== undefined, "(model, options) => calls.purgeModelQueue(client, model, options)"],
  ];
  return [
    raw("/** The calls the job helpers make: the client's own methods when it has them (a subclass's included), else the functions on its core. */"),
    code`function jobClient(client: ${raw(api.names.core)}): JobClient {`,
    raw("  const own = client as unknown as Partial<JobClient>;"),
    raw("  return {"),
    ...calls.filter(([, present]) => present).map(([name, , body]) => raw(`    ${name}: own.${name}?.bind(client) ?? (${body}),`)),
    // Its clock (the client's `clock` option) times the helpers' waits.
    raw("    core: client,"),
    raw("  };"),
    raw("}"),
  ];
}

/** The catalog's `requestLimits`: the `x-request-limits` of the operations on a job, by role (none when none has any). */
function requestLimitsEntry(api: ApiModel, model: ModelEndpointsModel): Code[] {
  const entries = roleOperations(api, model).flatMap(([role, operation]) => {
    const limits = operation.requestLimits;
    if (WHOLE_ENDPOINT_ROLES.has(role) || limits === undefined) return [];
    const concurrent = limits.concurrent === undefined ? raw("") : code`, concurrent: ${limits.concurrent}`;
    return [code`${raw(role)}: { requests: ${limits.requests}, windowSeconds: ${limits.windowSeconds}${concurrent} }`];
  });
  return entries.length === 0 ? [] : [code`  requestLimits: { ${join(entries, ", ")} },`];
}

/** The catalog's `resultRetentionSeconds`: per submitting role, how long a finished job's results are kept (none when none says). */
function resultRetentionEntry(api: ApiModel, model: ModelEndpointsModel): Code[] {
  const entries = roleOperations(api, model).flatMap(([role]) => {
    const seconds = model.resultRetentionSeconds[role];
    return seconds === undefined ? [] : [code`${raw(role)}: ${seconds}`];
  });
  return entries.length === 0 ? [] : [code`  resultRetentionSeconds: { ${join(entries, ", ")} },`];
}

/** Each role with its operation, in the document's order of operations. */
export function roleOperations(api: Pick<ApiModel, "operations">, model: ModelEndpointsModel): Array<[EndpointRole, OperationModel]> {
  const roleOf = new Map(Object.entries(model.roles).map(([role, operation]) => [operation.operationId, role as EndpointRole]));
  return api.operations.flatMap((operation) => {
    const role = roleOf.get(operation.operationId);
    return role === undefined ? [] : [[role, operation] as [EndpointRole, OperationModel]];
  });
}
