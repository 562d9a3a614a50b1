/**
 * The loopback server of the per-call benchmark, run as a child process so its CPU time does not
 * mix with the client's. Answers with canned bodies and the contract's `RateLimit` headers; prints
 * `{"port":N,...}` on stdout once listening, and exits when its stdin closes (the parent died).
 */
import http from "node:http";
import { buildPayloads, RATE_LIMIT, RATE_LIMIT_POLICY } from "./payloads.ts";

const payloads = buildPayloads();
const bodies = {
  pods: Buffer.from(payloads.pods),
  job: Buffer.from(payloads.job),
  queued: Buffer.from(payloads.queued),
};
const problem = Buffer.from(JSON.stringify({ title: "Not Found", status: 404, detail: "no such route" }));

function send(res: http.ServerResponse, status: number, body: Buffer, type = "application/json"): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": body.length,
    RateLimit: RATE_LIMIT,
    "RateLimit-Policy": RATE_LIMIT_POLICY,
  });
  res.end(body);
}

const STATUS = /^\/v2\/[^/]+\/status\/[^/]+$/;
const RUN = /^\/v2\/[^/]+\/run$/;

const server = http.createServer((req, res) => {
  const url = req.url ?? "/";
  const pathname = url.includes("?") ? url.slice(0, url.indexOf("?")) : url;
  // Drain any request body before answering so the connection stays reusable.
  req.resume();
  req.on("end", () => {
    if (req.method === "GET" && pathname === "/v2/pods") return send(res, 200, bodies.pods);
    if (req.method === "GET" && STATUS.test(pathname)) return send(res, 200, bodies.job);
    if (req.method === "POST" && RUN.test(pathname)) return send(res, 200, bodies.queued);
    return send(res, 404, problem, "application/problem+json");
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 61_000;

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, podsBytes: bodies.pods.length, jobBytes: bodies.job.length })}\n`);
});

process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
