/**
 * The errors of a non-2xx answer: `ApiError`, and the class its status picks (error-response.ts
 * picks it). A module of their own, loaded with the answer that needs one: an app whose calls
 * succeed does not load them (unless it imports them itself, to test `instanceof`).
 */
import { SdkError, nameClass } from "./error-base.js";
import type { ApiErrorKind } from "./error-base.js";
import type { RateLimitState } from "./rate-limit.js";

/** The kind of each class chosen by status: kept apart from the classes, so that none shows it as a field. */
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
