/**
 * The generated client while it reads a body: a body that stalls after the headers, one cut mid-way,
 * error bodies kept as they came (at most 64 KiB), and the key blanked out of a body it keeps.
 */
import http from "node:http";
import util from "node:util";
import { describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  ConnectionError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { driven, jsonResponse, scriptedFetch, stalledResponse } from "../support/scripted-fetch.ts";
import { useScriptedServer } from "../support/scripted-server.ts";
import { KEY, video, clientOn } from "./resilience-client.ts";

const server = useScriptedServer();
const client = clientOn(server);

describe("the generated client while it reads a body", () => {
  /** Headers and the start of a body, then nothing more: the connection stays open until the client leaves. */
  const stall = (status: number) => (_: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.write('{"pods":[');
  };

  it("times out a body that stalls after the headers, with the platform fetch and with a custom one", async () => {
    for (const fetch of [undefined, (request: Request) => globalThis.fetch(request)]) {
      server.replies = [stall(200)];
      const error = await client({ timeoutMs: 300, maxRetries: 0, ...(fetch ? { fetch } : {}) }).listPods().catch((e) => e);
      expect(error).toBeInstanceOf(TimeoutError);
    }
  });

  it("resends a GET whose 2xx body stalls past the timeout, as it resends one whose server is silent", async () => {
    // On fake timers against a scripted fetch: the answer after a stalled one always comes within the timeout.
    vi.useFakeTimers();
    try {
      const answers = (stalls: number) => scriptedFetch((request, n) => (n <= stalls ? stalledResponse(request, 200, '{"pods":[') : jsonResponse(200, { pods: [] })));
      const once = answers(1);
      const { data } = await driven(client({ timeoutMs: 300, maxRetries: 2, fetch: once.fetch }).listPods());
      expect(data.pods).toEqual([]);
      // Sent again once the first body stalled past the 300 ms timeout.
      expect(once.requests).toHaveLength(2);
      expect(once.requests[1]!.at - once.requests[0]!.at).toBeGreaterThanOrEqual(300);
      const always = answers(3);
      const error = await driven(client({ timeoutMs: 300, maxRetries: 2, fetch: always.fetch }).listPods()).catch((e) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(always.requests).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("aborts a body that stalls after the headers when the signal aborts", async () => {
    server.replies = [stall(200)];
    const controller = new AbortController();
    // The caller leaves once the headers are in, while the body stalls.
    const fetch = async (request: Request) => {
      const response = await globalThis.fetch(request);
      controller.abort(new Error("user left"));
      return response;
    };
    await expect(client({ maxRetries: 0, fetch }).listPods({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
  });

  it("gives the typed HTTP error for an error body that stalls or never ends, keeping at most 64 KiB of it", async () => {
    // A stalled error body, on fake timers against a scripted fetch: its headers always come before the timeout.
    vi.useFakeTimers();
    try {
      const { fetch } = scriptedFetch((request) => stalledResponse(request, 500, '{"pods":['));
      const stalled = await driven(client({ timeoutMs: 300, maxRetries: 0, fetch }).listPods()).catch((e) => e);
      expect(stalled).toBeInstanceOf(ServerError);
      expect(stalled.rawBody).toBe('{"pods":[');
    } finally {
      vi.useRealTimers();
    }

    // An error body that never ends, through the platform's fetch: the server writes until the client leaves, so a
    // client that read on would never return.
    let sent = 0;
    server.replies = [
      (_, res) => {
        res.writeHead(500, { "content-type": "text/plain" });
        const chunk = "x".repeat(16_384);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed) res.once("drain", pump);
        };
        pump();
      },
    ];
    const endless = await client({ maxRetries: 0 }).listPods().catch((e) => e);
    expect(endless).toBeInstanceOf(ServerError);
    expect(endless.rawBody.length).toBe(65_536);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  /** Headers announcing 100 bytes, the start of the body, then the connection dropped. */
  const cut = (_: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"pods":[');
    setTimeout(() => res.destroy(), 50);
  };

  it("resends a GET whose 2xx body is cut mid-way (a network failure like any other)", async () => {
    server.replies = [cut];
    const { data } = await client().listPods();
    expect(data.pods).toEqual([]);
    expect(server.received).toHaveLength(2);
  });

  it("resends a GET whose chunked 2xx body breaks off, with a custom fetch too", async () => {
    const chunkedCut = (_: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"pods":[');
      setTimeout(() => res.destroy(), 50);
    };
    server.replies = [chunkedCut];
    const { data } = await client({ fetch: (request: Request) => globalThis.fetch(request) }).listPods();
    expect(data.pods).toEqual([]);
    expect(server.received).toHaveLength(2);
  });

  it("never resends a POST whose 2xx body is cut: the job may exist", async () => {
    server.replies = [cut];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.received.map((r) => r.method)).toEqual(["POST"]);
  });

  it("turns a connection dropped in the middle of a 2xx body into a ConnectionError", async () => {
    server.replies = [
      (_, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"pods":[');
        setTimeout(() => res.destroy(), 50);
      },
    ];
    const error = await client({ maxRetries: 0 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.method).toBe("GET");
  });

  it("keeps an error body exactly as it came (numbers, spacing)", async () => {
    const text = '{ "title": "Bad", "status": 400, "detail": "n", "n": 12345678901234567890 }';
    server.replies = [(_, res) => { res.writeHead(400, { "content-type": "application/problem+json" }); res.end(text); }];
    const error = await client().listPods().catch((e) => e);
    expect(error.rawBody).toBe(text);
    expect(error.url).toBe(`${server.url}/v2/pods`);
  });

  it("blanks the key out of a 2xx body it keeps (not JSON, or not matching the contract)", async () => {
    const echo = (type: string, body: (authorization: string) => string) => (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "content-type": type });
      res.end(body(String(req.headers.authorization)));
    };
    server.replies = [echo("text/html", (authorization) => `<p>proxy login; you sent ${authorization}</p>`)];
    const notJson = await client().listPods().catch((e) => e);
    server.replies = [echo("application/json", (authorization) => `{"pods": "x", "debug": "${authorization}"}`)];
    const invalid = await client({ validateResponses: true }).listPods().catch((e) => e);
    expect(notJson.status).toBe(200);
    expect(invalid).toBeInstanceOf(ResponseValidationError);
    expect(invalid.rawBody).toBe('{"pods": "x", "debug": "Bearer [REDACTED]"}');
    for (const error of [notJson, invalid]) {
      expect([error.rawBody, JSON.stringify(error), util.inspect(error, { depth: 10, showHidden: true })].join("\n")).not.toContain(KEY);
    }
  });

  it("blanks a long key (a 4,000-character token) echoed in an error body", async () => {
    const longKey = `eyJ${"x".repeat(4_000)}`;
    server.replies = [(req, res) => { res.writeHead(500, { "content-type": "text/plain" }); res.end(`upstream said: ${String(req.headers.authorization)}`); }];
    const error = await client({ apiKey: longKey }).listPods().catch((e) => e);
    expect(error.status).toBe(500);
    expect(error.rawBody).toBe("upstream said: Bearer [REDACTED]");
  });

  it("takes a timeoutMs past setTimeout's limit as a long timeout, not an immediate one", async () => {
    const { data } = await client({ timeoutMs: Infinity }).listPods();
    expect(data.pods).toEqual([]);
    const { data: again } = await client().listPods({}, { timeoutMs: 30 * 24 * 3_600_000 });
    expect(again.pods).toEqual([]);
  });
});
