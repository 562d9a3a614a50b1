/**
 * The model-endpoints extension's part of the model: the AI models a contract lists under
 * `x-model-endpoints` ("model endpoints"), and the job operations each role marks
 * (`x-model-endpoint-role`), from which the client gets per-model calls and the job helpers.
 */
import type { OperationModel } from "../../model/types.ts";

/** The extension's name: its key in the model, its runtime folder, its templates' folder. */
export const MODEL_ENDPOINTS_EXTENSION = "model-endpoints";

/** The operations' roles (`x-model-endpoint-role`): each gives the client a per-model call. */
export const ENDPOINT_ROLES = ["runsync", "run", "status", "cancel", "retry", "stream", "health", "purge-queue"] as const;
export type EndpointRole = (typeof ENDPOINT_ROLES)[number];
/** Roles on a model endpoint as a whole rather than on one job: the job helpers never call them. */
export const WHOLE_ENDPOINT_ROLES: ReadonlySet<EndpointRole> = new Set(["health", "purge-queue"]);

/** Per-token rates: the price of `unitsPer` input tokens and of `unitsPer` output tokens. */
export interface TokenRate {
  input: number;
  output: number;
}

/**
 * What a job of a model endpoint costs (`x-model-endpoints/<id>/pricing`, read by `pricing.ts`,
 * which lists the forms): units (the product of `unitsFrom`, one per job without it, the
 * characters of `charactersFrom`, or tokens) over `unitsPer`, times a rate, fixed or picked by
 * input properties. Emitted as is into the package, whose runtime (`model-endpoints/cost.ts`)
 * has the same shape in `ModelPricing`.
 */
export interface EndpointPricing {
  currency: string;
  unit: string;
  /** Input properties whose values multiply into the number of units. */
  unitsFrom?: string[];
  /** What the count is divided by (1 unless the contract says otherwise). */
  unitsPer: number;
  round?: "up";
  charactersFrom?: string;
  tokens?: { inputFrom: string[]; maxOutputFrom: string[]; maxOutputDefault?: number };
  /** Input properties whose values (joined by ",") pick the rate in `rates`; absent with a fixed `rate`. */
  rateFrom?: string[];
  rates?: Record<string, number | TokenRate>;
  rate?: number | TokenRate;
  unitsUnknown?: string;
  unknownWhen?: string[];
  formula?: string;
}

/** An AI model the API runs jobs on (`x-model-endpoints`). */
export interface ModelEndpoint {
  id: string;
  kind: string;
  summary?: string;
  description?: string;
  /** Names of the component schemas. */
  inputSchema: string;
  outputSchema: string;
  /** Output property that carries the file URL, and how long it lives. */
  urlField?: string;
  urlLifetimeSeconds?: number;
  pricing?: EndpointPricing;
  /** The first of the input schema's `examples`, for the README. */
  inputExample?: unknown;
  /** The input's top-level properties (those of its `allOf` members too), in order, for the README. */
  inputFields: Array<{ name: string; required: boolean }>;
  pointer: string;
}

/** A query parameter of `runsync` bounding, in milliseconds, how long the server may hold the request (`x-server-wait`). */
export interface ServerWait {
  parameter: string;
  minimum: number;
  maximum: number;
}

/** A job statuses' outcome (`x-terminal-statuses`): the statuses that end a wait. */
export type TerminalStatuses = Record<string, "success" | "failure">;

export interface ModelEndpointsModel {
  endpoints: ModelEndpoint[];
  /** The operation of each role the contract marks. */
  roles: Partial<Record<EndpointRole, OperationModel>>;
  /** Per submitting role, how long a finished job's results are kept (`x-result-retention-seconds`). */
  resultRetentionSeconds: Partial<Record<EndpointRole, number>>;
  serverWait?: ServerWait;
  terminalStatuses: TerminalStatuses;
  /** The status operation's JSON answer: the job every model's typed job builds on. */
  jobResponse: { status: string; mediaType: string };
  /** The operation whose body types a job's `jobOptions` (its members besides `input`): run's, else runsync's. */
  jobOptionsOperation?: OperationModel;
}
