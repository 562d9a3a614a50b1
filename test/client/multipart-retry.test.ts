/**
 * A multipart body sent again on a retry is encoded anew, with a new boundary: the Content-Type
 * sent with it must name that boundary, not the first attempt's.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec } from "../../templates/runtime/client-core.ts";

const received: Array<{ contentType: string; body: string }> = [];
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("latin1").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ contentType: String(req.headers["content-type"]), body });
      res.writeHead(received.length === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a retried multipart body", () => {
  it.each([
    ["the platform fetch", undefined],
    ["a custom fetch", (request: Request) => globalThis.fetch(request)],
  ])("carries a Content-Type naming its own boundary, with %s", async (_, fetch) => {
    received.length = 0;
    const spec: OperationSpec = { operationId: "upload", method: "PUT", path: "/upload", server: "api", requestMediaType: "multipart/form-data", responseKind: "json" };
    class Client extends ClientCore {
      upload() {
        return this.request<unknown>(spec, { body: { name: "cover", note: "x" } });
      }
    }
    await new Client({ retryBaseDelayMs: 1, ...(fetch ? { fetch } : {}) }, { servers: { api: url } }).upload();
    expect(received).toHaveLength(2);
    for (const { contentType, body } of received) {
      const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
      expect(boundary).toBeDefined();
      expect(body).toContain(`--${boundary}`);
    }
  });
});
