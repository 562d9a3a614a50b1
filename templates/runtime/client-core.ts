/**
 * What every generated client shares: configuration, the openapi-fetch call, response parsing and
 * typed errors. Generated clients extend `ClientCore` with one-line methods, one per operation.
 */
import createOpenApiFetch, { serializeArrayParam, serializeObjectParam, serializePrimitiveParam } from "openapi-fetch";
import { MAX_RAW_BODY_BYTES, SdkError } from "./error-base.js";
import { errorFromResponse } from "./error-response.js";
import { ApiError, InvalidRequestError, ResponseValidationError } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { fieldPath } from "./json-pointer.js";
import { isJsonMediaType } from "./media-types.js";
import { buildPath } from "./path.js";
import { parseRateLimit } from "./rate-limit.js";
import type { RateLimitState } from "./rate-limit.js";
import { sanitizeUrl } from "./urls.js";
import { authenticationHeaders, bufferedErrorBody, checkTimeout, DEFAULT_TIMEOUT_MS, MAX_TIMER_MS, prepareCall } from "./transport.js";
import type { Logger, PreparedCall, ReusableBody, TransportConfig } from "./transport.js";
import type { ValidationIssue } from "./validation.js";

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";

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
  /** How to read a successful body: JSON, text, raw bytes, or nothing (204). */
  responseKind: "json" | "text" | "blob" | "none";
  /** The generated validator of the parameters (`{ path, query, header, body }`). */
  validateRequest?: ((params: unknown) => ValidationIssue[]) | undefined;
  /** Query parameters the contract writes otherwise than OpenAPI's default (`form`, exploded). */
  queryStyles?: Readonly<Record<string, QueryStyle>> | undefined;
}

/** OpenAPI's `style`, `explode` and `allowReserved` of a query parameter. */
export interface QueryStyle {
  style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  explode: boolean;
  allowReserved?: boolean | undefined;
}

const DEFAULT_QUERY_STYLE: QueryStyle = { style: "form", explode: true };

/**
 * Per operation id and success status (`200`, or a range such as `2XX`), the validator of that
 * response's JSON body; `null` for a status the contract documents without one (so no range applies).
 */
export type ResponseValidators = Readonly<Record<string, Readonly<Record<string, ((body: unknown) => ValidationIssue[]) | null>>>>;

/** Parameters of one call, grouped by where they go. */
export interface OperationParams {
  path?: object | undefined;
  query?: object | undefined;
  header?: object | undefined;
  body?: unknown | undefined;
}

/** Per-call settings, each overriding the client's. */
export interface RequestOptions {
  /** Cancels the request and any wait between retries. */
  signal?: AbortSignal | undefined;
  /** Per attempt, in milliseconds. */
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** Extra request headers (an `Authorization` here is ignored: the client's key is always used). */
  headers?: Record<string, string> | undefined;
}

/** Options of a call the server may hold open (`runsync`): how long it may wait before answering. */
export interface ServerWaitOptions extends RequestOptions {
  /**
   * How long the server may hold the request, in milliseconds. Default: the request's timeout less
   * 5 s, within the limits the contract gives, so an unfinished job comes back with its id rather
   * than being cut off by the timeout.
   */
  waitMs?: number | undefined;
}

/** Room between the server's wait and the request's timeout for the answer to arrive. */
export const SERVER_WAIT_MARGIN_MS = 5_000;

/** A successful call: the typed body and what the response said about the caller's rate limits. */
export interface ApiResult<T> {
  data: T;
  status: number;
  headers: Headers;
  /** Per window (`minute`, `hour`, `day`): requests remaining, seconds to reset, quota, window length. */
  rateLimit: RateLimitState | undefined;
}

export interface CoreOptions extends Omit<TransportConfig, "apiKey" | "logName"> {
  /** The API key. Default: the environment variable the generated client names. */
  apiKey?: string | undefined;
  /** Check every request against the contract before sending it; default true. */
  validateRequests?: boolean | undefined;
  /** Check every successful JSON response against the contract; default false. */
  validateResponses?: boolean | undefined;
}

export interface CoreDefaults {
  /** Base URL per server key, from the contract's server variables. */
  servers: Record<string, string>;
  /** Environment variable read when no `apiKey` option is given. */
  apiKeyEnvVar: string;
  /** The package's name, which starts the client's log messages. */
  packageName?: string | undefined;
  /**
   * Loads the response validators (a dynamic import of their module): called on the first response
   * to check, so an app without `validateResponses` never loads, or bundles, them.
   */
  loadResponseValidators?: (() => Promise<ResponseValidators>) | undefined;
}

/** Reads an environment variable where there is one (Node, Deno, Bun); browsers have none. */
function readEnvironment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name]?.trim();
  return value ? value : undefined;
}

export class ClientCore {
  // Private fields: never enumerated, stringified or shown by util.inspect, so the key cannot leak.
  readonly #transport: TransportConfig;
  readonly #servers: Record<string, string>;
  readonly #validateRequests: boolean;
  readonly #validateResponses: boolean;
  readonly #loadResponseValidators: (() => Promise<ResponseValidators>) | undefined;
  #responseValidators: Promise<ResponseValidators> | undefined;
  readonly #api = createOpenApiFetch();
  /** `Authorization` (and `X-Client-Name`), checked once: a key that cannot be a header value is refused here. */
  readonly #authentication: Record<string, string>;

  constructor(options: CoreOptions & { servers?: Record<string, string | undefined> }, defaults: CoreDefaults) {
    const { apiKey: explicitKey, servers, validateRequests = true, validateResponses = false, ...transport } = options;
    this.#validateRequests = validateRequests;
    this.#validateResponses = validateResponses;
    this.#loadResponseValidators = defaults.loadResponseValidators;
    const apiKey = explicitKey ?? readEnvironment(defaults.apiKeyEnvVar);
    if (!apiKey) {
      const message = `No API key: pass { apiKey } or set the ${defaults.apiKeyEnvVar} environment variable.`;
      throw new InvalidRequestError(message, { field: "apiKey", problems: [{ path: "apiKey", message, keyword: "required" }] });
    }
    checkTimeout("timeoutMs", transport.timeoutMs);
    this.#transport = { ...transport, apiKey, logName: defaults.packageName };
    this.#authentication = authenticationHeaders(this.#transport);
    this.#servers = { ...defaults.servers };
    for (const [key, url] of Object.entries(servers ?? {})) {
      if (url !== undefined) this.#servers[key] = checkBaseUrl(key, url).replace(/\/+$/, "");
    }
  }

  /** The base URL an operation's server resolves to. */
  baseUrl(server: string): string {
    const url = this.#servers[server];
    if (url === undefined) throw new InvalidRequestError(`No base URL configured for server "${server}".`, { field: server });
    return url;
  }

  protected get logger(): Logger | undefined {
    return this.#transport.logger;
  }

  /**
   * Throws an InvalidRequestError listing every problem `check` finds, before anything is sent.
   * `prefix` turns the validator's JSON pointers into field paths (`body.input.duration`).
   */
  protected assertValid(operationId: string, check: () => ValidationIssue[], prefix = ""): void {
    if (!this.#validateRequests) return;
    const issues = check();
    if (issues.length === 0) return;
    const problems = issues.map((issue) => ({ ...issue, path: fieldPath(prefix, issue.path) }));
    const lines = problems.map((p) => `  ${p.path || "(request)"}: ${p.message}`).join("\n");
    throw new InvalidRequestError(`${operationId}: ${problems.length === 1 ? "1 invalid field" : `${problems.length} invalid fields`}, nothing was sent:\n${lines}`, {
      field: problems[0]!.path,
      problems,
    });
  }

  /**
   * The wait to ask the server for: `options.waitMs`, or the call's timeout (the client's by
   * default) less a margin, kept within [minimum, maximum]; without a timeout, the maximum.
   */
  protected serverWaitMs(options: ServerWaitOptions | undefined, minimum: number, maximum: number): number {
    if (options?.waitMs !== undefined) return options.waitMs;
    const timeout = Math.min(options?.timeoutMs ?? this.#transport.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS);
    const wait = timeout > 0 ? Math.floor(timeout - SERVER_WAIT_MARGIN_MS) : maximum;
    return Math.min(maximum, Math.max(minimum, wait));
  }

  /** Sends one operation and returns its typed body, or throws a typed error. */
  protected async request<T>(spec: OperationSpec, params: OperationParams = {}, options: RequestOptions = {}): Promise<ApiResult<T>> {
    const baseUrl = this.baseUrl(spec.server);
    if (this.#validateRequests && spec.validateRequest !== undefined) {
      const issues = spec.validateRequest(params);
      if (issues.length > 0) this.assertValid(spec.operationId, () => issues);
    }
    // Serialised here rather than by openapi-fetch, so that a retry can send the same body again.
    const body = params.body === undefined ? undefined : serializeBody(params.body, spec.requestMediaType);
    const call = prepareCall(this.#transport, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      operationId: spec.operationId,
      body: isReusable(body) ? body : undefined,
    });
    const headers: Record<string, string> = {};
    if (options.headers !== undefined) copyHeaders(options.headers, headers);
    if (params.header !== undefined) copyHeaders(params.header, headers);
    // multipart bodies get their content type (with the boundary) from fetch itself.
    if (spec.requestMediaType && body !== undefined && spec.requestMediaType !== "multipart/form-data") {
      headers["content-type"] = spec.requestMediaType;
    }
    // Last, so they replace whatever a caller set under any spelling.
    for (const name in this.#authentication) headers[name] = this.#authentication[name] as string;

    const api = this.#api as unknown as UntypedOpenApiFetch;
    try {
      return await this.exchange<T>(api, spec, call, baseUrl, body, headers, params);
    } finally {
      // The timeout and the caller's signal ran until here: the body has been read, or given up.
      call.finish();
    }
  }

  /** Sends the call and reads its response; the timeout and the caller's signal still bound the reading. */
  private async exchange<T>(
    api: UntypedOpenApiFetch,
    spec: OperationSpec,
    call: PreparedCall,
    baseUrl: string,
    body: BodyInit | undefined,
    headers: Record<string, string>,
    params: OperationParams,
  ): Promise<ApiResult<T>> {
    const { response, error } = await api.request(spec.method, spec.path, {
      baseUrl,
      params: { path: params.path, query: params.query },
      body,
      bodySerializer: passThrough,
      // openapi-fetch builds the URL before calling fetch: a bad path parameter is refused before anything is sent.
      pathSerializer: buildPath,
      // Each parameter as its contract says (openapi-fetch's own default writes objects as deepObject).
      querySerializer: (query: Record<string, unknown>) => queryString(query, spec.queryStyles),
      headers,
      signal: call.signal,
      fetch: call.fetch,
      parseAs: "stream",
    });

    if (!response.ok) {
      // The transport read the body (at most 64 KiB) before openapi-fetch parsed it: the error keeps it as it came.
      const buffered = bufferedErrorBody(response);
      const raw = buffered?.text ?? (error === undefined ? "" : typeof error === "string" ? error : JSON.stringify(error));
      const request = { ...this.describe(spec, response, baseUrl), ...(buffered?.url ? { url: buffered.url } : {}) };
      throw await errorFromResponse(new Response(raw, { status: response.status, statusText: response.statusText, headers: response.headers }), request);
    }
    let received: { data: unknown; text: string | undefined };
    try {
      received = await readBody(response, spec.responseKind, () => this.describe(spec, response, baseUrl));
    } catch (failure) {
      // A typed error (a body that is not JSON) as it is; a read cut short (timeout, abort, dropped connection) typed here.
      throw failure instanceof SdkError ? failure : call.bodyFailure(failure);
    }
    const data = received.data as T;
    // Each status against its own schema; one without a JSON schema, or without content (204, 205), has nothing to check.
    const noContent = response.status === 204 || response.status === 205;
    const byStatus = this.#validateResponses && spec.responseKind === "json" && !noContent ? (await this.responseValidators())[spec.operationId] : undefined;
    const status = String(response.status);
    const validateResponse = byStatus === undefined ? undefined : status in byStatus ? byStatus[status] : byStatus[`${status[0]}XX`];
    if (validateResponse) {
      const issues = validateResponse(data);
      if (issues.length > 0) {
        throw new ResponseValidationError({
          status: response.status,
          method: spec.method,
          url: sanitizeUrl(this.describe(spec, response, baseUrl).url),
          operationId: spec.operationId,
          // The body as it came, with the key blanked out should the server have echoed it.
          rawBody: redactSecrets((received.text ?? "").slice(0, MAX_RAW_BODY_BYTES), [this.#transport.apiKey], { mayBeCut: true }),
          problems: issues,
        });
      }
    }
    return resultOf(data, response);
  }

  /** The response validators, loaded once (a failed load is tried again on the next call). */
  private responseValidators(): Promise<ResponseValidators> {
    const load = this.#loadResponseValidators;
    if (load === undefined) return Promise.resolve({});
    return (this.#responseValidators ??= load().catch((error: unknown) => {
      this.#responseValidators = undefined;
      throw error;
    }));
  }

  /** The request as errors describe it (only built for an error: reading `response.url` costs). */
  private describe(spec: OperationSpec, response: Response, baseUrl: string) {
    return { method: spec.method, url: response.url || `${baseUrl}${spec.path}`, operationId: spec.operationId, secrets: [this.#transport.apiKey] };
  }
}

/**
 * A result whose `rateLimit` is parsed from the headers when first read, so calls that never look
 * pay nothing. It is an own, enumerable property (an accessor), so `{ ...result }`,
 * `Object.assign` and `JSON.stringify` keep it like the other fields.
 */
function resultOf<T>(data: T, response: Response): ApiResult<T> {
  const headers = response.headers;
  let rateLimit: RateLimitState | undefined | null = null;
  return Object.defineProperty({ data, status: response.status, headers } as ApiResult<T>, "rateLimit", {
    enumerable: true,
    configurable: true,
    get: () => (rateLimit === null ? (rateLimit = parseRateLimit(headers)) : rateLimit),
  });
}

/**
 * The query string, each parameter written with its style (OpenAPI's default, `form` exploded:
 * `ids=1&ids=2`, `color=red&size=m`); undefined and null values, and empty arrays, are left out.
 */
function queryString(query: Record<string, unknown>, styles: Readonly<Record<string, QueryStyle>> | undefined): string {
  const parts: string[] = [];
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    const { style, explode, allowReserved } = styles?.[name] ?? DEFAULT_QUERY_STYLE;
    if (Array.isArray(value)) {
      // deepObject is defined for objects only: an array under it is written as form.
      if (value.length > 0) parts.push(serializeArrayParam(name, value, { style: style === "deepObject" ? "form" : style, explode, allowReserved }));
    } else if (typeof value === "object") {
      if (style === "spaceDelimited" || style === "pipeDelimited") {
        // `color=R|100|G|200`: keys and values in one list (openapi-fetch writes these for arrays only).
        const pairs = Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [key, String(item)]);
        parts.push(`${encodeURIComponent(name)}=${pairs.map(encodeURIComponent).join(style === "spaceDelimited" ? "%20" : "|")}`);
      } else {
        parts.push(serializeObjectParam(name, value as Record<string, unknown>, { style, explode, allowReserved }));
      }
    } else {
      parts.push(serializePrimitiveParam(name, String(value), { allowReserved }));
    }
  }
  return parts.join("&");
}

/** The slice of openapi-fetch used here, without the per-path generics the generated methods already apply. */
interface UntypedOpenApiFetch {
  request(
    method: HttpMethod,
    path: string,
    init: Record<string, unknown>,
  ): Promise<{ response: Response; error?: unknown; data?: unknown }>;
}

/**
 * Copies headers as strings, leaving out undefined and null; any `Authorization` (in any case) is
 * dropped: the client's key is always the one sent.
 */
function copyHeaders(from: object, into: Record<string, string>): void {
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || value === null || name.toLowerCase() === "authorization") continue;
    into[name] = String(value);
  }
}

/** The body is serialised before openapi-fetch sees it. */
function passThrough(body: unknown): unknown {
  return body;
}

function isReusable(body: BodyInit | undefined): body is ReusableBody {
  return (
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

function serializeBody(body: unknown, mediaType: string | undefined): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (!mediaType || isJsonMediaType(mediaType)) return JSON.stringify(body);
  if (mediaType === "application/x-www-form-urlencoded") {
    return body instanceof URLSearchParams ? body : new URLSearchParams(body as Record<string, string>);
  }
  if (mediaType === "multipart/form-data") {
    if (body instanceof FormData) return body;
    const form = new FormData();
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      if (value instanceof Blob) form.append(name, value);
      else if (value !== undefined) form.append(name, typeof value === "object" ? JSON.stringify(value) : String(value));
    }
    return form;
  }
  return body as BodyInit;
}

/** The body, parsed as the operation says, and its text when it was read as text. */
async function readBody(
  response: Response,
  kind: OperationSpec["responseKind"],
  describe: () => { method: string; url: string; operationId: string; secrets: readonly string[] },
): Promise<{ data: unknown; text: string | undefined }> {
  if (kind === "none" || response.status === 204) {
    await response.body?.cancel();
    return { data: undefined, text: undefined };
  }
  if (kind === "blob") return { data: await response.blob(), text: undefined };
  const text = await response.text();
  if (kind === "text" || text === "") return { data: kind === "text" ? text : undefined, text };
  try {
    return { data: JSON.parse(text), text };
  } catch {
    const request = describe();
    throw new ApiError("unexpected_status", {
      message: `${request.method} ${new URL(sanitizeUrl(request.url)).pathname} returned ${response.status} with a body that is not JSON`,
      status: response.status,
      // A proxy's page may echo the request, key included.
      rawBody: redactSecrets(text.slice(0, MAX_RAW_BODY_BYTES), request.secrets, { mayBeCut: true }),
      headers: {},
      rateLimit: parseRateLimit(response.headers),
      method: request.method,
      url: sanitizeUrl(request.url),
      operationId: request.operationId,
    });
  }
}

/**
 * A base URL given as an option, checked when the client is made: an absolute http(s) URL without
 * credentials (they would be refused by fetch on every call, with the password in the message).
 * The message names the option and never quotes a URL that holds a password.
 */
function checkBaseUrl(key: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError(`${key} must be an absolute http(s) URL, got ${JSON.stringify(url.includes("@") ? sanitizeUrl(url) : url)}`, { field: key });
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new InvalidRequestError(`${key} must be an http(s) URL, got the scheme ${JSON.stringify(parsed.protocol)}`, { field: key });
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new InvalidRequestError(`${key} must not hold credentials (user:password@): the client sends its API key instead`, { field: key });
  }
  return url;
}
