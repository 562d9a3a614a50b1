/**
 * What a generated operation hands the client core: its spec (the facts the contract gives) and a
 * call's parameters. Types only, in a module of their own, so the pieces that read them (bodies,
 * media types) and the client core share them without importing one another.
 */
import type { SecurityAlternatives } from "./auth.js";
import type { CookieStyle, HeaderStyle } from "./headers.js";
import type { PathStyle } from "./path.js";
import type { QueryStyle } from "./query.js";
import type { ValidationIssue } from "./validation.js";

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";

/** How to read a successful body: JSON, text, raw bytes, nothing (204), or as its Content-Type says (`auto`: no response documented). */
export type ResponseKind = "json" | "text" | "blob" | "none" | "auto";

/** Where a parameter goes (OpenAPI's `in`). */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** Per location, the parameters described by `content` instead of `schema`, each with its media type. */
export type ContentParameters = Readonly<Partial<Record<ParameterLocation, Readonly<Record<string, string>>>>>;

/** Parameters of one call, grouped by where they go. */
export interface OperationParams {
  path?: object | undefined;
  query?: object | undefined;
  header?: object | undefined;
  /** Sent in one `Cookie` header: Node, Deno and Bun send it; a browser drops it (a page may not set Cookie). */
  cookie?: object | undefined;
  body?: unknown | undefined;
}

/** How a generated method calls its operation: the facts the contract gives. */
export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** The path template, e.g. `/v2/registries/{id}`. */
  path: string;
  /** Key of the server (base URL option) the operation is served at. */
  server: string;
  /** Media type of the request body, when the operation takes one. */
  requestMediaType?: string | undefined;
  responseKind: ResponseKind;
  /** Paths inside the body to credentials (`format: password`): blanked from every error and log line, like the key. */
  secretBodyFields?: ReadonlyArray<readonly string[]> | undefined;
  /** The generated validator of the parameters (`{ path, query, header, cookie, body }`). */
  validateRequest?: ((params: unknown) => ValidationIssue[]) | undefined;
  /**
   * A check of the parameters beyond the contract's schema, run first (an extension's: a job's
   * `body.input` against the model its path names), its issues' paths rooted at the parameters.
   */
  checkParams?: ((params: OperationParams) => ValidationIssue[] | Promise<ValidationIssue[]>) | undefined;
  /** Path parameters the contract writes otherwise than OpenAPI's default (`simple`, not exploded). */
  pathStyles?: Readonly<Record<string, PathStyle>> | undefined;
  /** Query parameters the contract writes otherwise than OpenAPI's default (`form`, exploded). */
  queryStyles?: Readonly<Record<string, QueryStyle>> | undefined;
  /** Header parameters the contract explodes (OpenAPI's default: `simple`, not exploded). */
  headerStyles?: Readonly<Record<string, HeaderStyle>> | undefined;
  /** Cookie parameters the contract writes otherwise than OpenAPI's default (`form`, exploded). */
  cookieStyles?: Readonly<Record<string, CookieStyle>> | undefined;
  /** Parameters described by `content` (a media type) rather than `schema`, per location. */
  contentParameters?: ContentParameters | undefined;
  /**
   * The header (in lower case) the operation's idempotency key goes in: a call sends one key, the
   * caller's or one made for it, on every attempt, and may be retried like a GET (idempotency.ts).
   */
  idempotencyHeader?: string | undefined;
  /** The operation's own security requirement (`[]`: public); absent, the client's default applies. */
  security?: SecurityAlternatives | undefined;
  /** Dates (a package generated with `--dates date`): where this operation's parameters and success bodies hold them. */
  dates?: DateConversion | undefined;
}

/**
 * Between `Date`s and the text of `format: date-time` and `date`, at the places of one operation's
 * values where the contract has them (`dates/convert.ts` makes one).
 */
export interface DateConversion {
  /** The parameters with each Date as its format's text, in UTC (the caller's objects are not changed), and each Date that cannot be written. */
  toText(params: OperationParams): { params: OperationParams; issues: ValidationIssue[] };
  /** A success body (changed in place) with each date string as a Date, and each string that is not its format's text. */
  fromJson(status: number, data: unknown): { data: unknown; issues: ValidationIssue[] };
}

/**
 * Per operation id and success status (`200`, or a range such as `2XX`), the validator of that
 * response's JSON body; `null` for a status the contract documents without one (so no range applies).
 */
export type ResponseValidators = Readonly<Record<string, Readonly<Record<string, ((body: unknown) => ValidationIssue[]) | null>>>>;
