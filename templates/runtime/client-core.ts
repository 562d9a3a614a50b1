/**
 * What every generated client shares: configuration, the call, response parsing and
 * typed errors. Generated clients extend `ClientCore` with one-line methods, one per operation.
 * Query strings, bodies, cookies and option checks have their own modules (query.ts, body.ts,
 * headers.ts, client-options.ts).
 */
import { createFinalURL } from "openapi-fetch";
import { DEFAULT_TIMEOUT_MS } from "./attempts.js";
import { Authenticator } from "./auth.js";
import { SYSTEM_CLOCK } from "./clock.js";
import type { Clock } from "./clock.js";
import type { AuthSpec } from "./auth.js";
import { isReusable, readBody, serializeBody } from "./body.js";
import { checkBaseUrl, checkMaxResponseBytes, environmentLogger, readEnvironment } from "./client-options.js";
import { MAX_RAW_BODY_BYTES } from "./error-base.js";
import { InvalidRequestError, ResponseValidationError, UnexpectedResponseError } from "./errors.js";
import { appendCookies, clientNameHeaders, cookieHeader, copyHeaders } from "./headers.js";
import { checkHooks } from "./hooks.js";
import { withIdempotencyKey } from "./idempotency.js";
import { fieldPath } from "./json-pointer.js";
import { requestContentType, withContentParameters } from "./media-types.js";
import type { OperationParams, OperationSpec, ResponseValidators } from "./operation-spec.js";
import { buildPath } from "./path.js";
import { queryString } from "./query.js";
import { parseRateLimit } from "./rate-limit.js";
import type { RateLimitState } from "./rate-limit.js";
import { redactSecrets } from "./redact.js";
import { requestIdOf } from "./request-id.js";
import { checkTimeout, MAX_TIMER_MS, sleep } from "./signals.js";
import { prepareCall } from "./transport.js";
import type { Answer, Logger, PreparedCall, PreparedRequest, SuccessAnswer, TransportConfig } from "./transport-types.js";
import { sanitizeUrl } from "./urls.js";
import type { ValidationIssue } from "./validation.js";

// Generated operation specs and the clients' tests name these through the client core.
export type { HttpMethod, OperationParams, OperationSpec, ParameterLocation, ResponseValidators } from "./operation-spec.js";

/** Per-call settings, each overriding the client's. */
export interface RequestOptions {
  /** Cancels the request and any wait between retries. */
  signal?: AbortSignal | undefined;
  /** Per attempt, in milliseconds. */
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** The most of a successful body read, in bytes (the client's `maxResponseBytes`, 64 MiB, by default). */
  maxResponseBytes?: number | undefined;
  /**
   * Extra request headers, over the client's `headers`. Where the contract declares security
   * schemes, one a scheme's credential goes in (and `Authorization`) is ignored: the client's
   * credentials are always used. Where it declares none, they are all sent, and the value of one
   * that may carry a credential (`Authorization`, `Cookie`, `X-API-Key`, names with `token`,
   * `auth`, `secret`…) is blanked out of errors and log lines like a declared credential.
   */
  headers?: Record<string, string> | undefined;
  /**
   * `false`: for an operation whose contract declares an idempotency key header, make no key (one
   * given as the header parameter is still sent), and retry the call only as its method allows: a
   * POST that may have reached the server is then never sent again.
   */
  idempotencyKey?: false | undefined;
  /**
   * What the caller needs of a successful answer: the reason `data` (undefined without a body)
   * cannot be used, or undefined. A reason throws an `UnexpectedResponseError` keeping the raw body
   * (the job helpers check that a job has its `id` and `status`).
   */
  checkResponse?: ((data: unknown, status: number) => string | undefined) | undefined;
}

/**
 * The module that turns an error answer into its typed error, loaded with the first answer that
 * needs it: an app whose calls succeed does not load the error classes of every status.
 */
const loadErrorResponse = () => import("./error-response.js");

/** A URL with a scheme: a server's default without one is relative to a page. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/** A successful call: the typed body and what the response said about the caller's rate limits. */
export interface ApiResult<T> {
  data: T;
  status: number;
  headers: Headers;
  /** The service's id for the request, when its answer carries one (`x-request-id` and the like): what its support asks for. */
  readonly requestId: string | undefined;
  /** Per window (`minute`, `hour`, `day`): requests remaining, seconds to reset, quota, window length. */
  readonly rateLimit: RateLimitState | undefined;
  /**
   * A Response made when first read from what the client read: its body those bytes (readable
   * once, as any Response; the result holds them while it lives), without the wire's
   * Content-Encoding and Content-Length. Not enumerable: spreads, `JSON.stringify` and logs of a
   * result leave it out.
   */
  readonly response: Response;
}

/** A successful answer whose body is read as it comes: see `ClientCore.openStream`. */
export interface OpenedStream {
  status: number;
  headers: Headers;
  /** The URL that answered, without credentials: what errors about the stream name. */
  url: string;
  body: ReadableStream<Uint8Array> | null;
  /** Lets go of the call's guards (the link to the caller's signal): call once the body is done with. */
  release(): void;
}

export interface CoreOptions extends Omit<TransportConfig, "secrets" | "logName" | "credentialHeaders" | "rememberCredentialHeader"> {
  /** Headers sent with every request, under a call's own `headers` (the same rules: RequestOptions.headers). */
  headers?: Record<string, string> | undefined;
  /** Check every request against the contract before sending it; default true. */
  validateRequests?: boolean | undefined;
  /** Check every successful JSON response against the contract; default false. */
  validateResponses?: boolean | undefined;
}

export interface CoreDefaults {
  /** Base URL per server key, from the contract's server variables. */
  servers: Record<string, string>;
  /** Per server key, the environment variable read when its option is not given. */
  serverVariables?: Readonly<Record<string, string>> | undefined;
  /** The environment variable that turns on logging to stderr when no `logger` is given (`debug`, `warn`, `off`). */
  logVariable?: string | undefined;
  /** The contract's security schemes and requirements; absent, requests carry no credential. */
  auth?: AuthSpec | undefined;
  /** The package's name, which starts the client's log messages. */
  packageName?: string | undefined;
  /**
   * Loads the response validators (a dynamic import of their module): called on the first response
   * to check, so an app without `validateResponses` never loads, or bundles, them.
   */
  loadResponseValidators?: (() => Promise<ResponseValidators>) | undefined;
}

export class ClientCore {
  // Private fields: never enumerated, stringified or shown by util.inspect, so the key cannot leak.
  readonly #transport: TransportConfig;
  readonly #servers: Record<string, string>;
  readonly #validateRequests: boolean;
  readonly #validateResponses: boolean;
  readonly #loadResponseValidators: (() => Promise<ResponseValidators>) | undefined;
  #responseValidators: Promise<ResponseValidators> | undefined;
  /** The credentials, checked once (a key that cannot be a header value is refused here), and what each requirement sends. */
  readonly #auth: Authenticator;
  /** The client's `headers` option, names in lower case, without those the credentials go in. */
  readonly #headers: Record<string, string> = {};

  constructor(options: CoreOptions & { servers?: Record<string, string | undefined>; credentials?: Readonly<Record<string, unknown>> }, defaults: CoreDefaults) {
    // Credentials go to the Authenticator only: an `apiKey` among the options (one the contract has no scheme for) is left out of the transport's.
    const { servers, credentials = {}, validateRequests = true, validateResponses = false, headers, apiKey: _unused, credentialHeaders: _set, rememberCredentialHeader: _own, ...transport } = options as typeof options & {
      apiKey?: unknown;
      credentialHeaders?: unknown;
      rememberCredentialHeader?: unknown;
    };
    this.#validateRequests = validateRequests;
    this.#validateResponses = validateResponses;
    this.#loadResponseValidators = defaults.loadResponseValidators;
    this.#auth = new Authenticator(defaults.auth, credentials, clientNameHeaders(transport.userAgent), readEnvironment);
    if (headers !== undefined) {
      if (typeof headers !== "object" || headers === null || Array.isArray(headers)) throw new InvalidRequestError("headers must be an object of header names and values", { field: "headers" });
      copyHeaders(headers, this.#headers, this.#auth.headerNames);
      for (const [name, value] of Object.entries(this.#headers)) this.#auth.rememberCallerHeader(name, value, true);
    }
    checkTimeout("timeoutMs", transport.timeoutMs);
    checkMaxResponseBytes(transport.maxResponseBytes);
    this.#transport = {
      ...transport,
      logger: transport.logger ?? environmentLogger(defaults.logVariable, defaults.packageName),
      hooks: checkHooks(transport.hooks),
      credentialHeaders: this.#auth.headerNames,
      secrets: this.#auth.secrets,
      rememberCredentialHeader: (name: string, value: string) => this.#auth.rememberCallerHeader(name, value),
      logName: defaults.packageName,
    };
    this.#servers = { ...defaults.servers };
    // The option first, then its environment variable; a bad value is named as the user gave it.
    for (const key of new Set([...Object.keys(defaults.servers), ...Object.keys(servers ?? {})])) {
      const given = servers?.[key];
      const variable = defaults.serverVariables?.[key];
      const fromEnvironment = given === undefined && variable !== undefined ? readEnvironment(variable) : undefined;
      if (given !== undefined) this.#servers[key] = checkBaseUrl(key, given).replace(/\/+$/, "");
      else if (fromEnvironment !== undefined) this.#servers[key] = checkBaseUrl(variable!, fromEnvironment).replace(/\/+$/, "");
      // A relative server resolves against a page; elsewhere fetch cannot send to it, so say so now.
      else if (!ABSOLUTE_URL.test(this.#servers[key] ?? "") && !("location" in globalThis)) {
        const orVariable = variable === undefined ? "" : ` (or set ${variable})`;
        throw new InvalidRequestError(`${key} is required outside a browser: the contract's server is relative (${this.#servers[key] || "/"}), so pass an absolute http(s) URL${orVariable}`, { field: key });
      }
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
    if (this.#validateRequests) refuseIssues(operationId, check(), prefix);
  }

  /**
   * Sends one operation through `client`: what the standalone operation functions
   * (`<package>/operations`) call, so that an app bundles only the operations it calls.
   */
  static send<T>(client: ClientCore, spec: OperationSpec, params?: OperationParams, options?: RequestOptions): Promise<ApiResult<T>> {
    return client.request<T>(spec, params, options);
  }

  /** The timeout of one attempt of a call with `options` through `client` (the client's by default); 0 for none. */
  static timeoutOf(client: ClientCore, options?: RequestOptions): number {
    return Math.min(options?.timeoutMs ?? client.#transport.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS);
  }

  /** The clock `client` waits by (its `clock` option, else the platform's): an extension's waits use it too. */
  static clockOf(client: unknown): Clock {
    return client instanceof ClientCore ? (client.#transport.clock ?? SYSTEM_CLOCK) : SYSTEM_CLOCK;
  }

  /**
   * A helper's options with its `now` and `sleep` (the clock and the pause it waits by) taken from
   * `client`'s clock where the caller gave none: the job helpers' waits follow the client's `clock`.
   */
  static timed<T extends { now?: (() => number) | undefined; sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined }>(client: unknown, options: T): T {
    if (options.now !== undefined && options.sleep !== undefined) return options;
    const clock = ClientCore.clockOf(client);
    return { ...options, now: options.now ?? (() => clock.now()), sleep: options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, signal, clock)) };
  }

  /** Sends one operation and returns its typed body, or throws a typed error. */
  protected async request<T>(spec: OperationSpec, given: OperationParams = {}, options: RequestOptions = {}): Promise<ApiResult<T>> {
    const { call, baseUrl, url, sent } = await this.#prepare(spec, given, options, false);
    return this.exchange<T>(spec, call, baseUrl, url, sent, options.checkResponse);
  }

  /**
   * Sends one operation whose successful body `client`'s caller reads as it comes (an event
   * stream): the same credentials, checks, hooks, retries and typed errors as any call up to the
   * answer's headers; a 2xx answer is handed over with its body unread.
   */
  static async openStream(client: ClientCore, spec: OperationSpec, given: OperationParams = {}, options: RequestOptions = {}): Promise<OpenedStream> {
    const { call, baseUrl, url, sent } = await client.#prepare(spec, given, options, true);
    const answer = await call.fetch(url, sent);
    const described = client.describe(spec, answer, baseUrl);
    if (!answer.ok) throw (await loadErrorResponse()).errorFromAnswer(answer, described);
    const stream = answer.stream ?? { body: null, release: () => undefined };
    return { status: answer.status, headers: answer.headers, url: sanitizeUrl(described.url, client.#auth.secrets), ...stream };
  }

  /** The request of one call, checked and built, and its prepared transport. */
  async #prepare(spec: OperationSpec, given: OperationParams, options: RequestOptions, streamBody: boolean) {
    const baseUrl = this.baseUrl(spec.server);
    if (spec.dates !== undefined) {
      // Dates become the text their format says first: the checks and the wire see what the contract describes.
      const converted = spec.dates.toText(given);
      // A Date that is no instant is refused even unchecked: nothing could be sent for it.
      refuseIssues(spec.operationId, converted.issues);
      given = converted.params;
    }
    const auth = this.#auth.applied(spec.security, spec.operationId);
    for (const field of spec.secretBodyFields ?? []) {
      let value: unknown = given.body;
      for (const key of field) value = typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
      if (typeof value === "string" && value !== "") this.#auth.rememberSecret(value);
    }
    // The spec's own check first (a job's input against its model's schema): its messages are the most precise.
    // It may load its checks on demand (a model's input checks), hence awaited; not even loaded when checks are off.
    if (spec.checkParams !== undefined && this.#validateRequests) {
      const checked = spec.checkParams(given);
      // Awaited only when it is loading: a check already at hand adds no turn before the request goes out.
      const issues = Array.isArray(checked) ? checked : await checked;
      this.assertValid(spec.operationId, () => issues);
    }
    if (this.#validateRequests && spec.validateRequest !== undefined) {
      const issues = spec.validateRequest(given);
      if (issues.length > 0) this.assertValid(spec.operationId, () => issues);
    }
    // Checked as the caller gave them; sent as their media type writes them.
    const params = spec.contentParameters === undefined ? given : withContentParameters(given, spec.contentParameters);
    // Serialised once, before the first attempt, so that a retry can send the same body again.
    const body = params.body === undefined ? undefined : serializeBody(params.body, spec.requestMediaType);
    // Names in lower case, so each is sent once whatever case callers and the contract spell it in.
    const headers: Record<string, string> = { ...this.#headers };
    if (options.headers !== undefined) copyHeaders(options.headers, headers, this.#auth.headerNames);
    if (params.header !== undefined) copyHeaders(params.header, headers, this.#auth.headerNames, spec.headerStyles);
    // Before anything is sent or can fail: the caller's own credentials are blanked like the client's.
    for (const [name, value] of Object.entries(headers)) this.#auth.rememberCallerHeader(name, value);
    // Made once per call, before the first attempt: every attempt sends the same key.
    const keyed = spec.idempotencyHeader !== undefined && withIdempotencyKey(spec.idempotencyHeader, headers, options.idempotencyKey === false);
    const call = prepareCall(this.#transport, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      maxResponseBytes: options.maxResponseBytes,
      operationId: spec.operationId,
      body: isReusable(body) ? body : undefined,
      ...(streamBody ? { streamBody } : {}),
      ...(keyed ? { idempotent: true } : {}),
    });
    if (params.cookie !== undefined) appendCookies(headers, cookieHeader(params.cookie, spec.cookieStyles));
    const contentType = spec.requestMediaType === undefined || body === undefined ? undefined : requestContentType(spec.requestMediaType, body);
    if (contentType !== undefined) headers["content-type"] = contentType;
    // Last, so they replace whatever a caller set under any spelling (every name is in lower case here).
    for (const name in auth.headers) headers[name.toLowerCase()] = auth.headers[name] as string;
    if (auth.tokens !== undefined) {
      for (const token of auth.tokens) headers["authorization"] = `Bearer ${await this.#auth.token(token)}`;
    }
    // A key sent as a query parameter joins the caller's.
    const query = auth.query === undefined ? params.query : { ...params.query, ...auth.query };
    // Built before anything is sent, so a bad path parameter is refused first; each parameter as its contract says.
    const url = createFinalURL(spec.path, {
      baseUrl,
      params: { path: params.path, query },
      pathSerializer: (url: string, path: Record<string, unknown>) => buildPath(url, path, spec.pathStyles),
      querySerializer: (query: Record<string, unknown>) => queryString(query, spec.queryStyles),
    } as Parameters<typeof createFinalURL>[1]);
    // A body of no stated type is JSON, unless it is multipart (fetch writes that type and its boundary).
    if (body !== undefined && !(body instanceof FormData) && headers["content-type"] === undefined) {
      headers["content-type"] = "application/json";
    }
    const sent = { method: spec.method, headers, body, redirect: auth.manualRedirect ? ("manual" as const) : undefined };
    return { call, baseUrl, url, sent };
  }

  /** Sends the call and parses its response, whose body the transport read within the attempt. */
  private async exchange<T>(
    spec: OperationSpec,
    call: PreparedCall,
    baseUrl: string,
    target: string,
    request: PreparedRequest,
    checkResponse: RequestOptions["checkResponse"],
  ): Promise<ApiResult<T>> {
    const answer = await call.fetch(target, request);
    // The transport read an error body (at most 64 KiB) within the attempt: the error keeps it as it came.
    if (!answer.ok) throw (await loadErrorResponse()).errorFromAnswer(answer, this.describe(spec, answer, baseUrl));
    const received = readBody(answer, spec.responseKind);
    if (received.notJson) throw (await loadErrorResponse()).notJsonError(answer, received.text!, this.describe(spec, answer, baseUrl));
    const data = received.data as T;
    // The body as it came, with the key blanked out should the server have echoed it.
    const rawBody = () => redactSecrets((received.text ?? "").slice(0, MAX_RAW_BODY_BYTES), this.#auth.secrets, { mayBeCut: true });
    const url = () => sanitizeUrl(this.describe(spec, answer, baseUrl).url, this.#auth.secrets);
    // What the caller needs comes first: it says what an unusable answer means (a job may exist).
    const unusable = checkResponse?.(data, answer.status);
    if (unusable !== undefined) {
      throw new UnexpectedResponseError({ status: answer.status, method: spec.method, url: url(), operationId: spec.operationId, requestId: requestIdOf(answer.headers), reason: unusable, rawBody: rawBody() });
    }
    const invalid = (problems: ValidationIssue[]) =>
      new ResponseValidationError({ status: answer.status, method: spec.method, url: url(), operationId: spec.operationId, requestId: requestIdOf(answer.headers), rawBody: rawBody(), problems });
    const byStatus = this.#validateResponses && spec.responseKind === "json" ? (await this.responseValidators())[spec.operationId] : undefined;
    const issues = byStatus === undefined ? [] : responseIssues(byStatus, answer.status, data);
    if (issues.length > 0) throw invalid(issues);
    if (spec.dates === undefined || spec.responseKind !== "json") return resultOf(data, answer);
    // Checked as the JSON text says, then dates as Dates; a string that is no date fails even unchecked, as a Date cannot hold it.
    const converted = spec.dates.fromJson(answer.status, data);
    if (converted.issues.length > 0) throw invalid(converted.issues);
    return resultOf(converted.data as T, answer);
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

  /** The request as errors describe it: the URL that answered, else the operation's (a custom fetch's Response may have none). */
  private describe(spec: OperationSpec, answer: Answer, baseUrl: string) {
    return { method: spec.method, url: answer.url || `${baseUrl}${spec.path}`, operationId: spec.operationId, secrets: this.#auth.secrets };
  }
}

/** Throws an InvalidRequestError listing every issue, if any; `prefix` turns their JSON pointers into field paths. */
function refuseIssues(operationId: string, issues: readonly ValidationIssue[], prefix = ""): void {
  if (issues.length === 0) return;
  const problems = issues.map((issue) => ({ ...issue, path: fieldPath(prefix, issue.path) }));
  const lines = problems.map((p) => `  ${p.path || "(request)"}: ${p.message}`).join("\n");
  throw new InvalidRequestError(`${operationId}: ${problems.length === 1 ? "1 invalid field" : `${problems.length} invalid fields`}, nothing was sent:\n${lines}`, {
    field: problems[0]!.path,
    problems,
  });
}

/**
 * The problems of a success answer against its operation's row of the response validators: a
 * success status the contract lists neither itself nor by its range is one (`default` describes
 * errors, as everywhere in the client); a listed status is checked against its own schema, a range's
 * otherwise. A status without content (204, 205) has no body to check, and one documented without
 * a JSON schema (`null`) admits any body.
 */
function responseIssues(byStatus: Readonly<Record<string, ((body: unknown) => ValidationIssue[]) | null>>, status: number, data: unknown): ValidationIssue[] {
  const code = String(status);
  const key = code in byStatus ? code : `${code[0]}XX` in byStatus ? `${code[0]}XX` : undefined;
  if (key === undefined) {
    return [{ path: "", keyword: "status", message: `is not a status the contract lists for this operation (only ${Object.keys(byStatus).join(", ")})`, schemaPath: "" }];
  }
  const validate = byStatus[key];
  if (!validate || status === 204 || status === 205) return [];
  return validate(data);
}

/** Where a result keeps what its accessors make from the answer (a symbol: no key, no JSON). */
const RESULT_STATE = Symbol("result state");

interface ResultState {
  answer: SuccessAnswer;
  requestId: string | undefined | null;
  rateLimit: RateLimitState | undefined | null;
  response: Response | undefined;
}

type WithState = { [RESULT_STATE]: ResultState };

/**
 * A result's `requestId`, `rateLimit` (own and enumerable, so `{ ...result }`, `Object.assign` and
 * `JSON.stringify` keep them like the other fields) and `response` (not enumerable): made from the
 * answer when first read, so calls that never look pay nothing. One set for every result, reading
 * its state by a symbol, which a Proxy (a framework's reactive wrapper) passes on, as it would not
 * a private field.
 */
const RESULT_ACCESSORS: PropertyDescriptorMap = {
  requestId: {
    enumerable: true,
    configurable: true,
    get(this: WithState) {
      const state = this[RESULT_STATE];
      return state.requestId === null ? (state.requestId = requestIdOf(state.answer.headers)) : state.requestId;
    },
  },
  rateLimit: {
    enumerable: true,
    configurable: true,
    get(this: WithState) {
      const state = this[RESULT_STATE];
      return state.rateLimit === null ? (state.rateLimit = parseRateLimit(state.answer.headers)) : state.rateLimit;
    },
  },
  response: {
    configurable: true,
    get(this: WithState) {
      const state = this[RESULT_STATE];
      return (state.response ??= responseOf(state.answer));
    },
  },
};

function resultOf<T>(data: T, answer: SuccessAnswer): ApiResult<T> {
  const state: ResultState = { answer, requestId: null, rateLimit: null, response: undefined };
  // Not enumerable: spreads, Object.assign and console.log of a result leave the answer out.
  const result = Object.defineProperty({ data, status: answer.status, headers: answer.headers }, RESULT_STATE, { value: state });
  return Object.defineProperties(result, RESULT_ACCESSORS) as unknown as ApiResult<T>;
}

/** Statuses whose Response may not have a body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/**
 * A Response holding the body the transport read, otherwise as the answer was: its status and
 * headers, less the two that described the bytes on the wire (they were decoded), and its URL,
 * which a Response made here would not have.
 */
function responseOf(answer: SuccessAnswer): Response {
  const { chunks } = answer;
  const body = chunks.length === 0 || NULL_BODY_STATUSES.has(answer.status) ? null : new Blob(chunks as Uint8Array<ArrayBuffer>[]);
  const headers = new Headers(answer.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  const response = new Response(body, { status: answer.status, statusText: answer.statusText, headers });
  if (answer.url !== "") Object.defineProperty(response, "url", { value: answer.url });
  return response;
}
