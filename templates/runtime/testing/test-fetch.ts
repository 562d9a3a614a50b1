/**
 * The test kit's `fetch`: answers each operation of the contract in-process, from the contract's
 * examples or what a test scripts, and checks each request with the package's validators. Only
 * web-standard Request and Response: it runs wherever the package does (Node, Deno, Bun, browsers).
 */
import { fieldPath } from "../json-pointer.js";
import type { OperationParams, OperationSpec } from "../operation-spec.js";
import type { ValidationIssue } from "../validation.js";
import { buildResponse, deliver, documented, successStatus } from "./answers.js";
import type { ExampleResponse, TestAnswer } from "./answers.js";
import { Quota, retryAfterHeaders } from "./rate-limits.js";
import type { RateLimitRule } from "./rate-limits.js";
import { checkParams, compileRoute, matchRoute, readParams } from "./routes.js";
import type { ParameterNames, Route } from "./routes.js";
import { TestClock } from "./test-clock.js";

/** What the generated `testing` module knows of each operation besides its spec. */
export interface TestOperationFacts {
  methodName: string;
  parameters: ParameterNames;
  responses: readonly ExampleResponse[];
}

/** What a handler is told besides the request: the operation it matched, its parameters as read, the kit's clock. */
export interface TestContext {
  /** The operation's operationId; undefined for a request no operation matches (the fallback's). */
  operationId: string | undefined;
  params: OperationParams;
  clock: TestClock;
  /** The contract's answer for the operation (its example), to answer with or change. */
  example(): Response;
}

/** Answers one request in-process: a fake of (part of) the service plugs in as one. */
export type TestHandler = (request: Request, context: TestContext) => Response | Promise<Response>;

/** A request the kit received, as a test asserts on it. */
export interface RecordedRequest {
  /** undefined when no operation matched (answered 404, or by the fallback). */
  operationId: string | undefined;
  method: string;
  url: string;
  headers: Headers;
  /** Parameters and body read back as the validators take them. */
  params: OperationParams;
  /** What the operation's validator found wrong (empty when the request matches the contract). */
  issues: readonly ValidationIssue[];
  /** The kit clock's time when it arrived. */
  at: number;
}

export interface TestFetchOptions<Name extends string = string> {
  /** The clock delays, quotas and the client's waits run on; default a new auto-advancing `TestClock`. */
  clock?: TestClock | undefined;
  /** Per operation (operationId or method name, `"*"` every one): a handler answering it instead of the examples. */
  handlers?: Partial<Record<Name | "*", TestHandler>> | undefined;
  /** Answers requests no operation matches, instead of a 404. */
  fallback?: TestHandler | undefined;
  /** Check each request with the operation's validator, answering 400 naming each field; default true. */
  validateRequests?: boolean | undefined;
}

export interface TestFetch<Name extends string = string> {
  /** The in-process fetch: give it to the client as its `fetch` option. */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  readonly clock: TestClock;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** The requests an operation received. */
  requestsTo(name: Name): RecordedRequest[];
  /** The requests that broke the contract, with what was wrong. */
  readonly invalidRequests: readonly RecordedRequest[];
  /** Queues answers for an operation, each for its `times` requests (default 1), then its examples again. */
  answer(name: Name, ...answers: TestAnswer[]): TestFetch<Name>;
  /** Answers an operation (or every one, `"*"`) with a handler from now on. */
  handle(name: Name | "*", handler: TestHandler): TestFetch<Name>;
  /** Counts an operation's (or every one's, `"*"`, together) requests against a quota on the kit's clock. */
  rateLimit(name: Name | "*", rule: RateLimitRule): TestFetch<Name>;
  /** Forgets the scripts, handlers, quotas and recorded requests (the clock goes on). */
  reset(): void;
}

interface Operation {
  route: Route;
  facts: TestOperationFacts;
}

/** The kit for a package's operations: `specs` and `facts` side by side, in the same order. */
export function createTestKit<Name extends string>(specs: readonly OperationSpec[], facts: readonly TestOperationFacts[], options: TestFetchOptions<Name> = {}): TestFetch<Name> {
  const operations: Operation[] = specs.map((spec, index) => ({ route: compileRoute(spec), facts: facts[index]! }));
  const byName = new Map<string, Operation>();
  for (const operation of operations) {
    byName.set(operation.route.spec.operationId, operation);
    if (!byName.has(operation.facts.methodName)) byName.set(operation.facts.methodName, operation);
  }
  const clock = options.clock ?? new TestClock();
  const validate = options.validateRequests ?? true;
  const queues = new Map<string, TestAnswer[]>();
  const handlers = new Map<string, TestHandler>();
  const quotas = new Map<string, Quota>();
  const requests: RecordedRequest[] = [];

  const named = (name: string): string => {
    if (name === "*") return name;
    const operation = byName.get(name);
    if (operation === undefined) throw new Error(`the test kit knows no operation "${name}" (known: ${[...byName.keys()].slice(0, 8).join(", ")}…)`);
    return operation.route.spec.operationId;
  };
  for (const [name, handler] of Object.entries(options.handlers ?? {})) if (handler !== undefined) handlers.set(named(name), handler as TestHandler);

  /** The operation a request is for: the most specific template of its method, or why none is. */
  const find = (method: string, pathname: string): { operation: Operation; path: Record<string, string> } | { allowed: string[] } => {
    let best: { operation: Operation; path: Record<string, string> } | undefined;
    const allowed: string[] = [];
    for (const operation of operations) {
      const path = matchRoute(operation.route, pathname);
      if (path === undefined) continue;
      if (operation.route.spec.method !== method) {
        allowed.push(operation.route.spec.method);
        continue;
      }
      if (best === undefined || operation.route.weight > best.operation.route.weight) best = { operation, path };
    }
    return best ?? { allowed };
  };

  /** The next scripted answer of an operation, consumed as its `times` say. */
  const scripted = (operationId: string): TestAnswer | undefined => {
    const queue = queues.get(operationId);
    const next = queue?.[0];
    if (next === undefined) return undefined;
    const left = (next.times ?? 1) - 1;
    if (left <= 0) queue!.shift();
    else queue![0] = { ...next, times: left };
    return next;
  };

  const answerOperation = async (request: Request, operation: Operation, params: OperationParams, issues: readonly ValidationIssue[]): Promise<Response> => {
    const { spec } = operation.route;
    const { responses } = operation.facts;
    const example = (): Response => buildResponse(successStatus(responses), {}, documented(responses, successStatus(responses)));
    if (issues.length > 0) return invalid(spec.operationId, issues);
    const quota = quotas.get(spec.operationId) ?? quotas.get("*");
    const counted = quota?.take(clock.now());
    if (counted?.limited) return buildResponse(429, { headers: counted.headers }, documented(responses, 429));
    const answer = scripted(spec.operationId);
    const handler = handlers.get(spec.operationId) ?? handlers.get("*");
    const context: TestContext = { operationId: spec.operationId, params, clock, example };
    const respond = (): Response | Promise<Response> => {
      if (answer === undefined && handler !== undefined) return handler(request, context);
      const script = answer ?? {};
      const status = script.status ?? (script.retryAfterSeconds !== undefined ? 429 : successStatus(responses));
      const headers = { ...counted?.headers, ...(script.retryAfterSeconds === undefined ? {} : retryAfterHeaders(script.retryAfterSeconds, responses)), ...script.headers };
      return buildResponse(status, { ...script, headers }, documented(responses, status));
    };
    return deliver(answer ?? {}, request, clock, respond);
  };

  const kitFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const url = new URL(request.url);
    const found = find(request.method.toUpperCase(), url.pathname);
    if (!("operation" in found)) {
      requests.push({ operationId: undefined, method: request.method, url: request.url, headers: request.headers, params: {}, issues: [], at: clock.now() });
      const context: TestContext = { operationId: undefined, params: {}, clock, example: () => new Response(null, { status: 404 }) };
      if (options.fallback !== undefined) return options.fallback(request, context);
      return unknownRoute(request.method, url.pathname, found.allowed);
    }
    const { operation, path } = found;
    const { spec } = operation.route;
    const read = await readParams(request.clone(), spec, operation.facts.parameters, path);
    let issues = validate ? checkParams(spec.validateRequest, read.params, spec) : [];
    // A body the kit cannot read back (bytes, multipart files) is not held against the request.
    if (read.unreadBody) issues = issues.filter((issue) => !issue.path.startsWith("/body"));
    requests.push({ operationId: spec.operationId, method: request.method, url: request.url, headers: request.headers, params: read.params, issues, at: clock.now() });
    return answerOperation(request, operation, read.params, issues);
  };

  const kit: TestFetch<Name> = {
    fetch: kitFetch,
    clock,
    requests,
    requestsTo: (name) => requests.filter((request) => request.operationId === named(name)),
    get invalidRequests() {
      return requests.filter((request) => request.issues.length > 0);
    },
    answer(name, ...answers) {
      const operationId = named(name);
      queues.set(operationId, [...(queues.get(operationId) ?? []), ...answers]);
      return kit;
    },
    handle(name, handler) {
      handlers.set(named(name), handler);
      return kit;
    },
    rateLimit(name, rule) {
      if (!(Number.isInteger(rule.limit) && rule.limit >= 0 && rule.windowSeconds > 0)) throw new Error("rateLimit: limit is a whole number, 0 or more, and windowSeconds more than 0");
      const operationId = named(name);
      quotas.set(operationId, new Quota(rule, operationId === "*" ? [] : byName.get(operationId)!.facts.responses));
      return kit;
    },
    reset() {
      queues.clear();
      handlers.clear();
      quotas.clear();
      requests.length = 0;
    },
  };
  return kit;
}

/** A 400 problem naming each field the request got wrong, as a server checking the contract would. */
function invalid(operationId: string, issues: readonly ValidationIssue[]): Response {
  const errors = issues.map((issue) => ({ field: fieldPath("", issue.path) || "(the request)", pointer: issue.path, message: issue.message }));
  const detail = `${operationId}: ${errors.map((error) => `${error.field} ${error.message}`).join("; ")}`;
  return Response.json({ type: "about:blank", title: "Bad Request", status: 400, detail, errors }, { status: 400, headers: { "content-type": "application/problem+json" } });
}

/** A 404 (or 405 when the path is known under other methods) saying what the kit could not match. */
function unknownRoute(method: string, pathname: string, allowed: readonly string[]): Response {
  if (allowed.length > 0) {
    const detail = `the test kit has no ${method} operation at ${pathname}; the contract has ${[...new Set(allowed)].join(", ")} there`;
    return Response.json({ type: "about:blank", title: "Method Not Allowed", status: 405, detail }, { status: 405, headers: { "content-type": "application/problem+json", allow: [...new Set(allowed)].join(", ") } });
  }
  const detail = `the test kit matches no operation of the contract to ${method} ${pathname} (it compares the method and the end of the path with each path template)`;
  return Response.json({ type: "about:blank", title: "Not Found", status: 404, detail }, { status: 404, headers: { "content-type": "application/problem+json" } });
}
