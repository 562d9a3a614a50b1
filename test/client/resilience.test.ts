/**
 * The generated client against a scripted loopback server: retries, Retry-After, POSTs never sent
 * twice, timeouts, cancellation, malformed error bodies, and the key kept out of errors and logs.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import util from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AbortedError,
  ConnectionError,
  GpuCloudClient,
  InvalidRequestError,
  ResponseValidationError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedStatusError,
  type GpuCloudError,
} from "../../generated/gpu-cloud-client/src/index.ts";

const KEY = "sk-live-resilience-0123456789";
type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let replies: Reply[] = [];
let received: Array<{ method: string; url: string; authorization?: string; body: string }> = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const entry = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body: "" };
    received.push(entry);
    req.setEncoding("utf8").on("data", (chunk: string) => (entry.body += chunk));
    const reply = replies.shift() ?? ((_, r) => json(r, 200, { pods: [] }));
    req.on("end", () => reply(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  replies = [];
  received = [];
});

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers });
  res.end(JSON.stringify(body));
}
const problem = (status: number) => (_: http.IncomingMessage, res: http.ServerResponse) =>
  json(res, status, { title: "Unavailable", status, detail: "try later" });

function client(options: ConstructorParameters<typeof GpuCloudClient>[0] = {}) {
  return new GpuCloudClient({ apiKey: KEY, baseUrl, publicEndpointBaseUrl: baseUrl, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
}
const video = { prompt: "p", image: "https://i.example/a.png" } as const;

describe("the generated client's resilience", () => {
  it("retries a GET on 503 and 502 with backoff, then succeeds, sending the key each time", async () => {
    replies = [problem(503), problem(502)];
    const { data } = await client().listPods();
    expect(data.pods).toEqual([]);
    expect(received).toHaveLength(3);
    expect(received.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it("gives up after maxRetries with a typed ServerError", async () => {
    replies = [problem(503), problem(503), problem(503), problem(503)];
    const error = await client({ maxRetries: 1 }).listTemplates().catch((e: GpuCloudError) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(received).toHaveLength(2);
  });

  it("waits Retry-After on 429 before retrying a DELETE", async () => {
    replies = [(_, res) => json(res, 429, { title: "Too Many Requests", status: 429, detail: "minute window" }, { "retry-after": "1" })];
    const started = Date.now();
    const { status } = await client().deleteRegistry({ path: { id: "r1" } }).catch(() => ({ status: 0 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(received.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
    expect(status).toBe(200);
  });

  it("never sends a runsync or run twice, whatever fails", async () => {
    replies = [problem(503)];
    await expect(client().runModelSync("wan-2-6-i2v", video)).rejects.toBeInstanceOf(ServerError);
    replies = [(req, res) => res.socket?.destroy()];
    await expect(client().runModel("wan-2-6-i2v", video)).rejects.toMatchObject({ kind: "connection" });
    replies = [(_, res) => json(res, 429, { title: "Too Many Requests", status: 429, detail: "minute" }, { "retry-after": "0" })];
    await expect(client().runModel("wan-2-6-i2v", video)).rejects.toMatchObject({ status: 429 });
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /v2/wan-2-6-i2v/runsync?wait=55000",
      "POST /v2/wan-2-6-i2v/run",
      "POST /v2/wan-2-6-i2v/run",
    ]);
  });

  it("asks runsync's server to answer before the call times out: wait is the timeout less 5 s, within the contract's limits", async () => {
    const waits: string[] = [];
    const sent = async (options: object, call: object = {}) => {
      received = [];
      await client(options).runModelSync("wan-2-6-i2v", video, call).catch((e) => e);
      waits.push(received.length === 0 ? "nothing sent" : new URL(received[0]!.url, "http://x").searchParams.get("wait")!);
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
    replies = [
      (req, res) => {
        const wait = Number(new URL(req.url ?? "", "http://x").searchParams.get("wait"));
        setTimeout(() => json(res, 200, { id: "sync-1", status: "IN_PROGRESS" }), wait);
      },
    ];
    const result = await client({ timeoutMs: 1_500, maxRetries: 0 }).runModelSync("wan-2-6-i2v", video);
    expect(result.data).toMatchObject({ id: "sync-1", status: "IN_PROGRESS" });
  });

  it("times out a slow attempt with a TimeoutError", async () => {
    replies = [(_, res) => setTimeout(() => json(res, 200, { pods: [] }), 1_000)];
    const error = await client({ timeoutMs: 100, maxRetries: 0 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(100);
  });

  it("stops waiting between retries as soon as the signal aborts", async () => {
    replies = [problem(503)];
    const controller = new AbortController();
    const pending = client({ retryBaseDelayMs: 10_000, retryMaxDelayMs: 10_000, random: () => 1 }).listPods({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(received).toHaveLength(1);
  });

  it("keeps a non-JSON error body as raw text", async () => {
    replies = [(_, res) => { res.writeHead(418, { "content-type": "text/html" }); res.end("<html>teapot</html>"); }];
    const error = await client().listPods().catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error.rawBody).toBe("<html>teapot</html>");
    expect(error.status).toBe(418);
  });

  it("never puts the key in an error, its JSON, util.inspect or a log line", async () => {
    const lines: string[] = [];
    const logger = { debug: (m: string, f?: object) => lines.push(m + JSON.stringify(f)), warn: (m: string, f?: object) => lines.push(m + JSON.stringify(f)) };
    // A hostile server echoing the Authorization header back in its problem body and a header.
    replies = [(req, res) => json(res, 400, { title: "Bad", status: 400, detail: `you sent ${req.headers.authorization}` }, { "x-echo": String(req.headers.authorization) })];
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
      return globalThis.fetch(attempts.length === 1 ? new Request(request.url.replace(baseUrl, closedUrl), request) : request);
    };
    replies = [(_, res) => json(res, 200, { id: "job-1", status: "IN_QUEUE" })];
    const { data } = await client({ fetch }).runModel("wan-2-6-i2v", video);
    expect(data.id).toBe("job-1");
    expect(attempts).toHaveLength(2);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual({ input: video });
  });

  it("replaces an Authorization header the caller set, whatever its spelling", async () => {
    await client().listPods({}, { headers: { AUTHORIZATION: "Bearer someone-else", "X-Trace": "t-1" } });
    expect(received[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it("refuses a key that cannot be a header value when the client is made, without quoting it", async () => {
    let error: any;
    try {
      new GpuCloudClient({ apiKey: `${KEY}\r\nX-Injected: 1`, baseUrl });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("apiKey");
    expect([error.message, util.inspect(error, { depth: 10, showHidden: true })].join("\n")).not.toContain(KEY);
    expect(received).toHaveLength(0);
  });

  it("sends nothing when the signal is already aborted, and aborts a request in flight", async () => {
    const aborted = AbortSignal.abort(new Error("user left"));
    await expect(client().listPods({}, { signal: aborted })).rejects.toBeInstanceOf(AbortedError);
    expect(received).toHaveLength(0);

    replies = [(_, res) => setTimeout(() => json(res, 200, { pods: [] }), 2_000)];
    const controller = new AbortController();
    const pending = client().listPods({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(received).toHaveLength(1);
  });
});

describe("the generated client while it reads a body", () => {
  /** Headers and the start of a body, then nothing more until the test is over. */
  const stall = (status: number) => (_: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.write('{"pods":[');
    setTimeout(() => res.end("]}"), 3_000);
  };

  it("times out a body that stalls after the headers, with the platform fetch and with a custom one", async () => {
    for (const fetch of [undefined, (request: Request) => globalThis.fetch(request)]) {
      replies = [stall(200)];
      const started = Date.now();
      const error = await client({ timeoutMs: 300, maxRetries: 0, ...(fetch ? { fetch } : {}) }).listPods().catch((e) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });

  it("resends a GET whose 2xx body stalls past the timeout, as it resends one whose server is silent", async () => {
    replies = [stall(200)];
    const { data } = await client({ timeoutMs: 300, maxRetries: 2 }).listPods();
    expect(data.pods).toEqual([]);
    expect(received).toHaveLength(2);
    replies = [stall(200), stall(200), stall(200)];
    received = [];
    const error = await client({ timeoutMs: 300, maxRetries: 2 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(received).toHaveLength(3);
  });

  it("aborts a body that stalls after the headers when the signal aborts", async () => {
    replies = [stall(200)];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 200);
    const started = Date.now();
    await expect(client({ maxRetries: 0 }).listPods({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("gives the typed HTTP error for an error body that stalls or never ends, keeping at most 64 KiB of it", async () => {
    replies = [stall(500)];
    const stalled = await client({ timeoutMs: 300, maxRetries: 0 }).listPods().catch((e) => e);
    expect(stalled).toBeInstanceOf(ServerError);
    expect(stalled.rawBody).toBe('{"pods":[');

    let sent = 0;
    replies = [
      (_, res) => {
        res.writeHead(500, { "content-type": "text/plain" });
        const chunk = "x".repeat(16_384);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed) res.once("drain", pump);
        };
        pump();
        setTimeout(() => res.destroy(), 5_000);
      },
    ];
    const started = Date.now();
    const endless = await client({ maxRetries: 0 }).listPods().catch((e) => e);
    expect(endless).toBeInstanceOf(ServerError);
    expect(endless.rawBody.length).toBe(65_536);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  /** Headers announcing 100 bytes, the start of the body, then the connection dropped. */
  const cut = (_: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
    res.write('{"pods":[');
    setTimeout(() => res.destroy(), 50);
  };

  it("resends a GET whose 2xx body is cut mid-way (a network failure like any other)", async () => {
    replies = [cut];
    const { data } = await client().listPods();
    expect(data.pods).toEqual([]);
    expect(received).toHaveLength(2);
  });

  it("resends a GET whose chunked 2xx body breaks off, with a custom fetch too", async () => {
    const chunkedCut = (_: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"pods":[');
      setTimeout(() => res.destroy(), 50);
    };
    replies = [chunkedCut];
    const { data } = await client({ fetch: (request: Request) => globalThis.fetch(request) }).listPods();
    expect(data.pods).toEqual([]);
    expect(received).toHaveLength(2);
  });

  it("never resends a POST whose 2xx body is cut: the job may exist", async () => {
    replies = [cut];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(received.map((r) => r.method)).toEqual(["POST"]);
  });

  it("turns a connection dropped in the middle of a 2xx body into a ConnectionError", async () => {
    replies = [
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
    replies = [(_, res) => { res.writeHead(400, { "content-type": "application/problem+json" }); res.end(text); }];
    const error = await client().listPods().catch((e) => e);
    expect(error.rawBody).toBe(text);
    expect(error.url).toBe(`${baseUrl}/v2/pods`);
  });

  it("blanks the key out of a 2xx body it keeps (not JSON, or not matching the contract)", async () => {
    const echo = (type: string, body: (authorization: string) => string) => (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "content-type": type });
      res.end(body(String(req.headers.authorization)));
    };
    replies = [echo("text/html", (authorization) => `<p>proxy login; you sent ${authorization}</p>`)];
    const notJson = await client().listPods().catch((e) => e);
    replies = [echo("application/json", (authorization) => `{"pods": "x", "debug": "${authorization}"}`)];
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
    replies = [(req, res) => { res.writeHead(500, { "content-type": "text/plain" }); res.end(`upstream said: ${String(req.headers.authorization)}`); }];
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

describe("waits the server asks for", () => {
  const retriedAfter = async (first: Reply, options: object = {}) => {
    replies = [first];
    const started = Date.now();
    const { data } = await client(options).listPods();
    expect(data.pods).toEqual([]);
    expect(received).toHaveLength(2);
    return Date.now() - started;
  };

  it("waits Retry-After on 503, in seconds or as an HTTP date", async () => {
    const unavailable = (retryAfter: string) => (_: http.IncomingMessage, res: http.ServerResponse) =>
      json(res, 503, { title: "Unavailable", status: 503 }, { "retry-after": retryAfter });
    expect(await retriedAfter(unavailable("1"))).toBeGreaterThanOrEqual(950);
    received = [];
    // An HTTP date has whole seconds: two seconds ahead is more than one from now.
    expect(await retriedAfter(unavailable(new Date(Date.now() + 2_000).toUTCString()))).toBeGreaterThanOrEqual(950);
  });

  it("waits, on a 429 without Retry-After, for the reset of the RateLimit window used up", async () => {
    const limited = (_: http.IncomingMessage, res: http.ServerResponse) =>
      json(res, 429, { title: "Too Many Requests", status: 429 }, { ratelimit: '"hour";r=5;t=3000, "minute";r=0;t=1', "ratelimit-policy": '"minute";q=10;w=60' });
    expect(await retriedAfter(limited)).toBeGreaterThanOrEqual(950);
  });

  it("does not wait past maxRetryAfterMs: the typed error says the wait asked for", async () => {
    replies = [(_, res) => json(res, 503, { title: "Unavailable", status: 503 }, { "retry-after": "120" })];
    const unavailable = await client().listPods().catch((e) => e);
    expect(unavailable).toBeInstanceOf(ServerError);
    expect(unavailable).toMatchObject({ status: 503, retryAfterMs: 120_000, retryAfter: 120 });
    expect(received).toHaveLength(1);

    received = [];
    replies = [(_, res) => json(res, 429, { title: "Too Many Requests", status: 429 }, { ratelimit: '"minute";r=0;t=3600' })];
    const limited = await client().listPods().catch((e) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ retryAfterMs: 3_600_000, retryAfter: 3_600 });
    expect(received).toHaveLength(1);

    received = [];
    replies = [(_, res) => json(res, 503, { title: "Unavailable", status: 503 }, { "retry-after": "2" })];
    const lowerCap = await client({ maxRetryAfterMs: 1_000 }).listPods().catch((e) => e);
    expect(lowerCap).toMatchObject({ status: 503, retryAfterMs: 2_000 });
    expect(received).toHaveLength(1);
  });
});

describe("redirects of a call that is not idempotent", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  });
  const listen = async (handler: http.RequestListener) => {
    const s = http.createServer(handler);
    servers.push(s);
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  const closedPort = async () => {
    const s = http.createServer();
    await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    return url;
  };

  it.each([307, 308])("never resends a POST answered %i towards an address that refuses the connection", async (status) => {
    const refused = await closedPort();
    replies = [(_, res) => { res.writeHead(status, { location: `${refused}/v2/wan-2-6-i2v/run` }); res.end(); }];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.cause.code).toBe("ECONNREFUSED");
    expect(received.map((r) => r.method)).toEqual(["POST"]);
  });

  it("follows 307 and 308 with the same method and body, 303 (and 301, 302 of a POST) with a GET", async () => {
    const landed: Array<{ method: string; url: string; body: string; type?: string }> = [];
    const target = await listen((req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        landed.push({ method: req.method!, url: req.url!, body, type: req.headers["content-type"] });
        json(res, 200, { id: "job-2", status: "IN_QUEUE" });
      });
    });
    for (const status of [307, 308, 303, 301, 302]) {
      replies = [(_, res) => { res.writeHead(status, { location: `${target}/landing/${status}` }); res.end(); }];
      const { data } = await client().runModel("wan-2-6-i2v", video);
      expect(data.id).toBe("job-2");
    }
    const sent = JSON.stringify({ input: video });
    expect(landed).toEqual([
      { method: "POST", url: "/landing/307", body: sent, type: "application/json" },
      { method: "POST", url: "/landing/308", body: sent, type: "application/json" },
      { method: "GET", url: "/landing/303", body: "" },
      { method: "GET", url: "/landing/301", body: "" },
      { method: "GET", url: "/landing/302", body: "" },
    ]);
    expect(received).toHaveLength(5);
  });

  it("drops the key on a redirect to another origin, keeps it on the same one", async () => {
    const elsewhere: Array<string | undefined> = [];
    const port = new URL(await listen((req, res) => {
      elsewhere.push(req.headers.authorization);
      json(res, 200, { id: "job-3", status: "IN_QUEUE" });
    })).port;
    // Another port is another origin.
    replies = [(_, res) => { res.writeHead(307, { location: `http://127.0.0.1:${port}/landing` }); res.end(); }];
    await client().runModel("wan-2-6-i2v", video);
    expect(elsewhere).toEqual([undefined]);
    replies = [(_, res) => { res.writeHead(307, { location: "/landing" }); res.end(); }, (_, res) => json(res, 200, { id: "job-4", status: "IN_QUEUE" })];
    const { data } = await client().runModel("wan-2-6-i2v", video);
    expect(data.id).toBe("job-4");
    expect(received.map((r) => [r.url, r.authorization])).toEqual([
      ["/v2/wan-2-6-i2v/run", `Bearer ${KEY}`],
      ["/v2/wan-2-6-i2v/run", `Bearer ${KEY}`],
      ["/landing", `Bearer ${KEY}`],
    ]);
  });

  it("stops after 20 redirects with a ConnectionError, sending the POST once", async () => {
    let hops = 0;
    const loop = await listen((_, res) => {
      hops++;
      res.writeHead(307, { location: "/again" });
      res.end();
    });
    replies = [(_, res) => { res.writeHead(307, { location: `${loop}/again` }); res.end(); }];
    const error = await client().runModel("wan-2-6-i2v", video).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(received).toHaveLength(1);
    expect(hops).toBe(20);
  });
});

describe("maxResponseBytes", () => {
  /** A 2xx body that never ends: what the server wrote is counted, and whether it was told to stop. */
  const endless = () => {
    const state = { sent: 0, closed: false };
    const reply: Reply = (_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", () => (state.closed = true));
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
    replies = [reply];
    const started = Date.now();
    const error = await client({ maxResponseBytes: limit, fetch, timeoutMs: 20_000 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ kind: "response_too_large", status: 200, method: "GET", maxResponseBytes: limit });
    expect(Date.now() - started).toBeLessThan(3_000);
    // Read: the limit and the chunk that passed it; counted: one more chunk may wait in the counter's queue.
    expect(counted.bytes).toBeGreaterThan(limit);
    expect(counted.bytes).toBeLessThanOrEqual(limit + 2 * 64 * 1024);
    expect(received).toHaveLength(1); // too large is no reason to ask again
    // The connection is closed: the server stops writing, what it wrote stays within the socket buffers.
    await expect.poll(() => state.closed, { timeout: 2_000 }).toBe(true);
    const sentThen = state.sent;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(state.sent).toBe(sentThen);
  });

  it("stops at the default 64 MiB, with the platform fetch, and ends the connection", async () => {
    const { state, reply } = endless();
    replies = [reply];
    const started = Date.now();
    const error = await client({ timeoutMs: 30_000 }).listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.maxResponseBytes).toBe(64 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect.poll(() => state.closed, { timeout: 2_000 }).toBe(true);
  });

  it("refuses a body whose Content-Length is over the limit without reading it, per call", async () => {
    const { counted, fetch } = counting();
    replies = [(_, res) => { res.writeHead(200, { "content-type": "application/json", "content-length": "2000" }); res.end(`{"pods":[]${" ".repeat(1_990)}}`); }];
    const error = await client({ fetch }).listPods({}, { maxResponseBytes: 1_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.maxResponseBytes).toBe(1_000);
    expect(counted.bytes).toBe(0);
    const { data } = await client({ maxResponseBytes: 1_000 }).listPods({}, { maxResponseBytes: 4_000 });
    expect(data.pods).toEqual([]);
  });

  it("reads a body of exactly the limit", async () => {
    const body = `{"pods":[]${" ".repeat(990)}}`;
    replies = [(_, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(body); }];
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
    expect(received).toHaveLength(0);
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
      const error = refusal(() => new GpuCloudClient({ apiKey: key, baseUrl }));
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.message).not.toContain(KEY);
    }
  });
});
