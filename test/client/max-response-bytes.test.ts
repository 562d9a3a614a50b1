/**
 * maxResponseBytes: a 2xx body past the limit, or one that never ends, ends with a typed error
 * without buffering more, by Content-Length or while reading, per client or per call.
 */
import { describe, expect, it } from "vitest";
import {
  InvalidRequestError,
  ResponseTooLargeError,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { type Reply, useScriptedServer } from "../support/scripted-server.ts";
import { clientOn } from "./resilience-client.ts";

const server = useScriptedServer();
const client = clientOn(server);

describe("maxResponseBytes", () => {
  /** A 2xx body that never ends: what the server wrote is counted, and `closed` settles once the client hangs up. */
  const endless = () => {
    let hungUp!: () => void;
    const state = { sent: 0, closed: new Promise<void>((resolve) => (hungUp = resolve)) };
    const reply: Reply = (_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", () => hungUp());
      res.write('{"pods":[');
      const chunk = Buffer.from("0,".repeat(32_768));
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) state.sent += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    };
    return { state, reply };
  };

  /** A fetch that counts the body bytes the client took from the network. */
  const counting = () => {
    const counted = { bytes: 0 };
    const fetch = async (request: Request) => {
      const response = await globalThis.fetch(request);
      if (response.body === null) return response;
      const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform(chunk, out) { counted.bytes += chunk.byteLength; out.enqueue(chunk); } }));
      return new Response(body, { status: response.status, headers: response.headers });
    };
    return { counted, fetch };
  };

  it("ends a 2xx body that never ends with a typed error, having buffered no more than the limit and a chunk", async () => {
    const limit = 1024 * 1024;
    const { state, reply } = endless();
    const { counted, fetch } = counting();
    server.replies = [reply];
    // No timeout: only the limit can end the read.
    const error = await client({ maxResponseBytes: limit, fetch, timeoutMs: Infinity }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ kind: "response_too_large", status: 200, method: "GET", maxResponseBytes: limit });
    // Read: the limit and the chunk that passed it; counted: one more chunk may wait in the counter's queue.
    expect(counted.bytes).toBeGreaterThan(limit);
    expect(counted.bytes).toBeLessThanOrEqual(limit + 2 * 64 * 1024);
    expect(server.received).toHaveLength(1); // too large is no reason to ask again
    // The connection is closed, so the server stops writing (a client that kept it open would never get here).
    await state.closed;
  });

  // 64 MiB through loopback takes seconds on a loaded machine: the test's budget is that work's, not a bound it asserts.
  it("stops at the default 64 MiB, with the platform fetch, and ends the connection", { timeout: 120_000 }, async () => {
    const { state, reply } = endless();
    server.replies = [reply];
    // No timeout: only the limit can end the read.
    const error = await client({ timeoutMs: Infinity }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.maxResponseBytes).toBe(64 * 1024 * 1024);
    await state.closed;
  });

  it("refuses a body whose Content-Length is over the limit without reading it, per call", async () => {
    const { counted, fetch } = counting();
    server.replies = [(_, res) => { res.writeHead(200, { "content-type": "application/json", "content-length": "2000" }); res.end(`{"pods":[]${" ".repeat(1_990)}}`); }];
    const error = await client({ fetch }).listPods({}, { maxResponseBytes: 1_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.maxResponseBytes).toBe(1_000);
    expect(counted.bytes).toBe(0);
    const { data } = await client({ maxResponseBytes: 1_000 }).listPods({}, { maxResponseBytes: 4_000 });
    expect(data.pods).toEqual([]);
  });

  it("reads a body of exactly the limit", async () => {
    const body = `{"pods":[]${" ".repeat(990)}}`;
    server.replies = [(_, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(body); }];
    const { data } = await client({ maxResponseBytes: body.length }).listPods();
    expect(data.pods).toEqual([]);
  });

  it("refuses a maxResponseBytes that is not a whole number of bytes, naming it", async () => {
    for (const value of [NaN, -1, 0, 1.5]) {
      expect(() => client({ maxResponseBytes: value })).toThrow(InvalidRequestError);
      const error = await client().listPods({}, { maxResponseBytes: value }).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.field).toBe("maxResponseBytes");
    }
    expect(server.received).toHaveLength(0);
  });
});
