/**
 * When the transport sends a call again, and after how long: the retryable statuses and failures
 * of an idempotent call, the waits a server asks for (Retry-After, RateLimit) or the backoff, and a
 * call that is not idempotent sent again only when nothing can have reached a server.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionError } from "../../templates/runtime/errors.ts";
import { backoffDelayMs } from "../../templates/runtime/retry.ts";
import { prepareCall } from "../../templates/runtime/transport.ts";
import { API_KEY, NO_BACKOFF, call, closeServers, closedPortUrl, injectedFetch, passThrough, rejection, send, startServer, textOf } from "./transport-harness.ts";

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

describe("retries", () => {
  it("retries a GET on 503 and returns the success", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503) : send(response, 200, "ok")));
    const answer = await call(`${server.url}/v1/instances`, {}, NO_BACKOFF);
    expect(answer.status).toBe(200);
    expect(textOf(answer)).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it.each([502, 504])("retries a GET on %i", async (status) => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, status) : send(response, 200)));
    const answer = await call(`${server.url}/v1/instances`, {}, NO_BACKOFF);
    expect(answer.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry other errors such as 500 or 404", async () => {
    const server = await startServer((response, request) => send(response, request.url === "/missing" ? 404 : 500));
    expect((await call(`${server.url}/broken`, {}, NO_BACKOFF)).status).toBe(500);
    expect((await call(`${server.url}/missing`, {}, NO_BACKOFF)).status).toBe(404);
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after maxRetries and returns the last answer", async () => {
    const server = await startServer((response) => send(response, 503, "down"));
    const answer = await call(`${server.url}/v1/instances`, {}, { maxRetries: 3, ...NO_BACKOFF });
    expect(answer).toMatchObject({ ok: false, status: 503, text: "down" });
    expect(server.requests).toHaveLength(4);
  });

  it("respects maxRetries: 0, from the config or the call", async () => {
    const server = await startServer((response) => send(response, 503));
    await call(`${server.url}/a`, {}, { maxRetries: 0, ...NO_BACKOFF });
    expect(server.requests).toHaveLength(1);
    await call(`${server.url}/b`, {}, NO_BACKOFF, { maxRetries: 0 });
    expect(server.requests).toHaveLength(2);
  });

  it("resends the same body and headers on every attempt", async () => {
    const server = await startServer((response, _request, count) => (count < 3 ? send(response, 503) : send(response, 200)));
    await call(`${server.url}/v1/instances/i-1`, { method: "PUT", body: JSON.stringify({ name: "renamed" }), headers: { "content-type": "application/json" } }, NO_BACKOFF);
    expect(server.requests).toHaveLength(3);
    for (const received of server.requests) {
      expect(received).toMatchObject({ method: "PUT", body: '{"name":"renamed"}' });
      expect(received.headers["content-type"]).toBe("application/json");
      expect(received.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
  });

  it("resends a stream's bytes, read once before the first attempt", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503) : send(response, 200)));
    const stream = new Blob(["streamed body"]).stream();
    await prepareCall({ ...NO_BACKOFF }).fetch(`${server.url}/v1/upload`, { method: "PUT", headers: {}, body: stream });
    expect(server.requests.map((received) => received.body)).toEqual(["streamed body", "streamed body"]);
  });

  it("cancels the body of an answer it discards", async () => {
    const cancelled = vi.fn();
    const { fetch } = injectedFetch((_request, count) =>
      count === 1 ? new Response(new ReadableStream({ cancel: cancelled }), { status: 503 }) : new Response("ok"),
    );
    await call("https://api.example.com/v1/instances", {}, { fetch, ...NO_BACKOFF });
    expect(cancelled).toHaveBeenCalledTimes(1);
  });

  it("retries a GET whose connection is reset", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? response.socket?.destroy() : send(response, 200)));
    const answer = await call(`${server.url}/v1/instances`, {}, NO_BACKOFF);
    expect(answer.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("throws a ConnectionError once the retries of a failing GET are used up", async () => {
    const { fetch, requests } = injectedFetch(() => Promise.reject(new TypeError("fetch failed")));
    const error = await rejection(call("https://api.example.com/v1/me", {}, { fetch, ...NO_BACKOFF }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toEqual({ name: "TypeError", message: "fetch failed" });
    expect(requests).toHaveLength(3);
  });

  it("uses exponential backoff with full jitter between attempts", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch(() => new Response(null, { status: 503 }));
    const promise = call("https://api.example.com/v1/instances", {}, { fetch, retryBaseDelayMs: 100, random: () => 0.5 });
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

  it("backoffDelayMs doubles the ceiling per attempt, capped, scaled by the random draw", () => {
    const config = { retryBaseDelayMs: 100, retryMaxDelayMs: 1_000, random: () => 0.999 };
    expect([1, 2, 3, 4, 5, 10].map((attempt) => backoffDelayMs(attempt, config))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(3, { ...config, random: () => 0 })).toBe(0);
    expect(backoffDelayMs(1, { random: () => 0.5 })).toBe(250);
    expect(backoffDelayMs(20, { random: () => 0.5 })).toBe(4_000);
  });
});

describe("429 and Retry-After", () => {
  it("waits exactly Retry-After before retrying", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch((_request, count) =>
      count === 1 ? new Response(null, { status: 429, headers: { "Retry-After": "2" } }) : new Response("ok"),
    );
    const promise = call("https://api.example.com/v1/me", {}, { fetch, ...NO_BACKOFF });
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
    const answer = await call(`${server.url}/v1/me`, {}, NO_BACKOFF);
    expect(answer.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("falls back to the backoff without Retry-After", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 429) : send(response, 200)));
    const answer = await call(`${server.url}/v1/me`, {}, NO_BACKOFF);
    expect(answer.status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it("returns a 429 whose Retry-After exceeds maxRetryAfterMs, with a warning", async () => {
    const server = await startServer((response) => send(response, 429, '{"title":"Too Many Requests"}', { "Retry-After": "3600" }));
    const warn = vi.fn();
    const answer = await call(`${server.url}/v1/me`, {}, { logger: { warn }, ...NO_BACKOFF });
    expect(answer.status).toBe(429);
    expect(JSON.parse(textOf(answer))).toEqual({ title: "Too Many Requests" });
    expect(server.requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("waits Retry-After on 503, as seconds or an HTTP date", async () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1, 12, 0, 0) });
    for (const form of ["seconds", "date"]) {
      // The clock stands on a whole second: an HTTP date three seconds ahead is a wait of exactly 3 s.
      const retryAfter = form === "seconds" ? "3" : new Date(Date.now() + 3_000).toUTCString();
      const { fetch, requests } = injectedFetch((_request, count) =>
        count === 1 ? new Response(null, { status: 503, headers: { "Retry-After": retryAfter } }) : new Response("ok"),
      );
      const promise = call("https://api.example.com/v1/me", {}, { fetch, ...NO_BACKOFF });
      await vi.advanceTimersByTimeAsync(2_999);
      expect(requests, retryAfter).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(requests, retryAfter).toHaveLength(2);
      expect((await promise).status).toBe(200);
    }
  });

  it("waits, on a 429 without Retry-After, for the longest reset of a RateLimit window used up", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch((_request, count) =>
      count === 1 ? new Response(null, { status: 429, headers: { RateLimit: '"minute";r=0;t=4, "second";r=0;t=1, "day";r=10;t=9000' } }) : new Response("ok"),
    );
    const promise = call("https://api.example.com/v1/me", {}, { fetch, ...NO_BACKOFF });
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
    const { fetch, requests } = injectedFetch((_request, count) => answers[count - 1] ?? new Response("ok"));
    const warn = vi.fn();
    const config = { fetch, logger: { warn }, ...NO_BACKOFF };
    expect((await call("https://api.example.com/v1/a", {}, config)).status).toBe(503);
    expect((await call("https://api.example.com/v1/b", {}, config)).status).toBe(429);
    expect((await call("https://api.example.com/v1/c", {}, config)).status).toBe(200);
    expect(requests).toHaveLength(4);
    expect(warn.mock.calls.map(([, fields]) => (fields as { requestedWaitMs: number }).requestedWaitMs)).toEqual([61_000, 3_600_000]);
  });

  it("honours a lower maxRetryAfterMs", async () => {
    const server = await startServer((response) => send(response, 429, "", { "Retry-After": "2" }));
    const answer = await call(`${server.url}/v1/me`, {}, { maxRetryAfterMs: 1_000 });
    expect(answer.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });
});

describe("calls that are not idempotent", () => {
  const post = { method: "POST", body: '{"gpu":"h100"}' };

  it("never resends a POST on 503", async () => {
    const server = await startServer((response) => send(response, 503));
    const answer = await call(`${server.url}/v1/instances`, post, NO_BACKOFF);
    expect(answer.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("never resends a POST on 429", async () => {
    const server = await startServer((response) => send(response, 429, "", { "Retry-After": "0" }));
    const answer = await call(`${server.url}/v1/instances`, post, NO_BACKOFF);
    expect(answer.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("never resends a POST whose connection was reset after it arrived", async () => {
    const server = await startServer((response) => response.socket?.destroy());
    const error = await rejection(call(`${server.url}/v1/instances`, post, NO_BACKOFF));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("resends a POST refused before it left the machine (ECONNREFUSED)", async () => {
    const server = await startServer((response) => send(response, 201, "created"));
    const refusedUrl = await closedPortUrl();
    // The first attempt goes to a closed port, later ones to the real server.
    const { fetch, requests } = injectedFetch((request, count) =>
      globalThis.fetch(count === 1 ? new Request(request.url.replace(server.url, refusedUrl), request) : request),
    );
    const answer = await call(`${server.url}/v1/instances`, post, { fetch, ...NO_BACKOFF });
    expect(answer.status).toBe(201);
    expect(requests).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toBe('{"gpu":"h100"}');
  });

  it("reports ECONNREFUSED in the ConnectionError after the retries", async () => {
    const refusedUrl = await closedPortUrl();
    const { fetch, requests } = injectedFetch(passThrough);
    const error = await rejection(call(`${refusedUrl}/v1/instances`, post, { fetch, ...NO_BACKOFF }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(requests).toHaveLength(3);
  });

  it("never resends a POST answered 307 towards a closed port: only a refusal on the first hop proves it was not sent", async () => {
    const refusedUrl = await closedPortUrl();
    const server = await startServer((response) => send(response, 307, "", { Location: `${refusedUrl}/v1/instances` }));
    const error = await rejection(call(`${server.url}/v1/instances`, post, NO_BACKOFF));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(server.requests).toHaveLength(1);
  });

  it("sends a POST refused after a redirect once, whatever fetch is given", async () => {
    const refusedUrl = await closedPortUrl();
    const server = await startServer((response) => send(response, 308, "", { Location: `${refusedUrl}/v1/instances` }));
    const { fetch } = injectedFetch(passThrough);
    const error = await rejection(call(`${server.url}/v1/instances`, post, { fetch, ...NO_BACKOFF }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause.code).toBe("ECONNREFUSED");
    expect(server.requests).toHaveLength(1);
  });

  it("follows a POST's 307 itself, the method and body kept, and hands on the URL that answered", async () => {
    const server = await startServer((response, request) =>
      request.url === "/v1/instances" ? send(response, 307, "", { Location: "/v1/elsewhere" }) : send(response, 201, "made"),
    );
    const answer = await call(`${server.url}/v1/instances`, post, NO_BACKOFF);
    expect(answer).toMatchObject({ ok: true, status: 201, url: `${server.url}/v1/elsewhere` });
    expect(server.requests.map(({ method, url, body }) => [method, url, body])).toEqual([
      ["POST", "/v1/instances", post.body],
      ["POST", "/v1/elsewhere", post.body],
    ]);
  });

  it("hands a 3xx on as it came when the caller asked for manual redirects", async () => {
    const server = await startServer((response) => send(response, 307, "", { Location: "/elsewhere" }));
    const answer = await call(`${server.url}/v1/instances`, { ...post, redirect: "manual" }, NO_BACKOFF);
    expect(answer.status).toBe(307);
    expect(answer.headers.get("location")).toBe("/elsewhere");
    expect(server.requests.map((received) => received.url)).toEqual(["/v1/instances"]);
  });

  it.each(["ENOTFOUND", "EAI_AGAIN"])("resends a POST on %s", async (code) => {
    const { fetch, requests } = injectedFetch((_request, count) =>
      count === 1 ? Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error(`getaddrinfo ${code}`), { code }) })) : new Response("ok"),
    );
    const answer = await call("https://api.example.com/v1/instances", post, { fetch, ...NO_BACKOFF });
    expect(answer.status).toBe(200);
    expect(requests).toHaveLength(2);
  });

  it("resends a POST marked idempotent, with the same body", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503) : send(response, 200)));
    const answer = await call(`${server.url}/v1/instances`, post, NO_BACKOFF, { idempotent: true });
    expect(answer.status).toBe(200);
    expect(server.requests.map((received) => received.body)).toEqual([post.body, post.body]);
  });

  it("does not resend a GET marked not idempotent", async () => {
    const server = await startServer((response) => send(response, 503));
    await call(`${server.url}/v1/x`, {}, NO_BACKOFF, { idempotent: false });
    expect(server.requests).toHaveLength(1);
  });
});
