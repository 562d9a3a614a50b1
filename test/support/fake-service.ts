/**
 * The project's tests' access to the package's stateful fake of the service
 * (`generated/gpu-cloud-client/src/testing/service-fake.ts`), the one fake every job and pod test
 * uses: `FakeService` answers in process (give `service.handler` to the client as its `fetch`);
 * `FakeServiceServer` serves the same handler on loopback HTTP, for what needs a real server (the
 * terminal command runs in another process, downloads follow real URLs).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createServiceFake, type ServiceFake, type ServiceFakeOptions } from "../../generated/gpu-cloud-client/src/testing/service-fake.ts";

export type FakeOptions = ServiceFakeOptions;

export class FakeService {
  readonly service: ServiceFake;
  /** Where a client reaches it (in process, any URL does: the handler reads only the path). */
  baseUrl = "https://api.fake.test";

  constructor(options: FakeOptions = {}) {
    this.service = createServiceFake(options);
  }

  async start(): Promise<this> {
    return this;
  }

  async stop(): Promise<void> {}

  get log() {
    return this.service.log;
  }
  get tooManyRequests(): number {
    return this.service.tooManyRequests;
  }
  get jobs() {
    return this.service.jobs.jobs;
  }
  get submissions() {
    return this.service.jobs.submissions;
  }
  get submittedBodies() {
    return this.service.jobs.submittedBodies;
  }
  get peakInFlight() {
    return this.service.peakInFlight;
  }
  duplicateSubmissions(): number {
    return this.service.jobs.duplicateSubmissions();
  }
}

export class FakeServiceServer extends FakeService {
  readonly #server = http.createServer((req, res) => void this.#serve(req, res));

  override async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  override async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const response = await this.service.handler(new Request(`${this.baseUrl}${req.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    res.flushHeaders();
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => undefined));
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) res.write(read.value);
      res.end();
    } catch {
      // The fake broke the stream: the client sees a dropped connection, with no end of the chunked body.
      res.destroy();
    }
  }
}
