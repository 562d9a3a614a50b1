/**
 * A credential inside a request body (`s3Config.accessSecret`, marked `format: password` in the
 * contract) is kept out of every error and log line like the API key, when a server echoes it back.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient } from "../../generated/gpu-cloud-client/src/index.ts";
import { echoesOf, leaks, needlesOf, recordingLogger, surfacesOf } from "../support/secret-echoes.ts";

const SECRET = "s3-SECRET-value-9f8e7d6c5b4a";
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  // Answers every request 400, quoting the body it got in every spelling of the secret it finds.
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const echoes = Object.values(echoesOf(SECRET)).join(" | ");
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `bad request: ${body} ${echoes}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("a secret in the request body", () => {
  const run = (client: GpuCloudClient) =>
    client.run({
      path: { model_endpoint_id: "wan-2-6-i2v" },
      body: {
        input: { prompt: "p", image: "https://images.example.org/a.jpg" },
        s3Config: { accessId: "id", accessSecret: SECRET, bucketName: "b", endpointUrl: "https://s3.example.org" },
      },
    });

  it("is blanked from the error and the log lines when the server echoes it", async () => {
    const logger = recordingLogger();
    const client = new GpuCloudClient({ apiKey: "body-secrets-key", publicEndpointBaseUrl: baseUrl, baseUrl, logger, maxRetries: 0 });
    const error = await run(client).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    const needles = needlesOf(SECRET, Object.values(echoesOf(SECRET)));
    expect(leaks(surfacesOf(error), needles)).toEqual([]);
    expect(leaks(logger.lines, needles)).toEqual([]);
  });

  it("would be found by this test if it were not blanked (the check can fail)", async () => {
    // A value the contract does not mark, echoed the same way, is there to be found.
    const unmarked = "plain-prompt-value-1a2b3c4d5e";
    const client = new GpuCloudClient({ apiKey: "body-secrets-key", publicEndpointBaseUrl: baseUrl, baseUrl, maxRetries: 0 });
    const error = await client
      .run({ path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input: { prompt: unmarked, image: "https://images.example.org/a.jpg" } } })
      .catch((e) => e);
    expect(leaks(surfacesOf(error), [unmarked]).length).toBeGreaterThan(0);
  });
});

describe("a registry credential's password (createRegistry, marked format: password)", () => {
  const PASSWORD = SECRET;

  it("is blanked from the error and the log lines when the server echoes it", async () => {
    const logger = recordingLogger();
    const client = new GpuCloudClient({ apiKey: "body-secrets-key", publicEndpointBaseUrl: baseUrl, baseUrl, logger, maxRetries: 0 });
    const error = await client.createRegistry({ body: { name: "team-images", username: "ci-robot", password: PASSWORD } }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    const needles = needlesOf(PASSWORD, Object.values(echoesOf(PASSWORD)));
    expect(leaks(surfacesOf(error), needles)).toEqual([]);
    expect(leaks(logger.lines, needles)).toEqual([]);
    // The name, not a secret, is still there to read.
    expect(leaks(surfacesOf(error), ["team-images"]).length).toBeGreaterThan(0);
  });
});
