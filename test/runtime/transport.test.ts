import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { gzipSync } from "node:zlib";
import createClient from "openapi-fetch";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  ConnectionError,
  InvalidRequestError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from "../../templates/runtime/errors.ts";
import { errorFromResponse } from "../../templates/runtime/error-response.ts";
import { backoffDelayMs } from "../../templates/runtime/retry.ts";
import { sleep } from "../../templates/runtime/signals.ts";
import { createTransportFetch } from "../../templates/runtime/transport.ts";
import type { TransportConfig } from "../../templates/runtime/transport-types.ts";

const API_KEY = "sk-test-9b8c7d6e5f4a3b2c1d0e";
/** No waiting between retries unless a test asks for it. */
const NO_BACKOFF = { random: () => 0 } satisfies Partial<TransportConfig>;

interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

interface TestServer {
  url: string;
  requests: ReceivedRequest[];
}

/** The shape openapi-typescript generates, for one operation. */
interface CreateInstancePaths {
  "/v1/instances": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { "application/json": { gpu: string } } };
      responses: { 201: { headers: { [name: string]: unknown }; content: { "application/json": { id: string } } } };
    };
  };
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A real HTTP server on 127.0.0.1; `respond` sees each request once its body has arrived. */
async function startServer(respond: (response: ServerResponse, request: ReceivedRequest, count: number) => void): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    let body = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      const received = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body };
      requests.push(received);
      respond(response, received, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A port nothing listens on: bound, then released. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A fetch double that records the Requests it is given. */
function injectedFetch(respond: (request: Request, call: number) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    requests.push(request);
    return respond(request, requests.length);
  });
  return { fetch, requests };
}

function send(response: ServerResponse, status: number, body = "", headers: Record<string, string> = {}): void {
  response.writeHead(status, headers).end(body);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("authentication and headers", () => {
  it("sends the bearer key, replacing any Authorization the caller set", async () => {
    const server = await startServer((response) => send(response, 200, "{}"));
    const transport = createTransportFetch({ apiKey: API_KEY });
    const response = await transport(new Request(`${server.url}/v1/me`, { headers: { Authorization: "Bearer other", "X-Trace": "t1" } }));
    expect(response.status).toBe(200);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[0]?.headers["x-trace"]).toBe("t1");
    expect(server.requests[0]?.headers["x-client-name"]).toBeUndefined();
  });

  it("sends X-Client-Name only when a userAgent is configured", async () => {
    const server = await startServer((response) => send(response, 200));
    await createTransportFetch({ apiKey: API_KEY, userAgent: "gpu-cloud-sdk/1.2.3" })(new Request(`${server.url}/v1/me`));
    expect(server.requests[0]?.headers["x-client-name"]).toBe("gpu-cloud-sdk/1.2.3");
  });

  it("refuses an API key that cannot be a header value without quoting it", async () => {
    const { fetch } = injectedFetch(() => new Response());
    const badKey = `${API_KEY}\nX-Injected: 1`;
    const error = await rejection(createTransportFetch({ apiKey: badKey, fetch })(new Request("https://api.example.com/v1/me")));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).field).toBe("apiKey");
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("looks globalThis.fetch up at call time", async () => {
    const { fetch } = injectedFetch(() => new Response("late"));
    const transport = createTransportFetch({ apiKey: API_KEY });
    vi.stubGlobal("fetch", fetch);
    try {
      expect(await (await transport(new Request("https://api.example.com/v1/me"))).text()).toBe("late");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("works as openapi-fetch's fetch", async () => {
    const server = await startServer((response, _request, count) =>
      count === 1 ? send(response, 503) : send(response, 201, '{"id":"i-1"}', { "Content-Type": "application/json" }),
    );
    const fetch = createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF }, { idempotent: true });
    const client = createClient<CreateInstancePaths>({ baseUrl: server.url, fetch });
    const { data, response } = await client.POST("/v1/instances", { body: { gpu: "h100" } });
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: "i-1" });
    expect(server.requests.map((request) => request.body)).toEqual(['{"gpu":"h100"}', '{"gpu":"h100"}']);
  });
});

describe("retries", () => {
  it("retries a GET on 503 and returns the success", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503) : send(response, 200, "ok")));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/instances`));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it.each([502, 504])("retries a GET on %i", async (status) => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, status) : send(response, 200)));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/instances`));
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry other errors such as 500 or 404", async () => {
    const server = await startServer((response, request) => send(response, request.url === "/missing" ? 404 : 500));
    const transport = createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF });
    expect((await transport(new Request(`${server.url}/broken`))).status).toBe(500);
    expect((await transport(new Request(`${server.url}/missing`))).status).toBe(404);
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after maxRetries and returns the last response", async () => {
    const server = await startServer((response) => send(response, 503, "down"));
    const response = await createTransportFetch({ apiKey: API_KEY, maxRetries: 3, ...NO_BACKOFF })(new Request(`${server.url}/v1/instances`));
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("down");
    expect(server.requests).toHaveLength(4);
  });

  it("respects maxRetries: 0, from the config or the call", async () => {
    const server = await startServer((response) => send(response, 503));
    await createTransportFetch({ apiKey: API_KEY, maxRetries: 0, ...NO_BACKOFF })(new Request(`${server.url}/a`));
    expect(server.requests).toHaveLength(1);
    await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF }, { maxRetries: 0 })(new Request(`${server.url}/b`));
    expect(server.requests).toHaveLength(2);
  });

  it("resends the same body and headers on every attempt", async () => {
    const server = await startServer((response, _request, count) => (count < 3 ? send(response, 503) : send(response, 200)));
    const request = new Request(`${server.url}/v1/instances/i-1`, {
      method: "PUT",
      body: JSON.stringify({ name: "renamed" }),
      headers: { "Content-Type": "application/json" },
    });
    await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(request);
    expect(server.requests).toHaveLength(3);
    for (const received of server.requests) {
      expect(received).toMatchObject({ method: "PUT", body: '{"name":"renamed"}' });
      expect(received.headers["content-type"]).toBe("application/json");
      expect(received.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
  });

  it("cancels the body of a response it discards", async () => {
    const cancelled = vi.fn();
    const { fetch } = injectedFetch((_request, call) =>
      call === 1 ? new Response(new ReadableStream({ cancel: cancelled }), { status: 503 }) : new Response("ok"),
    );
    await createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(new Request("https://api.example.com/v1/instances"));
    expect(cancelled).toHaveBeenCalledTimes(1);
  });

  it("retries a GET whose connection is reset", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? response.socket?.destroy() : send(response, 200)));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/instances`));
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("reads a 2xx body within the attempt: a GET whose body is cut is sent again, and its caller reads the whole of the next", async () => {
    const server = await startServer((response, _request, count) => {
      if (count > 1) return send(response, 200, '{"ok":true}');
      response.writeHead(200, { "Content-Length": "50" });
      response.write('{"ok":');
      setTimeout(() => response.destroy(), 20);
    });
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/instances`));
    expect(await response.json()).toEqual({ ok: true });
    expect(response.url).toBe(`${server.url}/v1/instances`);
    expect(server.requests).toHaveLength(2);
  });

  it("sends again a GET whose body stalls past the timeout, but never a POST", async () => {
    const server = await startServer((response, request) => {
      if (server.requests.filter((r) => r.method === request.method).length > 1) return send(response, 200, "done");
      response.writeHead(200);
      response.write("start");
    });
    const transport = createTransportFetch({ apiKey: API_KEY, timeoutMs: 100, ...NO_BACKOFF });
    expect(await (await transport(new Request(`${server.url}/v1/me`))).text()).toBe("done");
    const error = await rejection(transport(new Request(`${server.url}/v1/instances`, { method: "POST", body: "{}" })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests.map((request) => request.method)).toEqual(["GET", "GET", "POST"]);
  });

  it("throws a ConnectionError once the retries of a failing GET are used up", async () => {
    const { fetch, requests } = injectedFetch(() => Promise.reject(new TypeError("fetch failed")));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(new Request("https://api.example.com/v1/me")));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toEqual({ name: "TypeError", message: "fetch failed" });
    expect(requests).toHaveLength(3);
  });

  it("uses exponential backoff with full jitter between attempts", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch(() => new Response(null, { status: 503 }));
    const transport = createTransportFetch({ apiKey: API_KEY, fetch, retryBaseDelayMs: 100, random: () => 0.5 });
    const promise = transport(new Request("https://api.example.com/v1/instances"));
    await vi.advanceTimersByTimeAsync(49);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // 0.5 × 100
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(99);
    expect(requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1); // 0.5 × 200
    expect(requests).toHaveLength(3);
    expect((await promise).status).toBe(503);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("429 and Retry-After", () => {
  it("waits exactly Retry-After before retrying", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch((_request, call) =>
      call === 1 ? new Response(null, { status: 429, headers: { "Retry-After": "2" } }) : new Response("ok"),
    );
    const promise = createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(new Request("https://api.example.com/v1/me"));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    expect((await promise).status).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits Retry-After against a real server", async () => {
    const server = await startServer((response, _request, count) =>
      count === 1 ? send(response, 429, "", { "Retry-After": "1" }) : send(response, 200),
    );
    const started = performance.now();
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/me`));
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("falls back to the backoff without Retry-After", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 429) : send(response, 200)));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(new Request(`${server.url}/v1/me`));
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("returns a 429 whose Retry-After exceeds maxRetryAfterMs, with a warning", async () => {
    const server = await startServer((response) => send(response, 429, '{"title":"Too Many Requests"}', { "Retry-After": "3600" }));
    const warn = vi.fn();
    const response = await createTransportFetch({ apiKey: API_KEY, logger: { warn }, ...NO_BACKOFF })(new Request(`${server.url}/v1/me`));
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ title: "Too Many Requests" });
    expect(server.requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("waits Retry-After on 503, as seconds or an HTTP date", async () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1, 12, 0, 0) });
    for (const form of ["seconds", "date"]) {
      // The clock stands on a whole second: an HTTP date three seconds ahead is a wait of exactly 3 s.
      const retryAfter = form === "seconds" ? "3" : new Date(Date.now() + 3_000).toUTCString();
      const { fetch, requests } = injectedFetch((_request, call) =>
        call === 1 ? new Response(null, { status: 503, headers: { "Retry-After": retryAfter } }) : new Response("ok"),
      );
      const promise = createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(new Request("https://api.example.com/v1/me"));
      await vi.advanceTimersByTimeAsync(2_999);
      expect(requests, retryAfter).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(requests, retryAfter).toHaveLength(2);
      expect((await promise).status).toBe(200);
    }
  });

  it("waits, on a 429 without Retry-After, for the longest reset of a RateLimit window used up", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch((_request, call) =>
      call === 1 ? new Response(null, { status: 429, headers: { RateLimit: '"minute";r=0;t=4, "second";r=0;t=1, "day";r=10;t=9000' } }) : new Response("ok"),
    );
    const promise = createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(new Request("https://api.example.com/v1/me"));
    await vi.advanceTimersByTimeAsync(3_999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(2);
    expect((await promise).status).toBe(200);
  });

  it("returns a 503 or a 429 whose asked wait exceeds maxRetryAfterMs, Retry-After first", async () => {
    const answers = [
      new Response(null, { status: 503, headers: { "Retry-After": "61" } }),
      new Response(null, { status: 429, headers: { RateLimit: '"hour";r=0;t=3600' } }),
      // Retry-After rules over RateLimit: this one is within the cap.
      new Response(null, { status: 429, headers: { "Retry-After": "0", RateLimit: '"hour";r=0;t=3600' } }),
    ];
    const { fetch, requests } = injectedFetch((_request, call) => answers[call - 1] ?? new Response("ok"));
    const warn = vi.fn();
    const transport = createTransportFetch({ apiKey: API_KEY, fetch, logger: { warn }, ...NO_BACKOFF });
    expect((await transport(new Request("https://api.example.com/v1/a"))).status).toBe(503);
    expect((await transport(new Request("https://api.example.com/v1/b"))).status).toBe(429);
    expect((await transport(new Request("https://api.example.com/v1/c"))).status).toBe(200);
    expect(requests).toHaveLength(4);
    expect(warn.mock.calls.map(([, fields]) => (fields as { requestedWaitMs: number }).requestedWaitMs)).toEqual([61_000, 3_600_000]);
  });

  it("honours a lower maxRetryAfterMs", async () => {
    const server = await startServer((response) => send(response, 429, "", { "Retry-After": "2" }));
    const response = await createTransportFetch({ apiKey: API_KEY, maxRetryAfterMs: 1_000 })(new Request(`${server.url}/v1/me`));
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });
});

describe("non-idempotent requests", () => {
  const post = (url: string) => new Request(`${url}/v1/instances`, { method: "POST", body: '{"gpu":"h100"}' });

  it("never resends a POST on 503", async () => {
    const server = await startServer((response) => send(response, 503));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(post(server.url));
    expect(response.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("never resends a POST on 429", async () => {
    const server = await startServer((response) => send(response, 429, "", { "Retry-After": "0" }));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(post(server.url));
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("never resends a POST whose connection was reset after it arrived", async () => {
    const server = await startServer((response) => response.socket?.destroy());
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(post(server.url)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("resends a POST refused before it left the machine (ECONNREFUSED)", async () => {
    const server = await startServer((response) => send(response, 201, "created"));
    const refusedUrl = await closedPortUrl();
    // The first attempt goes to a closed port, later ones to the real server.
    const { fetch, requests } = injectedFetch((request, call) =>
      globalThis.fetch(call === 1 ? new Request(request.url.replace(server.url, refusedUrl), request) : request),
    );
    const response = await createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(post(server.url));
    expect(response.status).toBe(201);
    expect(requests).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toBe('{"gpu":"h100"}');
  });

  it("reports ECONNREFUSED in the ConnectionError after the retries", async () => {
    const refusedUrl = await closedPortUrl();
    const { fetch, requests } = injectedFetch((request) => globalThis.fetch(request));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(post(refusedUrl)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(requests).toHaveLength(3);
  });

  it("never resends a POST answered 307 towards a closed port: only a refusal on the first hop proves it was not sent", async () => {
    const refusedUrl = await closedPortUrl();
    const server = await startServer((response) => send(response, 307, "", { Location: `${refusedUrl}/v1/instances` }));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(post(server.url)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(server.requests).toHaveLength(1);
  });

  it("sends a POST refused after a redirect once, whatever fetch is given", async () => {
    const refusedUrl = await closedPortUrl();
    const server = await startServer((response) => send(response, 308, "", { Location: `${refusedUrl}/v1/instances` }));
    const { fetch } = injectedFetch((request) => globalThis.fetch(request));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(post(server.url)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(server.requests).toHaveLength(1);
  });

  it("hands a 3xx on as it came when the caller asked for manual redirects", async () => {
    const server = await startServer((response) => send(response, 307, "", { Location: "/elsewhere" }));
    const request = new Request(`${server.url}/v1/instances`, { method: "POST", body: "{}", redirect: "manual" });
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF })(request);
    expect(response.status).toBe(307);
    expect(server.requests.map((received) => received.url)).toEqual(["/v1/instances"]);
  });

  it.each(["ENOTFOUND", "EAI_AGAIN"])("resends a POST on %s", async (code) => {
    const { fetch, requests } = injectedFetch((_request, call) =>
      call === 1 ? Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error(`getaddrinfo ${code}`), { code }) })) : new Response("ok"),
    );
    const response = await createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF })(post("https://api.example.com"));
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("resends a POST marked idempotent", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503) : send(response, 200)));
    const response = await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF }, { idempotent: true })(post(server.url));
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("does not resend a GET marked not idempotent", async () => {
    const server = await startServer((response) => send(response, 503));
    await createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF }, { idempotent: false })(new Request(`${server.url}/v1/x`));
    expect(server.requests).toHaveLength(1);
  });
});

describe("timeouts", () => {
  /** Never answers; the connection is closed by the cleanup. */
  const silent = () => startServer(() => undefined);

  it("times a POST out with exactly one attempt", async () => {
    const server = await silent();
    const request = new Request(`${server.url}/v1/instances`, { method: "POST", body: "{}" });
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, timeoutMs: 100, ...NO_BACKOFF })(request));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "timeout", timeoutMs: 100, method: "POST", url: `${server.url}/v1/instances` });
    expect(server.requests).toHaveLength(1);
  });

  it("retries a timed-out GET, the call's timeoutMs overriding the config", async () => {
    const server = await silent();
    const transport = createTransportFetch({ apiKey: API_KEY, timeoutMs: 60_000, maxRetries: 1, ...NO_BACKOFF }, { timeoutMs: 50 });
    const error = await rejection(transport(new Request(`${server.url}/v1/me`)));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(2);
  });

  it("leaves no timer behind, whether the attempt succeeds or times out", async () => {
    vi.useFakeTimers();
    const ok = injectedFetch(() => new Response("ok"));
    await createTransportFetch({ apiKey: API_KEY, fetch: ok.fetch, timeoutMs: 1_000 })(new Request("https://api.example.com/v1/me"));
    expect(vi.getTimerCount()).toBe(0);

    const hanging = injectedFetch(
      (request) => new Promise((_resolve, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason))),
    );
    const request = new Request("https://api.example.com/v1/instances", { method: "POST", body: "{}" });
    const promise = rejection(createTransportFetch({ apiKey: API_KEY, fetch: hanging.fetch, timeoutMs: 1_000 })(request));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await promise).toBeInstanceOf(TimeoutError);
    expect(hanging.requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("has no timer at all with timeoutMs: 0", async () => {
    vi.useFakeTimers();
    const { fetch } = injectedFetch(() => {
      expect(vi.getTimerCount()).toBe(0);
      return new Response("ok");
    });
    await createTransportFetch({ apiKey: API_KEY, fetch, timeoutMs: 0 })(new Request("https://api.example.com/v1/me"));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("maxResponseBytes", () => {
  /** A 2xx body that never ends, counting the chunks the transport pulled. */
  function endlessBody(chunkBytes: number) {
    const pulled = { bytes: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled.bytes += chunkBytes;
        controller.enqueue(new Uint8Array(chunkBytes));
      },
      cancel() {
        pulled.cancelled = true;
      },
    }, { highWaterMark: 0 });
    return { pulled, body };
  }

  it("ends an endless 2xx body with a ResponseTooLargeError, having pulled the limit and one chunk at most", async () => {
    const { pulled, body } = endlessBody(1_000);
    const { fetch, requests } = injectedFetch(() => new Response(body));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, maxResponseBytes: 10_500 })(new Request("https://api.example.com/v1/me")));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ kind: "response_too_large", method: "GET", status: 200, maxResponseBytes: 10_500, url: "https://api.example.com/v1/me" });
    expect((error as Error).message).toBe("GET /v1/me returned 200 with a body over maxResponseBytes (10500 bytes): the rest was not read");
    expect(pulled).toEqual({ bytes: 11_000, cancelled: true });
    expect(requests).toHaveLength(1);
  });

  it("refuses a Content-Length over the limit before reading, and takes the call's limit over the config's", async () => {
    const { pulled, body } = endlessBody(1_000);
    const { fetch } = injectedFetch(() => new Response(body, { headers: { "Content-Length": "5000" } }));
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, maxResponseBytes: 1_000_000 }, { maxResponseBytes: 4_999 })(new Request("https://api.example.com/v1/me")));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(pulled).toEqual({ bytes: 0, cancelled: true });
  });

  it("counts the bytes of a compressed body once decoded: Content-Length is no measure of them", async () => {
    const incompressible = randomBytes(1_000);
    const bomb = gzipSync(Buffer.alloc(1_000_000));
    const server = await startServer((response, request) => {
      response.writeHead(200, { "Content-Encoding": "gzip", "Content-Length": String(request.url === "/bomb" ? bomb.length : gzipSync(incompressible).length) });
      response.end(request.url === "/bomb" ? bomb : gzipSync(incompressible));
    });
    const transport = createTransportFetch({ apiKey: API_KEY, maxResponseBytes: 1_000 });
    expect(gzipSync(incompressible).length).toBeGreaterThan(1_000);
    expect(Buffer.from(await (await transport(new Request(`${server.url}/random`))).arrayBuffer())).toEqual(incompressible);
    expect(bomb.length).toBeLessThan(1_000_000 / 100);
    expect(await rejection(transport(new Request(`${server.url}/bomb`)))).toBeInstanceOf(ResponseTooLargeError);
  });

  it("leaves an error body to its own limit (64 KiB kept), whatever maxResponseBytes says", async () => {
    const server = await startServer((response) => send(response, 500, "x".repeat(5_000)));
    const response = await createTransportFetch({ apiKey: API_KEY, maxResponseBytes: 100 })(new Request(`${server.url}/v1/me`));
    expect(response.status).toBe(500);
    expect((await response.text()).length).toBe(5_000);
  });
});

describe("cancellation", () => {
  it("rejects promptly with AbortedError when aborted during the backoff wait, leaving no timers", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch(() => new Response(null, { status: 503 }));
    const controller = new AbortController();
    const transport = createTransportFetch({ apiKey: API_KEY, fetch, retryBaseDelayMs: 10_000, random: () => 1 }, { signal: controller.signal });
    const promise = rejection(transport(new Request("https://api.example.com/v1/me")));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(requests).toHaveLength(1);
    controller.abort(new Error("user left"));
    const error = await promise;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ kind: "aborted", method: "GET", reason: "user left" });
    expect(requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts an attempt in flight, through the call's signal or the Request's own", async () => {
    const server = await startServer(() => undefined);
    for (const via of ["call", "request"] as const) {
      const controller = new AbortController();
      const transport = createTransportFetch({ apiKey: API_KEY, ...NO_BACKOFF }, via === "call" ? { signal: controller.signal } : {});
      // A POST, so that a misclassified abort would surface as a ConnectionError instead of being retried.
      const request = new Request(`${server.url}/v1/instances`, {
        method: "POST",
        body: "{}",
        ...(via === "request" ? { signal: controller.signal } : {}),
      });
      setTimeout(() => controller.abort(), 50);
      const error = await rejection(transport(request));
      expect(error, via).toBeInstanceOf(AbortedError);
    }
    expect(server.requests).toHaveLength(2);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { fetch } = injectedFetch(() => new Response());
    const error = await rejection(
      createTransportFetch({ apiKey: API_KEY, fetch }, { signal: AbortSignal.abort() })(new Request("https://api.example.com/v1/me")),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("removes every listener it adds to the caller's signals, across attempts and waits", async () => {
    const callController = new AbortController();
    // The Request's signal is its own, following the controller's: that is the one the transport sees.
    const request = new Request("https://api.example.com/v1/me", { signal: new AbortController().signal });
    const spies = [callController.signal, request.signal].map((signal) => ({
      added: vi.spyOn(signal, "addEventListener"),
      removed: vi.spyOn(signal, "removeEventListener"),
    }));
    const { fetch } = injectedFetch((_request, call) => new Response(null, { status: call === 1 ? 503 : 200 }));
    const transport = createTransportFetch({ apiKey: API_KEY, fetch, ...NO_BACKOFF }, { signal: callController.signal });
    await transport(request);
    for (const { added, removed } of spies) {
      expect(added).toHaveBeenCalledTimes(3); // attempt, wait, attempt
      expect(removed.mock.calls.map(([type, listener]) => [type, listener])).toEqual(
        added.mock.calls.map(([type, listener]) => [type, listener]),
      );
    }
  });
});

describe("sleep and backoffDelayMs", () => {
  it("sleep resolves after the delay and clears up", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let done = false;
    const promise = sleep(100, controller.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await promise;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("sleep rejects with an AbortedError on abort, before or during the wait", async () => {
    vi.useFakeTimers();
    await expect(sleep(100, AbortSignal.abort("gone"))).rejects.toBeInstanceOf(AbortedError);
    const controller = new AbortController();
    const promise = rejection(sleep(100, controller.signal));
    controller.abort("stop");
    expect(await promise).toMatchObject({ kind: "aborted", reason: "stop" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("backoffDelayMs doubles the ceiling per attempt, capped, scaled by the random draw", () => {
    const config = { retryBaseDelayMs: 100, retryMaxDelayMs: 1_000, random: () => 0.999 };
    expect([1, 2, 3, 4, 5, 10].map((attempt) => backoffDelayMs(attempt, config))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(3, { ...config, random: () => 0 })).toBe(0);
    expect(backoffDelayMs(1, { random: () => 0.5 })).toBe(250);
    expect(backoffDelayMs(20, { random: () => 0.5 })).toBe(4_000);
  });
});

describe("logging and secrets", () => {
  it("logs one line per attempt with no key, header or body", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503, API_KEY) : send(response, 200, API_KEY)));
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = { debug: (message: string, fields?: Record<string, unknown>) => lines.push([message, fields]) };
    await createTransportFetch({ apiKey: API_KEY, logger, random: () => 0 })(
      new Request(`${server.url}/v1/instances?page=2`, { method: "PUT", body: "secret-body", headers: { "X-Trace": "trace-header" } }),
    );
    // A bare transport has no name to start its messages with (the generated client passes its package's).
    expect(lines.map(([message]) => message)).toEqual(["request attempt", "request attempt"]);
    expect(lines.map(([, fields]) => fields)).toEqual([
      { method: "PUT", url: `${server.url}/v1/instances?page=2`, attempt: 1, status: 503, delayMs: 0 },
      { method: "PUT", url: `${server.url}/v1/instances?page=2`, attempt: 2, status: 200, delayMs: undefined },
    ]);
    const logged = JSON.stringify(lines);
    for (const forbidden of [API_KEY, "Bearer", "secret-body", "trace-header"]) expect(logged).not.toContain(forbidden);
  });

  it("keeps the key out of errors end to end, even when the server echoes it", async () => {
    const server = await startServer((response, request) =>
      send(response, 500, JSON.stringify({ title: "Internal", detail: `got ${request.headers.authorization}` }), {
        "Content-Type": "application/problem+json",
        "X-Echo": String(request.headers.authorization),
        "Set-Cookie": `k=${API_KEY}`,
      }),
    );
    const lines: unknown[] = [];
    const transport = createTransportFetch({ apiKey: API_KEY, maxRetries: 0, logger: { debug: (...args) => lines.push(args) } });
    const url = `${server.url}/v1/instances`;
    const response = await transport(new Request(url));
    const error = await errorFromResponse(response, { method: "GET", url, secrets: [API_KEY] });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.detail).toBe("got Bearer [REDACTED]");
    const views = [error.message, JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(Object.values(error)), JSON.stringify(lines)];
    for (const view of views) expect(view).not.toContain(API_KEY);
  });

  it("blanks the key out of a network error message that quotes it", async () => {
    const { fetch } = injectedFetch(() =>
      Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error(`proxy rejected Bearer ${API_KEY}`), { code: "EPROXY" }) })),
    );
    const error = await rejection(createTransportFetch({ apiKey: API_KEY, fetch, maxRetries: 0 })(new Request("https://api.example.com/v1/me")));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toEqual({ name: "Error", message: "proxy rejected Bearer [REDACTED]", code: "EPROXY" });
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });

  it("keeps the key out of connection and timeout errors", async () => {
    const refusedUrl = await closedPortUrl();
    const connection = await rejection(createTransportFetch({ apiKey: API_KEY, maxRetries: 0 })(new Request(`${refusedUrl}/v1/me`)));
    const silentServer = await startServer(() => undefined);
    const timeout = await rejection(createTransportFetch({ apiKey: API_KEY, timeoutMs: 20, maxRetries: 0 })(new Request(`${silentServer.url}/v1/me`)));
    for (const error of [connection, timeout]) {
      expect(error).toBeInstanceOf(Error);
      for (const view of [JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(Object.values(error as object))]) {
        expect(view).not.toContain(API_KEY);
      }
    }
  });
});
