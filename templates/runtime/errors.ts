/**
 * The errors the client throws, under one base class (error-base.ts). A non-2xx response is an
 * `ApiError`, of the class its status picks (error-response.ts); the others tell why a call got
 * no usable response, or was never sent. Nothing secret may reach a message, a property, JSON or
 * `util.inspect` output, so errors never hold a Request, request headers or the API key: only
 * redacted response headers and plain data (the base class blanks any echo left, error-base.ts).
 */
import { SdkError, MAX_RAW_BODY_BYTES, nameClass } from "./error-base.js";
import type { ApiErrorKind } from "./error-base.js";
import type { RateLimitState } from "./rate-limit.js";
import { redactRegisteredSecrets } from "./redact.js";
import { pathOf } from "./urls.js";

/** The kind of each class chosen by status: kept apart, so that no error or class shows more than before. */
const STATUS_KINDS = new WeakMap<object, ApiErrorKind>();

/** Names a class chosen by status and gives it its kind. */
function statusClass(errorClass: { prototype: ApiError }, name: string, kind: ApiErrorKind): void {
  nameClass(errorClass, name);
  STATUS_KINDS.set(errorClass, kind);
}

/** The kind of a class chosen by status, or of a subclass of one; a plain ApiError's is `unexpected_status`. */
function statusKindOf(errorClass: object): ApiErrorKind {
  for (let at: object | null = errorClass; at !== null; at = Object.getPrototypeOf(at)) {
    const kind = STATUS_KINDS.get(at);
    if (kind !== undefined) return kind;
  }
  return "unexpected_status";
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
  /** The service's id for the request, when its answer carries one. */
  requestId?: string | undefined;
  rateLimit?: RateLimitState;
  method: string;
  url: string;
  operationId?: string;
}

/** The API answered with a non-2xx status. */
export class ApiError extends SdkError {
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
  /** The service's id for the request (`x-request-id` and the like), when its answer carries one: what its support asks for. */
  readonly requestId?: string | undefined;
  readonly rateLimit?: RateLimitState;
  readonly method: string;
  /** The request URL, query kept, userinfo stripped. */
  readonly url: string;
  readonly operationId?: string;

  /** Without `kind`, the class's own: each class chosen by status has one. */
  constructor(init: ApiErrorInit);
  constructor(kind: ApiErrorKind, init: ApiErrorInit);
  constructor(kindOrInit: ApiErrorKind | ApiErrorInit, initAfterKind?: ApiErrorInit) {
    const init = typeof kindOrInit === "string" ? initAfterKind! : kindOrInit;
    super(typeof kindOrInit === "string" ? kindOrInit : statusKindOf(new.target), init.message);
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.problem = init.problem;
    this.rawBody = init.rawBody;
    this.headers = init.headers;
    this.requestId = init.requestId;
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
      requestId: this.requestId,
      rateLimit: this.rateLimit,
      method: this.method,
      url: this.url,
      operationId: this.operationId,
    };
  }
}

export class BadRequestError extends ApiError { static { statusClass(this, "BadRequestError", "bad_request"); } }
export class AuthenticationError extends ApiError { static { statusClass(this, "AuthenticationError", "authentication"); } }
export class PermissionDeniedError extends ApiError { static { statusClass(this, "PermissionDeniedError", "permission_denied"); } }
export class NotFoundError extends ApiError { static { statusClass(this, "NotFoundError", "not_found"); } }
export class ConflictError extends ApiError { static { statusClass(this, "ConflictError", "conflict"); } }
export class UnprocessableEntityError extends ApiError { static { statusClass(this, "UnprocessableEntityError", "unprocessable"); } }
/** A non-2xx status with no more specific class. */
export class UnexpectedStatusError extends ApiError { static { statusClass(this, "UnexpectedStatusError", "unexpected_status"); } }

/** Any 5xx; a 503 may say when to come back (`Retry-After`). */
export class ServerError extends ApiError {
  static {
    statusClass(this, "ServerError", "server");
  }

  /** The wait a 503 asked for (`Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The same wait in whole seconds (rounded up). */
  readonly retryAfter?: number;

  constructor(init: ApiErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfter = wholeSeconds(init.retryAfterMs);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs, retryAfter: this.retryAfter };
  }
}

export class RateLimitError extends ApiError {
  static {
    statusClass(this, "RateLimitError", "rate_limit");
  }

  /** The wait asked for, in milliseconds: `Retry-After`, else the reset of the `RateLimit` window used up. */
  readonly retryAfterMs?: number;
  /** The same wait in whole seconds (rounded up). */
  readonly retryAfter?: number;

  constructor(init: ApiErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfter = wholeSeconds(init.retryAfterMs);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs, retryAfter: this.retryAfter };
  }
}

function wholeSeconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

/** Only what is useful to diagnose a network failure: no request, no stack. */
export interface SanitizedCause {
  name: string;
  message: string;
  code?: string;
}

/** The request failed before a response arrived (refused, reset, DNS...). */
export class ConnectionError extends SdkError {
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

/**
 * No response within the per-attempt timeout, or within a job helper's `timeoutMs`. `note` says
 * what it means for the request: a submission that timed out may have made a job all the same.
 */
export class TimeoutError extends SdkError {
  static {
    nameClass(this, "TimeoutError");
  }

  readonly timeoutMs: number;
  readonly method: string;
  readonly url: string;

  constructor(init: { method: string; url: string; timeoutMs: number; note?: string | undefined }) {
    super("timeout", `${init.method} ${pathOf(init.url)} timed out after ${init.timeoutMs} ms${init.note === undefined ? "" : `: ${init.note}`}`);
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
export class AbortedError extends SdkError {
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

/**
 * A 2xx body longer than `maxResponseBytes`: reading stopped there (the connection is dropped), so
 * an endless or huge body never fills memory. Not retried: the next answer would be as long.
 */
export class ResponseTooLargeError extends SdkError {
  static {
    nameClass(this, "ResponseTooLargeError");
  }

  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly maxResponseBytes: number;

  constructor(init: { status: number; method: string; url: string; maxResponseBytes: number }) {
    super("response_too_large", `${init.method} ${pathOf(init.url)} returned ${init.status} with a body over maxResponseBytes (${init.maxResponseBytes} bytes): the rest was not read`);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.maxResponseBytes = init.maxResponseBytes;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, method: this.method, url: this.url, maxResponseBytes: this.maxResponseBytes };
  }
}

/** Bad input caught before any request was sent. */
export class InvalidRequestError extends SdkError {
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
export class ResponseValidationError extends SdkError {
  static {
    nameClass(this, "ResponseValidationError");
  }

  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly operationId?: string;
  /** The service's id for the request, when its answer carries one. */
  readonly requestId?: string | undefined;
  /** The body as received, cut at 64 KiB. */
  readonly rawBody: string;
  readonly problems: Array<{ path: string; message: string; keyword: string; schemaPath: string }>;

  constructor(init: {
    status: number;
    method: string;
    url: string;
    operationId?: string;
    requestId?: string | undefined;
    rawBody: string;
    problems: Array<{ path: string; message: string; keyword: string; schemaPath: string }>;
  }) {
    // A body's field names become the problems' paths: a server may have echoed the key in one.
    const problems = init.problems.map((problem) => ({ ...problem, path: redactRegisteredSecrets(problem.path), message: redactRegisteredSecrets(problem.message) }));
    const first = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    // A status the contract does not list is the answer's fault, not its body's.
    const what = first?.keyword === "status" ? `, which ${first.message}` : ` with a body that does not match the contract: ${first ? `${first.path || "(body)"} ${first.message}` : "invalid"}`;
    super("invalid_response", `${init.method} ${pathOf(init.url)} returned ${init.status}${what}${more}`);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.operationId = init.operationId;
    this.requestId = init.requestId;
    this.rawBody = init.rawBody.slice(0, MAX_RAW_BODY_BYTES);
    this.problems = problems;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, method: this.method, url: this.url, operationId: this.operationId, requestId: this.requestId, problems: this.problems };
  }
}

/**
 * A successful response the caller cannot use: no body, or one without what the call needs (the
 * job helpers need a job with its `id` and `status`, and a finished job's `output`). Keeps the raw
 * body, cut at 64 KiB and with any credential blanked out. After a POST, the request reached the
 * service and may have taken effect: `reason` says what that means (a job may exist).
 */
export class UnexpectedResponseError extends SdkError {
  static {
    nameClass(this, "UnexpectedResponseError");
  }

  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly operationId?: string;
  /** The service's id for the request, when its answer carries one. */
  readonly requestId?: string | undefined;
  /** What is missing or wrong, and what it means for the request. */
  readonly reason: string;
  /** The body as received (empty when there was none), cut at 64 KiB. */
  readonly rawBody: string;

  constructor(init: { status: number; method: string; url: string; operationId?: string; requestId?: string | undefined; reason: string; rawBody: string }) {
    super("invalid_response", `${init.method} ${pathOf(init.url)} returned ${init.status} with an answer the client cannot use: ${init.reason}`);
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.operationId = init.operationId;
    this.requestId = init.requestId;
    this.reason = init.reason;
    this.rawBody = init.rawBody.slice(0, MAX_RAW_BODY_BYTES);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status, method: this.method, url: this.url, operationId: this.operationId, requestId: this.requestId, reason: this.reason };
  }
}
