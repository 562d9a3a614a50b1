/**
 * The runtime smoke suite of the generated package: one case per kind of thing a runtime can break
 * (each operation kind, an event stream, a timeout, an abort, retries, redaction, the job helpers).
 * Plain JavaScript on web APIs only (fetch's Request and Response, streams, AbortController,
 * timers), so that Node, Deno, Bun and a browser page run it unchanged. The client's `fetch` option
 * answers in memory, as the platform's fetch would: no network, no server, no real waiting.
 *
 * `runSmokeCases(pkg, report)` takes the package's module namespace and reports each case as
 * `{ name, ok, detail }`; it resolves to the number of failures. smoke.mjs runs it from a command
 * line, test/publish/runtimes.test.ts on each runtime and in headless Chromium.
 */

const API_KEY = "sk-smoke-0123456789-SECRET";
const BASE = "http://api.smoke.test";
const PUBLIC = "http://public.smoke.test";
const MODEL = "wan-2-6-i2v";
const INPUT = { prompt: "lanterns sway in the wind", image: "https://images.example.org/lanterns.jpg", size: "1280*720", duration: 5 };

const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers } });

const pod = (id, status = "RUNNING") => ({ id, name: "smoke", status });

/**
 * A `fetch` answered by `reply(request, n)`, which returns a Response, a promise of one, or
 * "silent" (never answered: it rejects when the request's signal aborts, as the platform's does).
 */
function scripted(reply) {
  const requests = [];
  const fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
    const seen = { method: request.method, url, path: url.pathname, headers: request.headers, body, signal: request.signal };
    requests.push(seen);
    const answer = await reply(seen, requests.length);
    if (answer !== "silent") return answer;
    return new Promise((_, reject) => {
      const onAbort = () => reject(request.signal.reason);
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener("abort", onAbort, { once: true });
    });
  };
  return { fetch, requests };
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function equal(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** The error a promise rejects with (and a failure when it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, the call succeeded");
}

function cases(pkg) {
  const client = (fetch, options = {}) => new pkg.GpuCloudClient({ apiKey: API_KEY, baseUrl: BASE, publicEndpointBaseUrl: PUBLIC, fetch, maxRetries: 0, ...options });

  return {
    async "GET with a query"() {
      const s = scripted(() => json(200, [pod("p1")], { RateLimit: '"minute";r=59;t=30', "RateLimit-Policy": '"minute";q=60;w=60', "x-request-id": "req-1" }));
      const result = await client(s.fetch).listPods({ query: { includeClusterPods: true } });
      equal([s.requests[0].method, s.requests[0].path, s.requests[0].url.search], ["GET", "/v2/pods", "?includeClusterPods=true"], "request");
      equal(s.requests[0].headers.get("authorization"), `Bearer ${API_KEY}`, "authorization");
      equal([result.status, result.data.length, result.data[0].id, result.requestId, result.rateLimit?.windows[0]?.remaining], [200, 1, "p1", "req-1", 59], "result");
      return `${result.status}, ${result.data.length} pod`;
    },

    async "POST a JSON body with a path parameter"() {
      const s = scripted((request) => json(200, { ...pod(request.path.split("/")[3]), status: "EXITED" }));
      const result = await client(s.fetch).podAction({ path: { id: "7h9k2m4n6p" }, body: { action: "stop" } });
      const sent = s.requests[0];
      equal([sent.method, sent.path, sent.headers.get("content-type"), JSON.parse(sent.body)], ["POST", "/v2/pods/7h9k2m4n6p/action", "application/json", { action: "stop" }], "request");
      equal([result.status, result.data.status], [200, "EXITED"], "result");
      return `${sent.method} ${sent.path}`;
    },

    async "path parameters are encoded"() {
      const s = scripted(() => json(200, pod("a b")));
      await client(s.fetch).getPod({ path: { id: "a b" } });
      equal(s.requests[0].path, "/v2/pods/a%20b", "path");
      const refused = await rejection(client(s.fetch).getPod({ path: { id: ".." } }));
      check(refused instanceof pkg.InvalidRequestError, `a ".." id: expected InvalidRequestError, got ${refused}`);
      equal(s.requests.length, 1, "requests sent");
      return s.requests[0].path;
    },

    async "DELETE answering 204"() {
      const s = scripted(() => new Response(null, { status: 204 }));
      const result = await client(s.fetch).deletePod({ path: { id: "7h9k2m4n6p" } });
      equal([s.requests[0].method, s.requests[0].path, result.status, result.data], ["DELETE", "/v2/pods/7h9k2m4n6p", 204, undefined], "delete");
      return "204";
    },

    async "an error status is a typed error"() {
      const s = scripted(() => json(404, { type: "about:blank", title: "Not Found", status: 404, detail: "no pod p9" }, { "x-request-id": "req-404" }));
      const error = await rejection(client(s.fetch).getPod({ path: { id: "p9" } }));
      check(error instanceof pkg.NotFoundError && error instanceof pkg.ApiError && error instanceof pkg.GpuCloudError, `expected NotFoundError, got ${error}`);
      equal([error.status, error.detail, error.requestId], [404, "no pod p9", "req-404"], "error");
      return error.name;
    },

    async "Server-Sent Events: pod logs"() {
      const encoder = new TextEncoder();
      const events = [
        'id: 1\ndata: {"source":"container","line":"booting","ts":"2026-06-01T12:00:00Z"}\n\n',
        'id: 2\ndata: {"source":"container","line":"Listening on 0.0.0.0:8888","ts":"2026-06-01T12:00:01Z"}\n\n',
      ];
      let cancelled = false;
      const s = scripted(
        (request) =>
          new Response(
            new ReadableStream({
              start(controller) {
                // Each event in its own chunk, the second split mid-line, then the stream stays open.
                controller.enqueue(encoder.encode(events[0]));
                controller.enqueue(encoder.encode(events[1].slice(0, 20)));
                controller.enqueue(encoder.encode(events[1].slice(20)));
                request.signal.addEventListener("abort", () => controller.error(request.signal.reason), { once: true });
              },
              cancel() {
                cancelled = true;
              },
            }),
            { status: 200, headers: { "content-type": "text/event-stream" } },
          ),
      );
      const lines = [];
      for await (const event of client(s.fetch).getPodLogs({ path: { id: "7h9k2m4n6p" } })) {
        lines.push(`${event.id}:${event.data.line}`);
        if (lines.length === 2) break;
      }
      equal(lines, ["1:booting", "2:Listening on 0.0.0.0:8888"], "events");
      equal([s.requests[0].path, s.requests[0].headers.get("accept")?.includes("text/event-stream")], ["/v2/pods/7h9k2m4n6p/logs", true], "request");
      check(cancelled, "break did not close the connection (the body was not cancelled)");
      return `${lines.length} events, closed on break`;
    },

    async "a request timeout"() {
      const s = scripted(() => "silent");
      const error = await rejection(client(s.fetch, { timeoutMs: 50 }).listPods());
      check(error instanceof pkg.TimeoutError, `expected TimeoutError, got ${error}`);
      check(s.requests[0].signal.aborted, "the request's signal was not aborted");
      return error.name;
    },

    async "an abort through AbortSignal"() {
      const s = scripted(() => "silent");
      const controller = new AbortController();
      const pending = client(s.fetch).listPods(undefined, { signal: controller.signal });
      setTimeout(() => controller.abort(), 10);
      const error = await rejection(pending);
      check(error instanceof pkg.AbortedError, `expected AbortedError, got ${error}`);
      const already = await rejection(client(s.fetch).listPods(undefined, { signal: AbortSignal.abort() }));
      check(already instanceof pkg.AbortedError, `an aborted signal: expected AbortedError, got ${already}`);
      return error.name;
    },

    async "a retry after 429 and 503"() {
      const s = scripted((_, n) =>
        n === 1
          ? json(429, { title: "Too Many Requests", status: 429 }, { "Retry-After": "0" })
          : n === 2
            ? json(503, { title: "Service Unavailable", status: 503 }, { "Retry-After": "0" })
            : json(200, [pod("p1")]),
      );
      const result = await client(s.fetch, { maxRetries: 2 }).listPods();
      equal([s.requests.length, result.status], [3, 200], "attempts and status");
      const none = scripted(() => json(429, { title: "Too Many Requests", status: 429 }, { "Retry-After": "7" }));
      const error = await rejection(client(none.fetch, { maxRetries: 0 }).listPods());
      check(error instanceof pkg.RateLimitError, `without retries: expected RateLimitError, got ${error}`);
      equal(error.retryAfter, 7, "retryAfter");
      return `${s.requests.length} attempts`;
    },

    async "a POST is not retried once it may have reached the server"() {
      const s = scripted(() => json(503, { title: "Service Unavailable", status: 503 }, { "Retry-After": "0" }));
      const error = await rejection(client(s.fetch, { maxRetries: 2 }).podAction({ path: { id: "p1" }, body: { action: "stop" } }));
      check(error instanceof pkg.ServerError, `expected ServerError, got ${error}`);
      equal(s.requests.length, 1, "attempts");
      return "1 attempt";
    },

    async "redaction: the key is in no error"() {
      const echo = scripted((request) => json(401, { title: "Unauthorized", status: 401, detail: `bad key ${request.headers.get("authorization")}` }));
      const failed = scripted(() => {
        throw new TypeError(`connect ECONNREFUSED while sending Bearer ${API_KEY}`);
      });
      const errors = [await rejection(client(echo.fetch).listPods()), await rejection(client(failed.fetch).listPods())];
      check(errors[0] instanceof pkg.AuthenticationError, `expected AuthenticationError, got ${errors[0]?.name}`);
      check(errors[1] instanceof pkg.ConnectionError, `expected ConnectionError, got ${errors[1]?.name}`);
      for (const error of errors) {
        for (const [what, text] of [["message", error.message], ["toString", String(error)], ["JSON", JSON.stringify(error)], ["stack", error.stack ?? ""]]) {
          check(!text.includes(API_KEY) && !text.includes("0123456789-SECRET"), `${error.name}'s ${what} holds the key: ${text.slice(0, 200)}`);
        }
      }
      return errors.map((e) => e.name).join(", ");
    },

    async "a job with runsync (runAndWait sync)"() {
      const s = scripted((request) => json(200, { id: "sync-job-1", status: "COMPLETED", output: { video_url: "https://files.example.test/out.mp4", cost: 0.5 } }));
      const result = await pkg.runAndWait(client(s.fetch), MODEL, INPUT, { sync: true });
      equal([s.requests.length, s.requests[0].method, s.requests[0].path], [1, "POST", `/v2/${MODEL}/runsync`], "request");
      equal(JSON.parse(s.requests[0].body).input.prompt, INPUT.prompt, "input sent");
      equal([result.id, result.status, result.url], ["sync-job-1", "COMPLETED", "https://files.example.test/out.mp4"], "result");
      return `${result.status} in 1 request`;
    },

    async "a job with run, then its status"() {
      const statuses = ["IN_QUEUE", "IN_PROGRESS"];
      const s = scripted((request) => {
        if (request.path.endsWith("/run")) return json(200, { id: "job-7", status: "IN_QUEUE" });
        const status = statuses.shift();
        return json(200, status ? { id: "job-7", status } : { id: "job-7", status: "COMPLETED", output: { video_url: "https://files.example.test/job-7.mp4", cost: 0.5 } });
      });
      const progress = [];
      const result = await pkg.runAndWait(client(s.fetch), MODEL, INPUT, { intervalMs: 1, onProgress: ({ job }) => progress.push(job.status) });
      equal(s.requests.map((r) => `${r.method} ${r.path}`), [`POST /v2/${MODEL}/run`, ...Array(3).fill(`GET /v2/${MODEL}/status/job-7`)], "requests");
      equal([result.status, result.url, progress.at(-1)], ["COMPLETED", "https://files.example.test/job-7.mp4", "COMPLETED"], "result");
      const failing = scripted((request) => json(200, request.path.endsWith("/run") ? { id: "job-8", status: "IN_QUEUE" } : { id: "job-8", status: "FAILED", error: "out of memory" }));
      const error = await rejection(pkg.runAndWait(client(failing.fetch), MODEL, INPUT, { intervalMs: 1 }));
      check(error instanceof pkg.JobFailedError, `a FAILED job: expected JobFailedError, got ${error}`);
      return `${s.requests.length} requests, then ${error.name}`;
    },

    async "download a job's output (a Blob, a WritableStream)"() {
      const bytes = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]);
      const s = scripted(() => new Response(bytes, { status: 200, headers: { "content-type": "video/mp4" } }));
      const result = { id: "job-7", url: "https://files.example.test/job-7.mp4?X-Amz-Signature=secret-signature", expiresAt: new Date(Date.now() + 60_000) };
      const blob = await pkg.download(result, { fetch: s.fetch });
      equal([blob.size, blob.type], [8, "video/mp4"], "blob");
      const chunks = [];
      const report = await pkg.download(result, new WritableStream({ write: (chunk) => void chunks.push(chunk) }), { fetch: s.fetch });
      equal([report.bytes, chunks.reduce((n, chunk) => n + chunk.byteLength, 0)], [8, 8], "stream");
      check(!s.requests.some((request) => request.headers.has("authorization")), "the key went to the file host");
      if (typeof globalThis.process?.getBuiltinModule !== "function") {
        // No file system here (a browser): a file path is refused before anything is fetched.
        const refused = await rejection(pkg.download(result, "out.mp4", { fetch: s.fetch }));
        check(refused instanceof TypeError, `a file path without a file system: expected TypeError, got ${refused}`);
      }
      return `${blob.size} bytes twice`;
    },
  };
}

/** The cases' names, in the order they run. */
export const CASE_NAMES = Object.keys(cases(undefined));

/** Runs every case in order; `report` gets `{ name, ok, detail }` for each. Resolves to the failures. */
export async function runSmokeCases(pkg, report) {
  let failures = 0;
  for (const [name, run] of Object.entries(cases(pkg))) {
    try {
      report({ name, ok: true, detail: String(await run()) });
    } catch (error) {
      failures += 1;
      report({ name, ok: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
  return failures;
}
