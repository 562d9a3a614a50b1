/**
 * What the transport tests share: a loopback server that records what it received, a port nothing
 * listens on, a fetch double, and one call through the transport as the client core makes it
 * (`prepareCall(config, options).fetch(url, request)`, the key in `Authorization` and among the
 * secrets).
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";
import { prepareCall } from "../../templates/runtime/transport.ts";
import type { Answer, CallOptions, TransportConfig } from "../../templates/runtime/transport-types.ts";

export const API_KEY = "sk-test-9b8c7d6e5f4a3b2c1d0e";
/** No waiting between retries unless a test asks for it. */
export const NO_BACKOFF = { random: () => 0 } satisfies Partial<TransportConfig>;

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
}

const closers: Array<() => Promise<void>> = [];

/** Closes every server the test started: each test file runs it after each test. */
export async function closeServers(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}

/** A real HTTP server on 127.0.0.1; `respond` sees each request once its body has arrived. */
export async function startServer(respond: (response: ServerResponse, request: ReceivedRequest, count: number) => void): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    let body = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      const received = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body };
      requests.push(received);
      respond(response, received, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** A port nothing listens on: bound, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A custom `fetch` (the config's), which the transport gives a Request: it records them. */
export function injectedFetch(respond: (request: Request, call: number) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (request: Request) => {
    requests.push(request);
    return respond(request, requests.length);
  });
  return { fetch, requests };
}

/** Platform fetch through a custom one: what a fetch that adds nothing of its own does. */
export const passThrough = (request: Request): Promise<Response> => globalThis.fetch(request);

export function send(response: ServerResponse, status: number, body = "", headers: Record<string, string> = {}): void {
  response.writeHead(status, headers).end(body);
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** What a test sends: the prepared request less the credentials, which `call` adds. */
export interface TestRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  redirect?: RequestRedirect;
}

/**
 * One call through the transport as the client core makes it: the key sent in `Authorization`
 * (the transport adds no header) and listed among the secrets, the body given to the call too so
 * a retry can send it again.
 */
export function call(url: string, request: TestRequest = {}, config: TransportConfig = {}, options: CallOptions = {}): Promise<Answer> {
  const { method = "GET", headers = {}, body, redirect } = request;
  const prepared = prepareCall({ secrets: [API_KEY], ...config }, { ...options, body });
  return prepared.fetch(url, { method, headers: { ...headers, authorization: `Bearer ${API_KEY}` }, body, redirect });
}

/** The body the transport read, as text: a 2xx answer's chunks decoded, or a non-2xx answer's text. */
export function textOf(answer: Answer): string {
  return answer.ok ? Buffer.concat(answer.chunks).toString("utf8") : answer.text;
}
