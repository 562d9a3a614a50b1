/**
 * A loopback node:http server scripted per test: each request is answered by the next function of
 * `replies` (then `200 {"pods":[]}`) and recorded as it arrived (method, URL, Authorization, body).
 * Started before a file's tests and closed after them (connections a reply left open included);
 * the script and the record are emptied after each test.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";

export type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface Received {
  method: string;
  url: string;
  authorization?: string | undefined;
  body: string;
}

export interface ScriptedServer {
  /** The base URL, once the file's tests have started. */
  url: string;
  replies: Reply[];
  received: Received[];
}

/** Registers the server's start, reset and close with the file's hooks: call once per file. */
export function useScriptedServer(): ScriptedServer {
  const state: ScriptedServer = { url: "", replies: [], received: [] };
  const server = http.createServer((req, res) => {
    const entry: Received = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body: "" };
    state.received.push(entry);
    req.setEncoding("utf8").on("data", (chunk: string) => (entry.body += chunk));
    const reply = state.replies.shift() ?? ((_, r) => json(r, 200, { pods: [] }));
    req.on("end", () => reply(req, res));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  afterEach(() => {
    state.replies = [];
    state.received = [];
  });
  return state;
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** A problem answer of `status` ("try later"). */
export const problem = (status: number): Reply => (_, res) => json(res, status, { title: "Unavailable", status, detail: "try later" });
