/**
 * A scriptable loopback HTTP server on raw TCP (node:net), so that it can misbehave in ways a real
 * HTTP server library will not: reset a connection before or after reading the request, cut a
 * body short, trickle it, stall, never answer, send headers that lie or do not parse, redirect
 * anywhere. It records every request it read (method, path, headers, body, arrival time) and what
 * it answered, and knows when every connection a request came on is closed, so a test can tell a
 * socket the client left behind.
 */
import net from "node:net";
import { STATUS_CODES } from "node:http";

export interface FaultRequest {
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  path: string;
  /** Lowercased names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** Milliseconds since the script was loaded. */
  at: number;
  /**
   * What the answer may mean for a submission: `refused` (429: no job was made), `redirected`
   * (3xx: not processed here), or `may-have-run` (anything else, a reset or a silence included).
   */
  outcome: "refused" | "redirected" | "may-have-run";
}

type HeaderList = Record<string, string | string[]>;

export type Reply =
  /** A whole response; `Content-Length` is the body's unless `headers` sets one (or chunking). */
  | { kind: "respond"; status: number; headers?: HeaderList; body?: string | Buffer }
  /** Bytes as they are (a malformed status line or header), then the connection closed. */
  | { kind: "raw"; text: string | Buffer; status: number }
  /** The connection reset (RST) after the request was read. */
  | { kind: "reset" }
  /** No answer at all; the connection stays open until the client gives up. */
  | { kind: "silent" }
  /** Headers announcing the whole body, `sendBytes` of it, then the connection closed or reset. */
  | { kind: "cut"; status: number; headers?: HeaderList; body: string; sendBytes: number; then: "close" | "reset" }
  /** The body `chunkBytes` at a time, every `everyMs`. */
  | { kind: "trickle"; status: number; headers?: HeaderList; body: string; chunkBytes: number; everyMs: number }
  /** A body that never ends: `chunkBytes` every `everyMs` until the client hangs up. */
  | { kind: "endless"; status: number; headers?: HeaderList; chunkBytes: number; everyMs: number }
  /** Chunked: `body` as one chunk, then nothing more, the connection kept open until the client hangs up. */
  | { kind: "stall"; status: number; headers?: HeaderList; body: string };

export interface Route {
  method?: string;
  path: string | RegExp;
  /** The nth request of the route (from 1) takes `reply[n - 1]`, the last one repeating; or a function of it. */
  reply: Reply | Reply[] | ((request: FaultRequest, n: number) => Reply);
}

export interface Script {
  /** Resets the nth connection (from 1) as soon as it is accepted, before reading anything. */
  resetOnConnect?(n: number): boolean;
  routes: Route[];
}

/** How long a connection with nothing sent on it must have been open to count as idle. */
const IDLE_MS = 50;

export class FaultServer {
  url = "";
  requests: FaultRequest[] = [];
  connections = 0;
  resetOnConnect = 0;
  /** Bytes of body written by trickled and endless replies. */
  bodyBytesSent = 0;
  #server = net.createServer((socket) => this.#accept(socket));
  #script: Script = { routes: [] };
  #routeCounts = new Map<Route, number>();
  /** Open connections, each with the timers of its reply; `undefined` until a request arrived on it. */
  #sockets = new Map<net.Socket, Set<NodeJS.Timeout> | undefined>();
  #acceptedAt = new WeakMap<net.Socket, number>();
  #loadedAt = Date.now();

  static async start(): Promise<FaultServer> {
    const server = new FaultServer();
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    server.url = `http://127.0.0.1:${(server.#server.address() as net.AddressInfo).port}`;
    return server;
  }

  /** A new script, and the records of the last one forgotten. */
  load(script: Script): void {
    this.#script = script;
    this.#routeCounts.clear();
    this.requests = [];
    this.connections = 0;
    this.resetOnConnect = 0;
    this.bodyBytesSent = 0;
    this.#loadedAt = Date.now();
  }

  /** Requests read per `METHOD /path`, and connections reset before anything was read. */
  counts(prefix = ""): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const request of this.requests) counts[`${prefix}${request.method} ${request.path}`] = (counts[`${prefix}${request.method} ${request.path}`] ?? 0) + 1;
    if (this.resetOnConnect > 0) counts[`${prefix}reset on connect`] = this.resetOnConnect;
    return counts;
  }

  /**
   * Connections a request arrived on that are still open. A connection the client opened and
   * sent nothing on is the platform's pool (undici opens one after an abort), not a request left.
   */
  get openSockets(): number {
    return [...this.#sockets.values()].filter((timers) => timers !== undefined).length;
  }

  /** Whether every connection a request arrived on is closed. Resolves false if that takes longer than `ms`. */
  async settled(ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.openSockets > 0) {
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  /**
   * Closes the connections nothing was sent on (so that the next case starts on fresh ones) until
   * none is open, `ms` at most: the pool may open one more just after an abort.
   */
  async dropIdle(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.#sockets.size > this.openSockets && Date.now() < until) {
      // One just opened may be a request on its way: only those idle a while go.
      for (const [socket, timers] of this.#sockets) if (timers === undefined && Date.now() - this.#acceptedAt.get(socket)! >= IDLE_MS) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Ends everything still open (after a case that failed to). */
  hangUp(): void {
    for (const socket of this.#sockets.keys()) socket.destroy();
  }

  close(): Promise<void> {
    this.hangUp();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** Runs `action` in `ms` unless the connection closes first. */
  #later(socket: net.Socket, ms: number, action: () => void): void {
    const timers = this.#sockets.get(socket);
    if (timers === undefined) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!socket.destroyed) action();
    }, ms);
    timers.add(timer);
  }

  #accept(socket: net.Socket): void {
    this.connections += 1;
    this.#sockets.set(socket, undefined);
    this.#acceptedAt.set(socket, Date.now());
    socket.on("close", () => {
      for (const timer of this.#sockets.get(socket) ?? []) clearTimeout(timer);
      this.#sockets.delete(socket);
    });
    // A client that hangs up or is reset mid-answer is part of the game.
    socket.on("error", () => undefined);
    if (this.#script.resetOnConnect?.(this.connections)) {
      this.resetOnConnect += 1;
      socket.resetAndDestroy();
      return;
    }
    let buffered = Buffer.alloc(0);
    let answered = false;
    socket.on("data", (chunk: Buffer) => {
      if (!this.#sockets.get(socket)) this.#sockets.set(socket, new Set());
      if (answered) return;
      buffered = Buffer.concat([buffered, chunk]);
      const request = parseRequest(buffered);
      if (request === undefined) return;
      answered = true;
      this.#answer(socket, { ...request, at: Date.now() - this.#loadedAt, outcome: "may-have-run" });
    });
  }

  #answer(socket: net.Socket, request: FaultRequest): void {
    const route = this.#script.routes.find((r) => (r.method === undefined || r.method === request.method) && (typeof r.path === "string" ? r.path === request.path : r.path.test(request.path)));
    const n = route === undefined ? 1 : (this.#routeCounts.get(route) ?? 0) + 1;
    if (route !== undefined) this.#routeCounts.set(route, n);
    const reply: Reply =
      route === undefined
        ? problem(404, "no such route in this script")
        : typeof route.reply === "function"
          ? route.reply(request, n)
          : Array.isArray(route.reply)
            ? route.reply[Math.min(n, route.reply.length) - 1]!
            : route.reply;
    const status = "status" in reply ? reply.status : undefined;
    request.outcome = status === 429 ? "refused" : status !== undefined && status >= 300 && status < 400 ? "redirected" : "may-have-run";
    this.requests.push(request);
    this.#send(socket, reply);
  }

  #send(socket: net.Socket, reply: Reply): void {
    switch (reply.kind) {
      case "respond": {
        const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(reply.body);
        socket.end(Buffer.concat([Buffer.from(head(reply.status, reply.headers, body.length)), body]));
        return;
      }
      case "raw":
        socket.end(reply.text);
        return;
      case "reset":
        socket.resetAndDestroy();
        return;
      case "silent":
        return;
      case "cut": {
        const body = Buffer.from(reply.body);
        socket.write(head(reply.status, reply.headers, body.length));
        socket.write(body.subarray(0, reply.sendBytes));
        this.#later(socket, 20, () => (reply.then === "reset" ? socket.resetAndDestroy() : socket.destroy()));
        return;
      }
      case "trickle": {
        const body = Buffer.from(reply.body);
        socket.write(head(reply.status, reply.headers, body.length));
        let offset = 0;
        const next = (): void => {
          const part = body.subarray(offset, offset + reply.chunkBytes);
          offset += part.length;
          this.bodyBytesSent += part.length;
          if (offset >= body.length) socket.end(part);
          else {
            socket.write(part);
            this.#later(socket, reply.everyMs, next);
          }
        };
        next();
        return;
      }
      case "stall": {
        const body = Buffer.from(reply.body);
        socket.write(head(reply.status, { "transfer-encoding": "chunked", ...reply.headers }, undefined));
        if (body.length > 0) socket.write(Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n")]));
        return;
      }
      case "endless": {
        socket.write(head(reply.status, { "transfer-encoding": "chunked", ...reply.headers }, undefined));
        const chunk = `${reply.chunkBytes.toString(16)}\r\n${"x".repeat(reply.chunkBytes)}\r\n`;
        const next = (): void => {
          socket.write(chunk);
          this.bodyBytesSent += reply.chunkBytes;
          this.#later(socket, reply.everyMs, next);
        };
        next();
        return;
      }
    }
  }
}

/** The status line and headers: `Connection: close` always, `Content-Length` unless set or chunked. */
function head(status: number, headers: HeaderList = {}, length: number | undefined): string {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Whatever"}`, "Connection: close"];
  if (length !== undefined && !names.has("content-length") && !names.has("transfer-encoding")) lines.push(`Content-Length: ${length}`);
  for (const [name, value] of Object.entries(headers)) for (const item of [value].flat()) lines.push(`${name}: ${item}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** A request once its head and `Content-Length` bytes of body have arrived (the client sends no chunked bodies here). */
function parseRequest(bytes: Buffer): Omit<FaultRequest, "at" | "outcome"> | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [requestLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = Number(headers["content-length"] ?? 0);
  if (bytes.length < end + 4 + length) return undefined;
  const [method = "", target = ""] = requestLine.split(" ");
  return { method, target, path: new URL(target, "http://x").pathname, headers, body: bytes.subarray(end + 4, end + 4 + length).toString("utf8") };
}

// Reply builders: a table of cases reads better with these than with object literals.

export const respond = (status: number, body?: string | Buffer, headers?: HeaderList): Reply => ({ kind: "respond", status, body, headers });
export const json = (status: number, value: unknown, headers: HeaderList = {}): Reply =>
  respond(status, JSON.stringify(value), { "Content-Type": "application/json", ...headers });
export const problem = (status: number, detail: string, headers: HeaderList = {}): Reply =>
  respond(status, JSON.stringify({ title: STATUS_CODES[status] ?? "Error", status, detail }), { "Content-Type": "application/problem+json", ...headers });
export const raw = (text: string | Buffer): Reply => ({ kind: "raw", text, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.from(text).toString("latin1"))?.[1] ?? 0) });
export const reset = (): Reply => ({ kind: "reset" });
export const silent = (): Reply => ({ kind: "silent" });
export const cut = (status: number, body: string, sendBytes: number, then: "close" | "reset" = "close", headers: HeaderList = { "Content-Type": "application/json" }): Reply => ({
  kind: "cut",
  status,
  body,
  sendBytes,
  then,
  headers,
});
export const trickle = (status: number, body: string, chunkBytes: number, everyMs: number, headers: HeaderList = { "Content-Type": "application/json" }): Reply => ({
  kind: "trickle",
  status,
  body,
  chunkBytes,
  everyMs,
  headers,
});
export const endless = (status: number, chunkBytes: number, everyMs: number, headers: HeaderList = { "Content-Type": "application/json" }): Reply => ({ kind: "endless", status, chunkBytes, everyMs, headers });
export const stall = (status: number, body: string, headers: HeaderList = { "Content-Type": "application/json" }): Reply => ({ kind: "stall", status, body, headers });
export const redirect = (status: number, location: string): Reply => respond(status, "", { Location: location });
