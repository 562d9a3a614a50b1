/**
 * What an app adds around the client, against a scripted loopback server: hooks run once per
 * attempt and never see a credential, the raw response beside the parsed data, request ids on
 * results and errors, debug logging switched on by an environment variable, and base URLs read
 * from the environment (the option first).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import util from "node:util";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ConnectionError, GpuCloudClient, InvalidRequestError, NotFoundError, ResponseValidationError, TimeoutError, type ClientHooks } from "../../generated/gpu-cloud-client/src/index.ts";
import { driven, jsonResponse, scriptedFetch } from "../support/scripted-fetch.ts";

const KEY = "sk-live-hooks-0123456789abcdef";
type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let replies: Reply[] = [];
let received: http.IncomingHttpHeaders[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(req.headers);
    const reply = replies.shift() ?? ((_, r) => json(r, 200, { pods: [] }, { "x-request-id": "req-default" }));
    req.resume().on("end", () => reply(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  replies = [];
  received = [];
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function client(options: ConstructorParameters<typeof GpuCloudClient>[0] = {}) {
  return new GpuCloudClient({ apiKey: KEY, baseUrl, publicEndpointBaseUrl: baseUrl, retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...options });
}

/** Every string a hook was handed, flattened, to look for the key in. */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (value instanceof Headers) for (const [name, v] of value) into.push(name, v);
  else if (value instanceof Error) into.push(value.message, JSON.stringify(value));
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) strings(v, into);
  return into;
}

describe("hooks", () => {
  it("run once per attempt, in order, may add headers, and never see the key", async () => {
    replies = [(_, r) => json(r, 503, { title: "busy" }, { "x-request-id": "req-1" }), (_, r) => json(r, 200, { pods: [] }, { "x-request-id": "req-2" })];
    const seen: Array<{ hook: string; value: any }> = [];
    const tracing: ClientHooks = {
      onRequest(request) {
        seen.push({ hook: "tracing.onRequest", value: { ...request, headers: new Headers(request.headers) } });
        request.headers.set("traceparent", `00-trace-${request.attempt}`);
        // A hook cannot replace a credential: this is dropped.
        request.headers.set("Authorization", "Bearer stolen");
      },
      onResponse(response) {
        seen.push({ hook: "tracing.onResponse", value: response });
      },
    };
    const timing: ClientHooks = { onRequest: (request) => void seen.push({ hook: "timing.onRequest", value: { attempt: request.attempt } }) };
    const warnings: Array<{ message: string; fields: unknown }> = [];
    const logger = { warn: (message: string, fields?: Record<string, unknown>) => void warnings.push({ message, fields }) };
    const result = await client({ hooks: [tracing, timing], logger }).listPods();
    expect(result.data).toEqual({ pods: [] });
    expect(seen.map((s) => `${s.hook}#${s.value.attempt}`)).toEqual([
      "tracing.onRequest#1",
      "timing.onRequest#1",
      "tracing.onResponse#1",
      "tracing.onRequest#2",
      "timing.onRequest#2",
      "tracing.onResponse#2",
    ]);
    expect(seen[0]!.value).toMatchObject({ operationId: "listPods", method: "GET", url: `${baseUrl}/v2/pods` });
    expect(seen[2]!.value).toMatchObject({ status: 503, requestId: "req-1" });
    expect(seen[5]!.value).toMatchObject({ status: 200, requestId: "req-2" });
    expect(seen[5]!.value.durationMs).toBeGreaterThanOrEqual(0);
    expect(received.map((h) => h["traceparent"])).toEqual(["00-trace-1", "00-trace-2"]);
    expect(received.map((h) => h.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    // Said to the logger, so the ignored header does not go unnoticed.
    expect(warnings.map((w) => w.message)).toEqual(Array(2).fill("gpu-cloud-client a hook set a header the client's credentials go in; the client's own is sent"));
    expect(warnings[0]!.fields).toMatchObject({ headers: ["authorization"] });
    expect(strings(seen).filter((s) => s.includes(KEY))).toEqual([]);
    expect(strings(seen).some((s) => s.toLowerCase() === "authorization")).toBe(false);
  });

  it("a single hook object works as a list of one; onError gets the typed failure of an attempt without a response", async () => {
    const errors: unknown[] = [];
    const unused = http.createServer();
    await new Promise<void>((resolve) => unused.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${(unused.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => unused.close(() => resolve()));
    const failed = await client({ baseUrl: deadUrl, maxRetries: 1, hooks: { onError: (failure) => void errors.push(failure) } })
      .listPods()
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ operationId: "listPods", attempt: 1, method: "GET" });
    expect((errors[1] as { error: unknown }).error).toBeInstanceOf(ConnectionError);

    const timeouts: unknown[] = [];
    replies = [(_, res) => setTimeout(() => json(res, 200, { pods: [] }), 300)];
    const late = await client({ timeoutMs: 50, maxRetries: 0, hooks: { onError: (failure) => void timeouts.push(failure.error) } })
      .listPods()
      .catch((error: unknown) => error);
    expect(late).toBeInstanceOf(TimeoutError);
    expect(timeouts).toEqual([late]);
  });

  it("onResponse never sees a credential the server echoes, in any spelling, nor a cookie; durationMs is the time to the answer", async () => {
    const echoed = Buffer.from(`Bearer ${KEY}`).toString("base64");
    replies = [(_, r) => setTimeout(() => json(r, 200, { pods: [] }, { "x-echo-plain": `key=${KEY}`, "x-echo-base64": echoed, "set-cookie": "session=abc", "x-kept": "yes" }), 40)];
    const seen: Array<{ headers: Headers; durationMs: number }> = [];
    const started = performance.now();
    await client({ hooks: { onResponse: (response) => void seen.push(response) } }).listPods();
    const elapsed = performance.now() - started;
    expect(seen).toHaveLength(1);
    const names = [...seen[0]!.headers.keys()];
    expect(names).toContain("x-kept");
    for (const hidden of ["x-echo-plain", "x-echo-base64", "set-cookie"]) expect(names).not.toContain(hidden);
    expect(seen[0]!.durationMs).toBeGreaterThanOrEqual(35);
    expect(seen[0]!.durationMs).toBeLessThanOrEqual(elapsed);
  });

  it("a hook's own time does not count against the request's timeout", async () => {
    // On fake timers against a scripted fetch: the answer takes 400 of the 500 ms, the hooks 600 each, however slow the machine.
    vi.useFakeTimers();
    try {
      const { fetch, requests } = scriptedFetch(() => ({ delayMs: 400, response: jsonResponse(200, { pods: [] }) }));
      const slow = { onRequest: () => new Promise<void>((resolve) => setTimeout(resolve, 600)), onResponse: () => new Promise<void>((resolve) => setTimeout(resolve, 600)) };
      const started = Date.now();
      const result = await driven(client({ timeoutMs: 500, maxRetries: 0, hooks: slow, fetch }).listPods());
      expect(result.status).toBe(200);
      expect(requests).toHaveLength(1);
      expect(Date.now() - started).toBe(1_600);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a hook's error is never retried, even one of the client's own retryable kinds", async () => {
    const own = new TimeoutError({ method: "GET", url: "https://elsewhere.example/x", timeoutMs: 1 });
    const failed = await client({ hooks: { onResponse: () => { throw own; } } }).listPods().catch((error: unknown) => error);
    expect(failed).toBe(own);
    expect(received).toHaveLength(1);
  });

  it("a logger that throws ends the call with its error", async () => {
    const broken = new Error("logger broke");
    const failed = await client({ logger: { debug: () => { throw broken; } } }).listPods().catch((error: unknown) => error);
    expect(failed).toBe(broken);
  });

  it("an onResponse hook that throws fails the call with its error, and nothing is retried", async () => {
    replies = [(_, r) => json(r, 503, { title: "busy" })];
    const boom = new Error("onResponse refused");
    const failed = await client({ hooks: { onResponse: () => { throw boom; } } }).listPods().catch((error: unknown) => error);
    expect(failed).toBe(boom);
    expect(received).toHaveLength(1);
  });

  it("a hook that throws fails the call with its error, and nothing is sent", async () => {
    const boom = new Error("hook refused");
    const failed = await client({ hooks: { onRequest: () => Promise.reject(boom) } })
      .listPods()
      .catch((error: unknown) => error);
    expect(failed).toBe(boom);
    expect(received).toEqual([]);
  });

  it("hooks must be objects of functions: anything else is refused at construction, by option name", () => {
    expect(() => client({ hooks: { onRequest: "log" } as never })).toThrow(/hooks\.onRequest must be a function/);
    expect(() => client({ hooks: [{}, 5] as never })).toThrow(/hooks\[1\] must be an object/);
  });
});

describe("the raw response and request ids", () => {
  it("a result keeps the platform Response (status, headers, the body as it came) beside the data", async () => {
    replies = [(_, r) => json(r, 200, { pods: [{ id: "p1" }] }, { "x-request-id": "req-raw", "x-extra": "1" })];
    const result = await client({ validateRequests: false }).listPods();
    expect(result.requestId).toBe("req-raw");
    expect(result.response).toBeInstanceOf(Response);
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get("x-extra")).toBe("1");
    expect(result.response.url).toBe(`${baseUrl}/v2/pods`);
    expect(await result.response.json()).toEqual({ pods: [{ id: "p1" }] });
    // The Response is not data: it stays out of JSON and of spread copies' enumerable keys.
    expect(Object.keys(result)).toEqual(["data", "status", "headers", "requestId", "rateLimit"]);
    expect(Object.keys({ ...result })).not.toContain("response");
    expect(JSON.parse(JSON.stringify(result))).toMatchObject({ requestId: "req-raw", status: 200 });
  });

  it("a result in a Proxy (a framework's reactive wrapper) still reads its rate limit and response", async () => {
    replies = [(_, r) => json(r, 200, { pods: [] }, { "x-request-id": "req-proxy", RateLimit: '"minute";r=5;t=30', "RateLimit-Policy": '"minute";q=10;w=60' })];
    const wrapped = new Proxy(await client().listPods(), {});
    expect(wrapped.requestId).toBe("req-proxy");
    expect(wrapped.rateLimit?.windows[0]).toMatchObject({ name: "minute", remaining: 5 });
    expect(await wrapped.response.json()).toEqual({ pods: [] });
  });

  it("a result shows its fields only: spreads, Object.assign and util.inspect leave the answer out", async () => {
    replies = [(_, r) => json(r, 200, { pods: [] }, { "x-request-id": "req-shown", "x-secret-looking": "s3cr3t-header" })];
    const result = await client().listPods();
    expect(Object.getOwnPropertySymbols({ ...result })).toEqual([]);
    expect(Object.getOwnPropertySymbols(Object.assign({}, result))).toEqual([]);
    const shown = util.inspect(result, { depth: 5 });
    expect(shown).toContain("req-shown");
    expect(shown).not.toContain("Response");
    expect(shown).not.toContain("chunks");
  });

  it("the raw response of a gzip answer holds the decoded bytes, without the wire's Content-Encoding and Content-Length", async () => {
    const body = JSON.stringify({ pods: [{ id: "p-gz" }] });
    replies = [(_, r) => {
      const zipped = zlib.gzipSync(body);
      r.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(zipped.length) });
      r.end(zipped);
    }];
    const result = await client({ validateRequests: false }).listPods();
    expect(result.data).toEqual({ pods: [{ id: "p-gz" }] });
    expect(result.response.headers.get("content-encoding")).toBeNull();
    expect(result.response.headers.get("content-length")).toBeNull();
    expect(await result.response.text()).toBe(body);
  });

  it("no request id header: requestId is undefined; other spellings the services use are read", async () => {
    replies = [(_, r) => json(r, 200, { pods: [] }), (_, r) => json(r, 200, { pods: [] }, { "request-id": "rid-2" })];
    expect((await client().listPods()).requestId).toBeUndefined();
    expect((await client().listPods()).requestId).toBe("rid-2");
  });

  it("an error carries the request id of the answer it reports", async () => {
    replies = [(_, r) => json(r, 404, { title: "Not Found", status: 404 }, { "x-request-id": "req-404" })];
    const error = await client().deleteRegistry({ path: { id: "r1" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toBe("req-404");
    expect((error as NotFoundError).toJSON()).toMatchObject({ requestId: "req-404" });
  });

  it("so does a success answer the client refuses: a body that breaks the contract", async () => {
    replies = [(_, r) => json(r, 200, { pods: "not a list" }, { "x-request-id": "req-bad-body" })];
    const error = await client({ validateResponses: true }).listPods().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).requestId).toBe("req-bad-body");
    expect((error as ResponseValidationError).toJSON()).toMatchObject({ requestId: "req-bad-body" });
  });
});

describe("debug logging from the environment", () => {
  it("GPU_CLOUD_LOG=debug writes each attempt to stderr, without the key", async () => {
    vi.stubEnv("GPU_CLOUD_LOG", "debug");
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    replies = [(_, r) => json(r, 200, { pods: [] }, { "x-request-id": "req-log" })];
    await client().listPods();
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.join("\n")).toMatch(/gpu-cloud-client request attempt .*"status":200.*"requestId":"req-log"/);
    expect(lines.join("\n")).not.toContain(KEY);
  });

  it("unset or off: nothing is written; a logger option wins over the variable", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    await client().listPods();
    vi.stubEnv("GPU_CLOUD_LOG", "off");
    await client().listPods();
    expect(lines).toEqual([]);
    vi.stubEnv("GPU_CLOUD_LOG", "debug");
    const own: string[] = [];
    await client({ logger: { debug: (message) => void own.push(message) } }).listPods();
    expect(lines).toEqual([]);
    expect(own).toEqual(["gpu-cloud-client request attempt"]);
  });

  it("an unknown level is said once on stderr, naming the variable, and logs nothing else", async () => {
    vi.stubEnv("GPU_CLOUD_LOG", "verbose");
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    await client().listPods();
    expect(lines).toEqual([expect.stringMatching(/^gpu-cloud-client: GPU_CLOUD_LOG="verbose" is not a log level \(debug, warn, off\); logging stays off$/)]);
  });
});

describe("base URLs from the environment", () => {
  it("GPU_CLOUD_BASE_URL and GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL are read when the option is not given; the option wins", async () => {
    vi.stubEnv("GPU_CLOUD_BASE_URL", `${baseUrl}/`);
    vi.stubEnv("GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL", "http://127.0.0.1:1");
    const fromEnv = new GpuCloudClient({ apiKey: KEY });
    expect(fromEnv.baseUrl("baseUrl")).toBe(baseUrl);
    expect(fromEnv.baseUrl("publicEndpointBaseUrl")).toBe("http://127.0.0.1:1");
    expect((await fromEnv.listPods()).status).toBe(200);
    expect(new GpuCloudClient({ apiKey: KEY, baseUrl: "https://other.example" }).baseUrl("baseUrl")).toBe("https://other.example");
    vi.stubEnv("GPU_CLOUD_BASE_URL", "");
    expect(new GpuCloudClient({ apiKey: KEY }).baseUrl("baseUrl")).toBe("https://api.runpod.io");
  });

  it("a bad value is refused at construction, naming the variable, not the option", () => {
    vi.stubEnv("GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL", "api.runpod.ai");
    const error = (() => {
      try {
        new GpuCloudClient({ apiKey: KEY });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toBe('GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL must be an absolute http(s) URL, got "api.runpod.ai"');
    expect((error as InvalidRequestError).field).toBe("GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL");
  });
});
