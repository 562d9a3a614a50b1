/**
 * What the job helpers know of jobs and models: the fields every job has, the calls they make on
 * the generated client, what the contract says of each model, where an output keeps its file's URL.
 * Generic over the client and the models: the generated `jobs.ts` binds the helpers to the calls of
 * the generated client (its methods, or the functions of its core) and the model catalogue.
 */
import type { ApiResult, RequestOptions } from "../client-core.js";
import type { RequestLimit } from "./rate-gate.js";

/** The job operations, by their `x-model-endpoint-role`; a batch sends run, runsync, status and cancel. */
export type JobOperation = "run" | "runsync" | "status" | "cancel" | "retry" | "stream";

/** The fields of a job every model shares. */
export interface JobLike {
  id: string;
  status: string;
  delayTime?: number | undefined;
  executionTime?: number | undefined;
  workerId?: string | undefined;
  output?: unknown | undefined;
  error?: string | undefined;
}

/** A submission's request options, and the body's members besides `input` (`jobOptions`). */
export type SubmitRequestOptions = RequestOptions & { jobOptions?: object | undefined };
/** A runsync request: `waitMs` is how long the service may hold it (when the contract lets it be asked). */
export type SyncRequestOptions = SubmitRequestOptions & { waitMs?: number | undefined };

/** The calls jobs need; the generated client has them. */
export interface JobClient {
  runModel(model: string, input: never, options?: SubmitRequestOptions): Promise<ApiResult<JobLike>>;
  /** Absent when the contract has no `runsync` operation. */
  runModelSync?(model: string, input: never, options?: SyncRequestOptions): Promise<ApiResult<JobLike>>;
  getModelJob(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<JobLike>>;
  /** Absent when the contract has no `cancel` operation. */
  cancelModelJob?(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<unknown>>;
  /** Absent when the contract has no `stream` operation. */
  streamModelJob?(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<{ status: string; stream?: Array<{ output: unknown; metrics?: unknown }> }>>;
  /** Absent when the contract has no `retry` operation. */
  retryModelJob?(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<JobLike>>;
  /** Absent when the contract has no `health` operation. */
  getModelHealth?(model: string, options?: RequestOptions): Promise<ApiResult<unknown>>;
  /** Absent when the contract has no `purge-queue` operation. */
  purgeModelQueue?(model: string, options?: RequestOptions): Promise<ApiResult<unknown>>;
  /** The client the calls go through: the helpers wait by its `clock` option where the caller gives no `now` and `sleep`. */
  core?: object | undefined;
}

/** Output properties that hold a generated file's URL, tried in this order when the contract names none for the model. */
export const OUTPUT_URL_FIELDS: readonly string[] = ["video_url", "image_url", "audio_url"];

/** Per-token rates: USD per `unitsPer` input tokens and per `unitsPer` output tokens. */
export interface TokenRate {
  readonly input: number;
  readonly output: number;
}

/**
 * Units × rate. The units are, by form: the product of `unitsFrom`'s input values (one per job
 * when there is none), the characters of `charactersFrom`, or tokens in and out (`tokens`); over
 * `unitsPer`, rounded up to whole units with `round: "up"`. The rate is `rate`, or the one the
 * values of `rateFrom` pick in `rates` (several values are joined by ","). `unitsUnknown`: the
 * units are measured on the result, so no estimate is made; `unknownWhen`: nor when the input
 * has one of these properties.
 */
export interface ModelPricing {
  readonly currency: string;
  readonly unit: string;
  /** Input properties whose values multiply into the units (e.g. `duration`; `width`, `height`). */
  readonly unitsFrom?: readonly string[] | undefined;
  /** What the count is divided by (1,000,000 for megapixels, 5 for a 5-second clip). */
  readonly unitsPer: number;
  /** `up`: a started unit is billed whole (a clip of a fixed length). */
  readonly round?: "up" | undefined;
  /** Input property (a string) whose characters, as Unicode code points, are the units. */
  readonly charactersFrom?: string | undefined;
  /** Token pricing: where the prompt (a string or a list of messages) and the output's token cap are in the input. */
  readonly tokens?: { readonly inputFrom: readonly string[]; readonly maxOutputFrom: readonly string[]; readonly maxOutputDefault?: number | undefined } | undefined;
  /** Input properties whose values pick the rate in `rates` (e.g. `size`). */
  readonly rateFrom?: readonly string[] | undefined;
  readonly rates?: Readonly<Record<string, number | TokenRate>> | undefined;
  /** A fixed rate per unit, when no input property chooses one. */
  readonly rate?: number | TokenRate | undefined;
  /** Why the input never fixes the units (they are measured on the result). */
  readonly unitsUnknown?: string | undefined;
  /** Input properties whose presence makes the units unknown (the service measures a file). */
  readonly unknownWhen?: readonly string[] | undefined;
}

export interface ModelEndpointInfo {
  readonly kind: string;
  readonly urlField?: string | undefined;
  readonly urlLifetimeSeconds?: number | undefined;
  readonly pricing?: ModelPricing | undefined;
}

/** What the contract says of the models, plus the generated input helpers. */
export interface ModelCatalog {
  readonly endpoints: Readonly<Record<string, ModelEndpointInfo>>;
  readonly terminalStatuses: Readonly<Record<string, "success" | "failure">>;
  /** The limits of the wait `runsync` can be asked for (its `x-server-wait` parameter), in milliseconds. */
  readonly syncWaitMs?: { readonly minimum: number; readonly maximum: number };
  /** What the service takes of each job operation (its `x-request-limits`): a batch paces itself by it. */
  readonly requestLimits?: Readonly<Partial<Record<JobOperation, RequestLimit>>>;
  /** How long the service keeps a finished job's results, per operation that made the job (`x-result-retention-seconds`). */
  readonly resultRetentionSeconds?: Readonly<Partial<Record<"run" | "runsync", number>>>;
  /**
   * Loads what `validate` and `withDefaults` need for `model`, when they load each model's checks
   * on demand (so that an app bundles only the models it runs); the helpers await it first.
   */
  prepare?(model: string): Promise<void>;
  /** A copy of the input with the schema's defaults filled in (known models only). */
  withDefaults?(model: string, input: unknown): unknown;
  /** Problems of an input for a known model (none for other models). */
  validate?(model: string, input: unknown): Array<{ path: string; message: string; keyword: string; schemaPath?: string }>;
}
