/**
 * `src/jobs.ts`, when the contract has models: the job helpers of `runtime/model-endpoints/` bound to the
 * generated client and typed per model (`runAndWait("wan-2-6-i2v", input)` returns a result whose
 * `output` has `video_url`). Standalone functions, so an app that imports one bundles only it.
 */
import type { Project, SourceFile } from "ts-morph";
import { ENDPOINT_ROLES, jobOptionsOperation, runsyncServerWait, type ApiModel } from "../../model/index.ts";
import { propertyKeyForValue, stringLiteral } from "../../common/escape.ts";
import { environmentVariables } from "../../emit/environment-variables.ts";

export function emitJobs(project: Project, api: ApiModel, fileName: string, className: string, hasDefaults: boolean): SourceFile | undefined {
  if (api.modelEndpoints.length === 0 || !api.operations.some((o) => o.modelRole === "status")) return undefined;
  const file = project.createSourceFile(fileName, "", { overwrite: true });
  const syncWait = runsyncServerWait(api);
  const limits = requestLimitsEntry(api) + resultRetentionEntry(api);
  const hasStream = api.operations.some((o) => o.modelRole === "stream");
  // The run body's other members, typed from the contract, go with each submission.
  const jobOptions = jobOptionsOperation(api) ? " & { jobOptions?: ModelJobOptions | undefined }" : "";
  file.addStatements(`import * as jobs from "./runtime/model-endpoints/index.js";
import type { BatchOptions, BatchResult, JobResult as AnyJobResult, ModelCatalog, RunOptions, ${hasStream ? "StreamChunk, StreamOptions, " : ""}WaitOptions } from "./runtime/model-endpoints/index.js";
import type { ${className}${jobOptions ? ", ModelJobOptions" : ""} } from "./client.js";
import { MODEL_ENDPOINTS, TERMINAL_JOB_STATUSES${hasDefaults ? ", validateModelInput, withModelDefaults" : ""} } from "./models.js";
import type { ModelId, ModelInput, ModelOutput } from "./models.js";

export { BatchAbortedError, BudgetExceededError, CostLimitError, DownloadError, JobExpiredError, JobFailedError, JobWaitError, RateGate, RateLimitWaitError, download } from "./runtime/model-endpoints/index.js";
export type { BatchItem, BatchOptions, BatchProgress, BatchResult, CancelReport, Downloadable, DownloadOptions, DownloadReport, RunOptions, StreamChunk, StreamOptions, WaitOptions, WaitProgress } from "./runtime/model-endpoints/index.js";

/** The contract's models, as the job helpers read them. */
export const MODEL_CATALOG: ModelCatalog = {
  endpoints: MODEL_ENDPOINTS,
  terminalStatuses: TERMINAL_JOB_STATUSES,${syncWait ? `\n  syncWaitMs: { minimum: ${syncWait.minimum}, maximum: ${syncWait.maximum} },` : ""}${limits}${hasDefaults ? "\n  withDefaults: withModelDefaults,\n  validate: validateModelInput," : ""}
};

/** A finished job of model \`M\`: typed \`output\`, \`costUsd\`, \`url\`, \`expiresAt\`. */
export type JobResult<M extends string> = AnyJobResult<ModelOutput<M>>;

/**
 * Polls a job until it finishes (see \`waitForJob\` in the README for the schedule). Resolves with the
 * typed result when it is \`COMPLETED\`; throws \`JobFailedError\` when it fails, \`JobWaitError\` on
 * timeout or abort (with the last job seen).
 */
export function waitForJob<M extends ModelId>(client: ${className}, model: M, jobId: string, options?: WaitOptions): Promise<JobResult<M>> {
  return jobs.waitForJob(client, MODEL_CATALOG, model, jobId, options) as Promise<JobResult<M>>;
}

/** Submits one job (\`run\`, or \`runsync\` with \`sync: true\`) exactly once and waits for it. */
export function runAndWait<M extends ModelId>(client: ${className}, model: M, input: ModelInput<M>, options?: RunOptions${jobOptions}): Promise<JobResult<M>> {
  return jobs.runAndWait(client, MODEL_CATALOG, model, input, options) as Promise<JobResult<M>>;
}

/** The estimated cost in USD of a job, from the contract's pricing with defaults applied; undefined without pricing. */
export function estimateCost<M extends ModelId>(model: M, input: ModelInput<M>): number | undefined {
  return jobs.estimateCost(MODEL_CATALOG, model, input);
}

/** Runs many jobs of one model within the server's rate limits; results in input order. */
export function runMany<M extends ModelId>(
  client: ${className},
  model: M,
  inputs: ReadonlyArray<ModelInput<M>>,
  options?: BatchOptions${jobOptions},
): Promise<BatchResult<ModelOutput<M>>> {
  return jobs.runMany(client, MODEL_CATALOG, model, inputs, options) as Promise<BatchResult<ModelOutput<M>>>;
}${
    hasStream
      ? `

/**
 * The job's partial outputs as the stream operation hands them out, polled every \`intervalMs\`
 * until the job ends (the iterator returns its status); \`break\` or the signal stops the polling.
 */
export function streamJob<M extends ModelId>(client: ${className}, model: M, jobId: string, options?: StreamOptions): AsyncGenerator<StreamChunk, string, undefined> {
  return jobs.streamJob(client, MODEL_CATALOG, model, jobId, options);
}`
      : ""
  }`);
  return file;
}

/** The catalog's `requestLimits`: the `x-request-limits` of the operations on a job, by role ("" when none has any). */
function requestLimitsEntry(api: ApiModel): string {
  const entries = api.operations.flatMap((o) =>
    o.modelRole !== undefined && !ENDPOINT_ROLES.has(o.modelRole) && o.requestLimits !== undefined
      ? [`${o.modelRole}: { requests: ${o.requestLimits.requests}, windowSeconds: ${o.requestLimits.windowSeconds}${o.requestLimits.concurrent === undefined ? "" : `, concurrent: ${o.requestLimits.concurrent}`} }`]
      : [],
  );
  return entries.length === 0 ? "" : `\n  requestLimits: { ${entries.join(", ")} },`;
}

/** The catalog's `resultRetentionSeconds`: per submitting role, how long a finished job's results are kept ("" when none says). */
function resultRetentionEntry(api: ApiModel): string {
  const entries = api.operations.flatMap((o) => (o.modelRole !== undefined && o.resultRetentionSeconds !== undefined ? [`${o.modelRole}: ${o.resultRetentionSeconds}`] : []));
  return entries.length === 0 ? "" : `\n  resultRetentionSeconds: { ${entries.join(", ")} },`;
}

/** `src/bin.ts`: the terminal command, wiring the CLI runtime to this client and its models. */
export function emitBin(project: Project, api: ApiModel, fileName: string, className: string, hasValidation: boolean): SourceFile {
  const file = project.createSourceFile(fileName, "", { overwrite: true });
  file.addStatements(`/// <reference types="node" />
import { main } from "./runtime/model-endpoints/cli.js";
import { ${className} } from "./client.js";
import { MODEL_CATALOG } from "./jobs.js";${hasValidation ? '\nimport { validateModelInput } from "./models.js";' : ""}

const controller = new AbortController();
// The first Ctrl-C stops waiting (the job keeps running and its id is printed); a second one exits.
process.once("SIGINT", () => controller.abort());

main(process.argv.slice(2), {
  name: ${stringLiteral(api.packageName.replace(/^@[^/]+\//, ""))},
  version: ${stringLiteral(api.packageVersion)},
${credentialsEntry(api)}  environment: [
    ${environmentVariables(api)
      .map((v) => `{ name: ${stringLiteral(v.name)}, description: ${stringLiteral(v.description)} }`)
      .join(",\n    ")},
  ],
  // The client reads its key, base URLs and log level from the environment itself.
  createClient: () => new ${className}(),
  catalog: MODEL_CATALOG,${hasValidation ? "\n  validateInput: validateModelInput," : ""}
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});`);
  return file;
}

/** The `credentials` the terminal command names when one is missing (none for a public API). */
function credentialsEntry(api: ApiModel): string {
  const options = api.security.schemes.flatMap((s) => s.options);
  if (options.length === 0) return "";
  return `  credentials: { ${options.map((o) => `${propertyKeyForValue(o.name)}: { env: ${stringLiteral(o.envVar)}, label: ${stringLiteral(o.label)} }`).join(", ")} },\n`;
}
