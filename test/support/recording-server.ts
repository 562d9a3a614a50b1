/**
 * A loopback node:http server that records every request as it arrived (method, URL, headers, the
 * body's bytes) and answers each with what `reply` says: what a real server sees of the client.
 * `reply` returning `"silent"` leaves the request unanswered (a server that never answers).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingServer(reply: (request: RecordedRequest) => Reply | "silent" = () => ({ status: 204 })): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(request);
      const answer = reply(request);
      if (answer === "silent") return;
      const { status = 200, headers = {}, body } = answer;
      // No connection kept alive: one the server closes while a test pauses would fail the next request.
      res.writeHead(status, { ...headers, connection: "close" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Requests left unanswered hold their connections open.
        server.closeAllConnections();
      }),
  };
}
