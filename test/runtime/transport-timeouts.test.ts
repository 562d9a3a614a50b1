/**
 * How a call ends without an answer: the per-attempt timeout (over the headers and the body, a
 * POST timed out once and a GET sent again), the caller's signal before, during and between
 * attempts, and no timer or listener left behind.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortedError, TimeoutError } from "../../templates/runtime/errors.ts";
import { sleep } from "../../templates/runtime/signals.ts";
import { NO_BACKOFF, call, closeServers, injectedFetch, passThrough, rejection, send, startServer, textOf } from "./transport-harness.ts";

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

/** A custom fetch that answers only when its request is aborted, by failing with the abort's reason. */
function hangingFetch() {
  return injectedFetch((request) => new Promise<Response>((_resolve, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason))));
}

describe("timeouts", () => {
  /** Never answers; the connection is closed by the cleanup. */
  const silent = () => startServer(() => undefined);

  it("times a POST out with exactly one attempt", async () => {
    const server = await silent();
    // Attempts counted as the transport makes them: a loaded machine may time one out before the server reads it.
    const { fetch, requests } = injectedFetch(passThrough);
    const error = await rejection(call(`${server.url}/v1/instances`, { method: "POST", body: "{}" }, { fetch, timeoutMs: 100, ...NO_BACKOFF }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "timeout", timeoutMs: 100, method: "POST", url: `${server.url}/v1/instances` });
    expect(requests).toHaveLength(1);
  });

  it("retries a timed-out GET, the call's timeoutMs overriding the config", async () => {
    const server = await silent();
    const { fetch, requests } = injectedFetch(passThrough);
    const error = await rejection(call(`${server.url}/v1/me`, {}, { fetch, timeoutMs: 60_000, maxRetries: 1, ...NO_BACKOFF }, { timeoutMs: 50 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(requests).toHaveLength(2);
  });

  it("sends again a GET whose body stalls past the timeout, but never a POST", async () => {
    const server = await startServer((response, request) => {
      if (server.requests.filter((r) => r.method === request.method).length > 1) return send(response, 200, "done");
      response.writeHead(200);
      response.write("start");
    });
    const { fetch, requests } = injectedFetch(passThrough);
    const config = { fetch, timeoutMs: 100, ...NO_BACKOFF };
    expect(textOf(await call(`${server.url}/v1/me`, {}, config))).toBe("done");
    const error = await rejection(call(`${server.url}/v1/instances`, { method: "POST", body: "{}" }, config));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(requests.filter((request) => request.method === "GET").length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((request) => request.method === "POST")).toHaveLength(1);
  });

  it("times out a 2xx body that stalls after its headers, the attempt's timer covering the read", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch(
      () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("start")) }), { status: 200 }),
    );
    const promise = rejection(call("https://api.example.com/v1/instances", { method: "POST", body: "{}" }, { fetch, timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await promise).toMatchObject({ kind: "timeout", timeoutMs: 1_000 });
    expect(requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no timer behind, whether the attempt succeeds or times out", async () => {
    vi.useFakeTimers();
    const ok = injectedFetch(() => new Response("ok"));
    await call("https://api.example.com/v1/me", {}, { fetch: ok.fetch, timeoutMs: 1_000 });
    expect(vi.getTimerCount()).toBe(0);

    const hanging = hangingFetch();
    const promise = rejection(call("https://api.example.com/v1/instances", { method: "POST", body: "{}" }, { fetch: hanging.fetch, timeoutMs: 1_000 }));
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
    await call("https://api.example.com/v1/me", {}, { fetch, timeoutMs: 0 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("cancellation", () => {
  it("rejects promptly with AbortedError when aborted during the backoff wait, leaving no timers", async () => {
    vi.useFakeTimers();
    const { fetch, requests } = injectedFetch(() => new Response(null, { status: 503 }));
    const controller = new AbortController();
    const promise = rejection(call("https://api.example.com/v1/me", {}, { fetch, retryBaseDelayMs: 10_000, random: () => 1 }, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(requests).toHaveLength(1);
    controller.abort(new Error("user left"));
    const error = await promise;
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ kind: "aborted", method: "GET", reason: "user left" });
    expect(requests).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts an attempt in flight through the call's signal", async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request, which it never answers.
    const server = await startServer(() => controller.abort());
    // A POST, so that a misclassified abort would surface as a ConnectionError instead of being retried.
    const error = await rejection(call(`${server.url}/v1/instances`, { method: "POST", body: "{}" }, NO_BACKOFF, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it("aborts the reading of a 2xx body through the call's signal", async () => {
    const controller = new AbortController();
    const server = await startServer((response) => {
      response.writeHead(200);
      response.write("start", () => controller.abort());
    });
    const error = await rejection(call(`${server.url}/v1/me`, {}, NO_BACKOFF, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const { fetch } = injectedFetch(() => new Response());
    const error = await rejection(call("https://api.example.com/v1/me", {}, { fetch }, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("removes every listener it adds to the caller's signal, across attempts and waits", async () => {
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, "addEventListener");
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    const { fetch } = injectedFetch((_request, count) => new Response(null, { status: count === 1 ? 503 : 200 }));
    await call("https://api.example.com/v1/me", {}, { fetch, ...NO_BACKOFF }, { signal: controller.signal });
    expect(added).toHaveBeenCalledTimes(3); // attempt, wait, attempt
    expect(removed.mock.calls.map(([type, listener]) => [type, listener])).toEqual(added.mock.calls.map(([type, listener]) => [type, listener]));
  });
});

describe("sleep", () => {
  it("resolves after the delay and clears up", async () => {
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

  it("rejects with an AbortedError on abort, before or during the wait", async () => {
    vi.useFakeTimers();
    await expect(sleep(100, AbortSignal.abort("gone"))).rejects.toBeInstanceOf(AbortedError);
    const controller = new AbortController();
    const promise = rejection(sleep(100, controller.signal));
    controller.abort("stop");
    expect(await promise).toMatchObject({ kind: "aborted", reason: "stop" });
    expect(vi.getTimerCount()).toBe(0);
  });
});
