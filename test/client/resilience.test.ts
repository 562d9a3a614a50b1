/**
 * The generated client against a scripted loopback server: retries, POSTs never sent twice,
 * timeouts, cancellation, malformed error bodies, the key kept out of errors and logs, and the
 * options checked when a client is made.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import util from "node:util";
import { describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  GpuCloudClient,
  InvalidRequestError,
  ServerError,
  TimeoutError,
  UnexpectedStatusError,
  type GpuCloudError,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { driven, jsonResponse, scriptedFetch, type ScriptedRequest } from "../support/scripted-fetch.ts";
import { json, problem, useScriptedServer } from "../support/scripted-server.ts";
import { KEY, video, clientOn } from "./resilience-client.ts";

const server = useScriptedServer();
const client = clientOn(server);

describe("the generated client's resilience", () => {
  it("retries a GET on 503 and 502 with backoff, then succeeds, sending the key each time", async () => {
    server.replies = [problem(503), problem(502)];
    const { data } = await client().listPods();
    expect(data.pods).toEqual([]);
    expect(server.received).toHaveLength(3);
    expect(server.received.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("gives up after maxRetries with a typed ServerError", async () => {
    server.replies = [problem(503), problem(503), problem(503), problem(503)];
    const error = await client({ maxRetries: 1 }).listTemplates().catch((e: GpuCloudError) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(server.received).toHaveLength(2);
  });

  it("never sends a runsync or run twice, whatever fails", async () => {
    server.replies = [problem(503)];
    await expect(client().runModelSync("wan-2-6-i2v", video)).rejects.toBeInstanceOf(ServerError);
    server.replies = [(req, res) => res.socket?.destroy()];
    await expect(client().runModel("wan-2-6-i2v", video)).rejects.toMatchObject({ kind: "connection" });
    server.replies = [(_, res) => json(res, 429, { title: "Too Many Requests", status: 429, detail: "minute" }, { "retry-after": "0" })];
    await expect(client().runModel("wan-2-6-i2v", video)).rejects.toMatchObject({ status: 429 });
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /v2/wan-2-6-i2v/runsync?wait=55000",
      "POST /v2/wan-2-6-i2v/run",
      "POST /v2/wan-2-6-i2v/run",
    ]);
  });

  it("asks runsync's server to answer before the call times out: wait is the timeout less 5 s, within the contract's limits", async () => {
    const waits: string[] = [];
    const sent = async (options: object, call: object = {}) => {
      server.received = [];
      await client(options).runModelSync("wan-2-6-i2v", video, call).catch((e) => e);
      waits.push(server.received.length === 0 ? "nothing sent" : new URL(server.received[0]!.url, "http://x").searchParams.get("wait")!);
    };
    await sent({});
    await sent({ timeoutMs: 20_000 });
    await sent({}, { timeoutMs: 3_000 });
    await sent({}, { timeoutMs: 0 });
    await sent({}, { timeoutMs: 10 * 60_000 });
    await sent({}, { waitMs: 120_000 });
    await sent({}, { waitMs: 500 });
    expect(waits).toEqual(["55000", "15000", "1000", "300000", "300000", "120000", "nothing sent"]);
    const refused = await client().runModelSync("wan-2-6-i2v", video, { waitMs: 500 }).catch((e) => e);
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused.field).toBe("query.wait");
  });

  it("gets an unfinished runsync job back with its id where the server holds the call as long as asked", async () => {
    // On fake timers against a scripted fetch: the server holds the call the whole wait it was asked for, and its
    // answer comes before the client's timeout by the margin the client left, however slow the machine.
    vi.useFakeTimers();
    try {
      const hold = (request: ScriptedRequest) => ({ delayMs: Number(new URL(request.url).searchParams.get("wait")), response: jsonResponse(200, { id: "sync-1", status: "IN_PROGRESS" }) });
      const { fetch, requests } = scriptedFetch(hold);
      const result = await driven(client({ timeoutMs: 1_500, maxRetries: 0, fetch }).runModelSync("wan-2-6-i2v", video));
      expect(result.data).toMatchObject({ id: "sync-1", status: "IN_PROGRESS" });
      expect(requests).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("times out a slow attempt with a TimeoutError", async () => {
    server.replies = [(_, res) => setTimeout(() => json(res, 200, { pods: [] }), 1_000)];
    const error = await client({ timeoutMs: 100, maxRetries: 0 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(100);
  });

  it("stops waiting between retries as soon as the signal aborts", async () => {
    // On fake timers against a scripted fetch: the abort comes 100 ms into a 10 s pause, whatever the machine's speed.
    vi.useFakeTimers();
    try {
      const { fetch, requests } = scriptedFetch(() => jsonResponse(503, { title: "Unavailable", status: 503, detail: "try later" }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const pending = client({ retryBaseDelayMs: 10_000, retryMaxDelayMs: 10_000, random: () => 1, fetch }).listPods({}, { signal: controller.signal });
      await expect(driven(pending)).rejects.toBeInstanceOf(AbortedError);
      expect(Date.now() - started).toBe(100);
      expect(requests).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a non-JSON error body as raw text", async () => {
    server.replies = [(_, res) => { res.writeHead(418, { "content-type": "text/html" }); res.end("<html>teapot</html>"); }];
    const error = await client().listPods().catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.rawBody).toBe("<html>teapot</html>");
    expect(error.status).toBe(418);
  });

  it("never puts the key in an error, its JSON, util.inspect or a log line", async () => {
    const lines: string[] = [];
    const logger = { debug: (m: string, f?: object) => lines.push(m + JSON.stringify(f)), warn: (m: string, f?: object) => lines.push(m + JSON.stringify(f)) };
    // A hostile server echoing the Authorization header back in its problem body and a header.
    server.replies = [(req, res) => json(res, 400, { title: "Bad", status: 400, detail: `you sent ${req.headers.authorization}` }, { "x-echo": String(req.headers.authorization) })];
    const error = await client({ logger, maxRetries: 0 }).listPods().catch((e) => e);
    const everything = [error.message, error.stack, JSON.stringify(error), util.inspect(error, { depth: 10, showHidden: true }), ...lines].join("\n");
    expect(error.status).toBe(400);
    expect(lines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(KEY);
    expect(util.inspect(client(), { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(client())).not.toContain(KEY);
  });

  it("resends a run refused before it left the machine, with the same body", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const attempts: string[] = [];
    // The first attempt goes to a port nobody listens on (ECONNREFUSED), the next to the server.
    const fetch = (request: Request) => {
      attempts.push(request.url);
      return globalThis.fetch(attempts.length === 1 ? new Request(request.url.replace(server.url, closedUrl), request) : request);
    };
    server.replies = [(_, res) => json(res, 200, { id: "job-1", status: "IN_QUEUE" })];
    const { data } = await client({ fetch }).runModel("wan-2-6-i2v", video);
    expect(data.id).toBe("job-1");
    expect(attempts).toHaveLength(2);
    expect(server.received).toHaveLength(1);
    expect(JSON.parse(server.received[0]!.body)).toEqual({ input: video });
  });

  it("replaces an Authorization header the caller set, whatever its spelling", async () => {
    await client().listPods({}, { headers: { AUTHORIZATION: "Bearer someone-else", "X-Trace": "t-1" } });
    expect(server.received[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it("refuses a key that cannot be a header value when the client is made, without quoting it", async () => {
    let error: any;
    try {
      new GpuCloudClient({ apiKey: `${KEY}\r\nX-Injected: 1`, baseUrl: server.url });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("apiKey");
    expect([error.message, util.inspect(error, { depth: 10, showHidden: true })].join("\n")).not.toContain(KEY);
    expect(server.received).toHaveLength(0);
  });

  it("sends nothing when the signal is already aborted, and aborts a request in flight", async () => {
    const aborted = AbortSignal.abort(new Error("user left"));
    await expect(client().listPods({}, { signal: aborted })).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(0);

    // The caller leaves once the server has the request, whose answer would come 2 s later.
    const controller = new AbortController();
    server.replies = [
      (_, res) => {
        controller.abort();
        setTimeout(() => json(res, 200, { pods: [] }), 2_000);
      },
    ];
    await expect(client().listPods({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
  });
});

describe("the generated client's options, checked when it is made", () => {
  const refusal = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      return error as InvalidRequestError;
    }
    throw new Error("not refused");
  };

  it("refuses a base URL that is not an absolute http(s) URL, naming the option", () => {
    expect(refusal(() => new GpuCloudClient({ apiKey: KEY, baseUrl: "not-a-url" }))).toMatchObject({ field: "baseUrl", message: expect.stringContaining("baseUrl must be an absolute http(s) URL") });
    expect(refusal(() => new GpuCloudClient({ apiKey: KEY, publicEndpointBaseUrl: "ftp://files.example.org" }))).toMatchObject({ field: "publicEndpointBaseUrl" });
  });

  it("refuses a base URL with credentials without quoting the password", () => {
    const error = refusal(() => new GpuCloudClient({ apiKey: KEY, baseUrl: "https://proxyuser:proxy-secret-pw@api.example.org" }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("baseUrl");
    expect(util.inspect(error, { depth: 10, showHidden: true })).not.toContain("proxy-secret-pw");
  });

  it("refuses a key with a control character, which fetch would refuse on every call", () => {
    for (const key of [`${KEY}\x01`, `${KEY}\x7f`]) {
      const error = refusal(() => new GpuCloudClient({ apiKey: key, baseUrl: server.url }));
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.message).not.toContain(KEY);
    }
  });
});
