/**
 * What the transport hands back: a plain answer (status, statusText, headers, the URL that
 * answered, the body it read within the attempt), a 2xx body whole up to `maxResponseBytes` and a
 * non-2xx one as text up to 64 KiB, whatever fetch it is given.
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_RAW_BODY_BYTES } from "../../templates/runtime/error-base.ts";
import { ResponseTooLargeError } from "../../templates/runtime/errors.ts";
import { prepareCall } from "../../templates/runtime/transport.ts";
import { NO_BACKOFF, call, closeServers, injectedFetch, rejection, send, startServer, textOf } from "./transport-harness.ts";

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await closeServers();
});

describe("the answer", () => {
  it("is a plain value: status, statusText, headers, the URL that answered after a redirect, and the 2xx body's bytes", async () => {
    const server = await startServer((response, request) => {
      if (request.url === "/v1/old") return send(response, 302, "", { Location: "/v1/new" });
      response.writeHead(200, "Fine", { "Content-Type": "text/plain", "X-Served-By": "b" }).end("héllo");
    });
    const answer = await call(`${server.url}/v1/old`);
    expect(answer).toEqual({ ok: true, status: 200, statusText: "Fine", headers: expect.any(Headers), url: `${server.url}/v1/new`, chunks: expect.any(Array) });
    expect(answer.headers.get("x-served-by")).toBe("b");
    expect(textOf(answer)).toBe("héllo");
  });

  it("holds a non-2xx body as its text, the first 64 KiB of it", async () => {
    const body = "é".repeat(MAX_RAW_BODY_BYTES);
    const server = await startServer((response) => response.writeHead(500, "Broken").end(body));
    const answer = await call(`${server.url}/v1/me`, {}, { maxRetries: 0 });
    expect(answer).toEqual({ ok: false, status: 500, statusText: "Broken", headers: expect.any(Headers), url: `${server.url}/v1/me`, text: body.slice(0, MAX_RAW_BODY_BYTES / 2) });
  });

  it("has no chunks for an empty 2xx body, and an empty URL when a custom fetch's Response has none", async () => {
    const { fetch } = injectedFetch(() => new Response(null, { status: 204 }));
    expect(await call("https://api.example.com/v1/me", {}, { fetch })).toMatchObject({ ok: true, status: 204, url: "", chunks: [] });
  });

  it("reads a 2xx body within the attempt: a GET whose body is cut is sent again, and its caller gets the whole of the next", async () => {
    const server = await startServer((response, _request, count) => {
      if (count > 1) return send(response, 200, '{"ok":true}');
      response.writeHead(200, { "Content-Length": "50" });
      response.write('{"ok":', () => response.destroy());
    });
    const answer = await call(`${server.url}/v1/instances`, {}, NO_BACKOFF);
    expect(JSON.parse(textOf(answer))).toEqual({ ok: true });
    expect(answer.url).toBe(`${server.url}/v1/instances`);
    expect(server.requests).toHaveLength(2);
  });

  it("looks globalThis.fetch up at call time, handing it the URL and init as they are", async () => {
    const prepared = prepareCall({});
    const late = vi.fn(async (_url: string, _init: RequestInit) => new Response("late"));
    vi.stubGlobal("fetch", late);
    const answer = await prepared.fetch("https://api.example.com/v1/me", { method: "GET", headers: { "x-trace": "t1" } });
    expect(textOf(answer)).toBe("late");
    expect(late).toHaveBeenCalledTimes(1);
    expect(late.mock.calls[0]![0]).toBe("https://api.example.com/v1/me");
    expect(late.mock.calls[0]![1]).toMatchObject({ method: "GET", headers: { "x-trace": "t1" }, redirect: "follow" });
  });
});

describe("maxResponseBytes", () => {
  /** A 2xx body that never ends, counting the chunks the transport pulled. */
  function endlessBody(chunkBytes: number) {
    const pulled = { bytes: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled.bytes += chunkBytes;
          controller.enqueue(new Uint8Array(chunkBytes));
        },
        cancel() {
          pulled.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { pulled, body };
  }

  it("ends an endless 2xx body with a ResponseTooLargeError, having pulled the limit and one chunk at most", async () => {
    const { pulled, body } = endlessBody(1_000);
    const { fetch, requests } = injectedFetch(() => new Response(body));
    const error = await rejection(call("https://api.example.com/v1/me", {}, { fetch, maxResponseBytes: 10_500 }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ kind: "response_too_large", method: "GET", status: 200, maxResponseBytes: 10_500, url: "https://api.example.com/v1/me" });
    expect((error as Error).message).toBe("GET /v1/me returned 200 with a body over maxResponseBytes (10500 bytes): the rest was not read");
    expect(pulled).toEqual({ bytes: 11_000, cancelled: true });
    expect(requests).toHaveLength(1);
  });

  it("refuses a Content-Length over the limit before reading, and takes the call's limit over the config's", async () => {
    const { pulled, body } = endlessBody(1_000);
    const { fetch } = injectedFetch(() => new Response(body, { headers: { "Content-Length": "5000" } }));
    const error = await rejection(call("https://api.example.com/v1/me", {}, { fetch, maxResponseBytes: 1_000_000 }, { maxResponseBytes: 4_999 }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(pulled).toEqual({ bytes: 0, cancelled: true });
  });

  it("counts the bytes of a compressed body once decoded: Content-Length is no measure of them", async () => {
    const incompressible = randomBytes(1_000);
    const bomb = gzipSync(Buffer.alloc(1_000_000));
    const server = await startServer((response, request) => {
      const body = request.url === "/bomb" ? bomb : gzipSync(incompressible);
      response.writeHead(200, { "Content-Encoding": "gzip", "Content-Length": String(body.length) });
      response.end(body);
    });
    expect(gzipSync(incompressible).length).toBeGreaterThan(1_000);
    const answer = await call(`${server.url}/random`, {}, { maxResponseBytes: 1_000 });
    expect(answer.ok && Buffer.concat(answer.chunks)).toEqual(incompressible);
    expect(bomb.length).toBeLessThan(1_000_000 / 100);
    expect(await rejection(call(`${server.url}/bomb`, {}, { maxResponseBytes: 1_000 }))).toBeInstanceOf(ResponseTooLargeError);
  });

  it("leaves an error body to its own limit (64 KiB kept), whatever maxResponseBytes says", async () => {
    const server = await startServer((response) => send(response, 500, "x".repeat(100_000)));
    const answer = await call(`${server.url}/v1/me`, {}, { maxResponseBytes: 100 });
    expect(answer.status).toBe(500);
    expect(textOf(answer)).toBe("x".repeat(MAX_RAW_BODY_BYTES));
  });
});
