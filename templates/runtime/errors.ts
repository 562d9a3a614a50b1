/**
 * Typed errors. Nothing secret may reach a message, a property, JSON or
 * `util.inspect` output, so errors never hold a Request, request headers or
 * the API key: only redacted response headers and plain data.
 */
import { parseRateLimit, parseRetryAfter } from "./rate-limit.js";
import type { RateLimitState } from "./rate-limit.js";
import { redactSecrets } from "./redact.js";

export type ApiErrorKind =
  | "bad_request"
  | "authentication"
  | "permission_denied"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "rate_limit"
  | "server"
  | "unexpected_status"
  | "connection"
  | "timeout"
  | "aborted"
  | "invalid_request"
  | "invalid_response"
  | "job_failed"
  | "cost_limit";

/** Response headers that can carry credentials, dropped before an error keeps the headers. */
const SENSITIVE_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);

const MAX_RAW_BODY_BYTES = 64 * 1024;
const MESSAGE_BODY_SNIPPET_CHARS = 200;

/**
 * Names live on the prototype, set from string literals: class names do not
 * survive minifiers, and an own `name` property would clutter every inspection.
 */
function nameClass(errorClass: { prototype: Error }, name: string): void {
  Object.defineProperty(errorClass.prototype, "name", { value: name, writable: true, configurable: true });
}

/** Base class of every error this client throws. */
export class GpuCloudError extends Error {
  static {
    nameClass(this, "GpuCloudError");
  }

  readonly kind: ApiErrorKind;

  constructor(kind: ApiErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}

/** What an `ApiError` is built from; `errorFromResponse` fills it from a Response. */
export interface ApiErrorInit {
  message: string;
  status: number;
  title?: string;
  detail?: string;
  errors?: string[];
  problem?: unknown;
  rawBody: string;
  headers: Record<string, string>;
  rateLimit?: RateLimitState;
  method: string;
  url: string;
  operationId?: string;
}

/** The API answered with a non-2xx status. */
export class ApiError extends GpuCloudError {
  static {
    nameClass(this, "ApiError");
  }

  readonly status: number;
  readonly title?: string;
  readonly detail?: string;
  readonly errors?: string[];
  /** The parsed body, when it was JSON. */
  readonly problem?: unknown;
  /** The body text, cut at 64 KiB. */
  readonly rawBody: string;
  /** Response headers, without any that can carry credentials. */
  readonly headers: Record<string, string>;
  readonly rateLimit?: RateLimitState;
  readonly method: string;
  /** The request URL, query kept, userinfo stripped. */
  readonly url: string;
  readonly operationId?: string;

  constructor(kind: ApiErrorKind, init: ApiErrorInit) {
    super(kind, init.message);
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.problem = init.problem;
    this.rawBody = init.rawBody;
    this.headers = init.headers;
    this.rateLimit = init.rateLimit;
    this.method = init.method;
    this.url = init.url;
    this.operationId = init.operationId;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      title: this.title,
      detail: this.detail,
      errors: this.errors,
      headers: this.headers,
      rateLimit: this.rateLimit,
      method: this.method,
      url: this.url,
      operationId: this.operationId,
    };
  }
}

export class BadRequestError extends ApiError {
  static {
    nameClass(this, "BadRequestError");
  }
  constructor(init: ApiErrorInit) {
    super("bad_request", init);
  }
}

export class AuthenticationError extends ApiError {
  static {
    nameClass(this, "AuthenticationError");
  }
  constructor(init: ApiErrorInit) {
    super("authentication", init);
  }
}

export class PermissionDeniedError extends ApiError {
  static {
    nameClass(this, "PermissionDeniedError");
  }
  constructor(init: ApiErrorInit) {
    super("permission_denied", init);
  }
}

export class NotFoundError extends ApiError {
  static {
    nameClass(this, "NotFoundError");
  }
  constructor(init: ApiErrorInit) {
    super("not_found", init);
  }
}

export class ConflictError extends ApiError {
  static {
    nameClass(this, "ConflictError");
  }
  constructor(init: ApiErrorInit) {
    super("conflict", init);
  }
}

export class UnprocessableEntityError extends ApiError {
  static {
    nameClass(this, "UnprocessableEntityError");
  }
  constructor(init: ApiErrorInit) {
    super("unprocessable", init);
  }
}

export class RateLimitError extends ApiError {
  static {
    nameClass(this, "RateLimitError");
  }

  /** From `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
  /** From `Retry-After`, in whole seconds (rounded up). */
  readonly retryAfter?: number;

  constructor(init: ApiErrorInit & { retryAfterMs?: number }) {
    super("rate_limit", init);
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfter = init.retryAfterMs === undefined ? undefined : Math.ceil(init.retryAfterMs / 1000);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs, retryAfter: this.retryAfter };
  }
}

/** Any 5xx. */
export class ServerError extends ApiError {
  static {
    nameClass(this, "ServerError");
  }
  constructor(init: ApiErrorInit) {
    super("server", init);
  }
}

/** A non-2xx status with no more specific class. */
export class UnexpectedStatusError extends ApiError {
  static {
    nameClass(this, "UnexpectedStatusError");
  }
  constructor(init: ApiErrorInit) {
    super("unexpected_status", init);
  }
}

/** Only what is useful to diagnose a network failure: no request, no stack. */
export interface SanitizedCause {
  name: string;
  message: string;
  code?: string;
}

/** The request failed before a response arrived (refused, reset, DNS...). */
export class ConnectionError extends GpuCloudError {
  static {
    nameClass(this, "ConnectionError");
  }

  readonly method: string;
  readonly url: string;
  override readonly cause: SanitizedCause;

  constructor(init: { method: string; url: string; cause: SanitizedCause }) {
    const { code, message } = init.cause;
    const codeSuffix = code === undefined || message.includes(code) ? "" : ` (${code})`;
    super("connection", `${init.method} ${pathOf(init.url)} failed: ${message}${codeSuffix}`);
    this.method = init.method;
    this.url = init.url;
    this.cause = init.cause;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, url: this.url, cause: this.cause };
  }
}

/** No response within the per-attempt timeout. */
export class TimeoutError extends GpuCloudError {
  static {
    nameClass(this, "TimeoutError");
  }

  readonly timeoutMs: number;
  readonly method: string;
  readonly url: string;

  constructor(init: { method: string; url: string; timeoutMs: number }) {
    super("timeout", `${init.method} ${pathOf(init.url)} timed out after ${init.timeoutMs} ms`);
    this.timeoutMs = init.timeoutMs;
    this.method = init.method;
    this.url = init.url;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, url: this.url, timeoutMs: this.timeoutMs };
  }
}

/**
 * The caller's signal aborted the request or a wait. `method` and `url` are
 * unset only when the abort did not concern a request (a bare `sleep`).
 */
export class AbortedError extends GpuCloudError {
  static {
    nameClass(this, "AbortedError");
  }

  readonly method?: string;
  readonly url?: string;
  readonly reason?: string;

  constructor(init: { method?: string; url?: string; reason?: unknown }) {
    const reason = describeAbortReason(init.reason);
    const subject = init.method === undefined || init.url === undefined ? "Wait" : `${init.method} ${pathOf(init.url)}`;
    super("aborted", reason === undefined ? `${subject} aborted` : `${subject} aborted: ${reason}`);
    this.method = init.method;
    this.url = init.url;
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), method: this.method, url: this.url, reason: this.reason };
  }
}

function describeAbortReason(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (reason instanceof AbortedError) return reason.reason;
  if (reason instanceof Error) return reason.message;
  return String(reason);
}

/** Bad input caught before any request was sent. */
export class InvalidRequestError extends GpuCloudError {
  static {
    nameClass(this, "InvalidRequestError");
  }

  /** A field path such as `path.id` (the first problem's). */
  readonly field: string;
  /** Every problem found, each with its field path; validation problems also name the keyword and the contract's pointer. */
  readonly problems: Array<{ path: string; message: string; keyword?: string; schemaPath?: string }>;

  constructor(message: string, init: { field: string; problems?: Array<{ path: string; message: string; keyword?: string; schemaPath?: string }> }) {
    super("invalid_request", message);
    this.field = init.field;
    this.problems = init.problems ?? [{ path: init.field, message }];
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), field: this.field, problems: this.problems };
  }
}

/**
 * A successful response whose body does not match the contract (only with `validateResponses`).
 * Keeps the raw body and, per problem, the pointer into the body and into the contract.
 */
export class ResponseValidationError extends GpuCloudError {
  static {
    nameClass(this, "ResponseValidationError");
  }

  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly operationId?: string;
  /** The body as received, cut at 64 KiB. */
  readonly rawBody: string;
  readonly problems: Array<{ path: string; message: string; keyword: string; schemaPath: string }>;

  constructor(init: {
    status: number;
    method: string;
    url: string;
    operationId?: string;
    rawBody: string;
    problems: Array<{ path: string; message: string; keyword: string; schemaPath: string }>;
  }) {
    const first = init.problems[0];
    const more = init.problems.length > 1 ? ` (and ${init.problems.length - 1} more)` : "";
    super(
      "invalid_response",
      `${init.method} ${pathOf(init.url)} returned ${init.status} with a body that does not match the contract: ${first ? `${first.path || "(body)"} ${first.message}` : "invalid"}${more}`,
    );
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.operationId = init.operationId;
    this.rawBody = init.rawBody.slice(0, MAX_RAW_BODY_BYTES);
    this.problems = init.problems;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, method: this.method, url: this.url, operationId: this.operationId, problems: this.problems };
  }
}

/** The URL without userinfo (query kept); unparseable input is returned with any `user:pass@` cut out. */
export function sanitizeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/?#@]*@/, "//");
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/s, "");
  }
}

export interface ErrorRequestInfo {
  method: string;
  url: string;
  operationId?: string;
  /** Values (e.g. the API key) to blank out of everything the error keeps, in case the server echoes them. */
  secrets?: readonly string[];
}

/**
 * Builds the typed error for a non-2xx response. Tolerates any body: empty,
 * not JSON, malformed JSON, JSON that is not a problem document, already read.
 */
export async function errorFromResponse(response: Response, request: ErrorRequestInfo): Promise<ApiError> {
  const secrets = request.secrets ?? [];
  const redact = (text: string): string => redactSecrets(text, secrets);

  const rawText = await readBodyText(response);
  // Only the raw body may be cut (at 64 KiB, or by a dropped connection); parsed strings never are.
  const rawBody = redactSecrets(rawText, secrets, { mayBeCut: true });
  const problem = redactJson(parseJson(rawText), redact);
  const fields = problemFields(problem);
  const status = response.status;
  const method = request.method.toUpperCase();
  const url = redact(sanitizeUrl(request.url));
  const title = fields.title ?? (redact(response.statusText) || undefined);
  // Not a problem document: the start of the body is the best explanation there is.
  const isProblem = fields.title !== undefined || fields.detail !== undefined || fields.errors !== undefined;
  const detail = fields.detail ?? fields.errors?.join("; ") ?? (isProblem ? undefined : snippet(rawBody));

  const init: ApiErrorInit = {
    message: `${method} ${pathOf(url)} failed with ${status}${title === undefined ? "" : ` ${title}`}${detail === undefined ? "" : `: ${detail}`}`,
    status,
    title: fields.title,
    detail: fields.detail,
    errors: fields.errors,
    problem,
    rawBody,
    headers: safeHeaders(response.headers, redact),
    rateLimit: parseRateLimit(response.headers),
    method,
    url,
    operationId: request.operationId,
  };

  switch (status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 422:
      return new UnprocessableEntityError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfterMs: parseRetryAfter(response.headers.get("retry-after")) });
    default:
      return status >= 500 && status <= 599 ? new ServerError(init) : new UnexpectedStatusError(init);
  }
}

/**
 * Reads at most 64 KiB and cancels the rest, so a huge error body is never buffered whole; a body
 * that breaks off (a dropped connection, an abort) yields what arrived.
 */
export async function readBodyText(response: Response): Promise<string> {
  if (response.body === null || response.bodyUsed || response.body.locked) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_RAW_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= MAX_RAW_BODY_BYTES) await reader.cancel();
  } catch {
    // A body that breaks mid-way still yields what arrived.
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(Math.min(size, MAX_RAW_BODY_BYTES));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Blanks secrets out of every string (keys included) of a parsed JSON value. */
function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]));
  }
  return value;
}

/** The RFC 9457 members this API uses, each kept only if it has the expected type. */
function problemFields(problem: unknown): { title?: string; detail?: string; errors?: string[] } {
  if (typeof problem !== "object" || problem === null || Array.isArray(problem)) return {};
  const { title, detail, errors } = problem as Record<string, unknown>;
  return {
    title: typeof title === "string" ? title : undefined,
    detail: typeof detail === "string" ? detail : undefined,
    errors: Array.isArray(errors) ? errors.filter((error): error is string => typeof error === "string") : undefined,
  };
}

/** The start of a non-JSON body on one line, for the message. */
function snippet(text: string): string | undefined {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (oneLine === "") return undefined;
  return oneLine.length > MESSAGE_BODY_SNIPPET_CHARS ? `${oneLine.slice(0, MESSAGE_BODY_SNIPPET_CHARS)}…` : oneLine;
}

function safeHeaders(headers: Headers, redact: (text: string) => string): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SENSITIVE_HEADERS.has(name)) result[name] = redact(value);
  });
  return result;
}
