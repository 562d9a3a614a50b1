/**
 * The brand comes from the contract through generated code: the runtime's base error is exported
 * under the package's name (`GpuCloudError`), and log messages start with the package's name.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pkg from "../../generated/gpu-cloud-client/src/index.ts";
import { GpuCloudClient, GpuCloudError, ConnectionError, InvalidRequestError, ServerError } from "../../generated/gpu-cloud-client/src/index.ts";
import { SdkError } from "../../generated/gpu-cloud-client/src/runtime/error-base.ts";

let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(503, { "content-type": "application/problem+json" });
    res.end(JSON.stringify({ title: "Unavailable", status: 503 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the package's own name for the runtime's base error", () => {
  it("is the runtime's base class itself", () => {
    expect(GpuCloudError).toBe(SdkError);
  });

  it("is the base of every error class the package exports", () => {
    const errorClasses = Object.entries(pkg).filter(([, value]) => typeof value === "function" && value.prototype instanceof Error);
    expect(errorClasses.length).toBeGreaterThan(15);
    for (const [name, errorClass] of errorClasses) {
      if (name !== "GpuCloudError") expect((errorClass as { prototype: object }).prototype, name).toBeInstanceOf(GpuCloudError);
    }
  });

  it("holds for what the client throws: refused before sending, an error status, no connection", async () => {
    const noKey = (() => {
      try {
        return new GpuCloudClient({ apiKey: "" });
      } catch (error) {
        return error;
      }
    })();
    expect(noKey).toBeInstanceOf(InvalidRequestError);
    expect(noKey).toBeInstanceOf(GpuCloudError);

    const status = await new GpuCloudClient({ apiKey: "k", baseUrl, maxRetries: 0 }).listPods().catch((error: unknown) => error);
    expect(status).toBeInstanceOf(ServerError);
    expect(status).toBeInstanceOf(GpuCloudError);

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await new GpuCloudClient({ apiKey: "k", baseUrl: closedUrl, maxRetries: 0 }).listPods().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused).toBeInstanceOf(GpuCloudError);
  });
});

describe("log messages", () => {
  it("start with the package's name", async () => {
    const messages: string[] = [];
    const logger = { debug: (message: string) => messages.push(message), warn: (message: string) => messages.push(message) };
    await new GpuCloudClient({ apiKey: "k", baseUrl, maxRetries: 1, retryBaseDelayMs: 1, logger }).listPods().catch(() => undefined);
    expect(messages).toEqual(["gpu-cloud-client request attempt", "gpu-cloud-client request attempt"]);
  });
});
