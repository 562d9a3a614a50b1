/**
 * The errors the client throws without an HTTP error answer, under one base class (error-base.ts):
 * why a call got no usable response, or was never sent. A non-2xx answer is an `ApiError`
 * (api-errors.ts). Nothing secret may reach a message, a property, JSON or `util.inspect` output,
 * so errors never hold a Request, request headers or the API key: only redacted plain data (the
 * base class blanks any echo left, error-base.ts).
 */
import { SdkError, MAX_RAW_BODY_BYTES, nameClass } from "./error-base.js";
import { redactRegisteredSecrets } from "./redact.js";
import { pathOf } from "./urls.js";

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
