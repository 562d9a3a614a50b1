/**
 * Bodies of media types the client does not encode are bytes, sent unchanged with their media type,
 * and successful answers of such media types come back as Blobs. Through the client generated from
 * Blockfrost's document (a CBOR transaction in, an IPFS object out) and through ClientCore for every
 * kind of bytes, against a loopback server that records what arrived.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec } from "../../templates/runtime/client-core.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

const BYTES = Uint8Array.from([0x83, 0xa4, 0x00, 0x81, 0x82, 0x58, 0x20, 0xff, 0x00, 0x0d, 0x0a]);

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((request) =>
    request.url.includes("/ipfs/gateway/") || request.url === "/download"
      ? { status: 200, headers: { "content-type": "application/octet-stream" }, body: BYTES }
      : { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify("8911f640d452c3be") },
  );
});
afterAll(() => server.close());

describe("the client generated from Blockfrost's document", () => {
  let blockfrost: GeneratedClient;
  let client: any;
  beforeAll(async () => {
    blockfrost = await generateClient(path.join(repoRoot, "node_modules/@blockfrost/openapi/openapi.yaml"), "binary-blockfrost");
    const servers = Object.fromEntries(blockfrost.api.servers.map((s) => [s.key, server.url]));
    client = new blockfrost.Client({ apiKey: "project-key", maxRetries: 0, ...servers });
  }, 120_000);

  it("sends a CBOR transaction as the bytes given, with its media type", async () => {
    server.requests.length = 0;
    const { data } = await client.postTxSubmit({ body: BYTES });
    expect(data).toBe("8911f640d452c3be");
    const [received] = server.requests;
    expect(received).toMatchObject({ method: "POST", url: "/tx/submit" });
    expect(received!.headers["content-type"]).toBe("application/cbor");
    expect(received!.headers["project_id"]).toBe("project-key");
    expect([...received!.body]).toEqual([...BYTES]);
  });

  it("returns an application/octet-stream answer as a Blob of the bytes sent", async () => {
    const { data } = await client.getIpfsGatewayIPFSPath({ path: { IPFS_path: "QmUCXMTcvuJpwHF3gABRr69ceQR2uEG2Fsik9CyWh8MUoQ" } });
    expect(data).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (data as Blob).arrayBuffer())]).toEqual([...BYTES]);
  });

  it("types the body as bytes and the octet-stream answer as a Blob, under strict", () => {
    const usage = path.join(blockfrost.outDir, "usage-check.ts");
    fs.writeFileSync(
      usage,
      [
        `import type { ${blockfrost.Client.name} as Client } from "./src/index.ts";`,
        "export async function use(client: Client, stream: ReadableStream<Uint8Array>): Promise<Blob> {",
        "  for (const body of [new Uint8Array([1]), new ArrayBuffer(1), new Blob([]), stream, '83a4']) await client.postTxSubmit({ body });",
        "  // @ts-expect-error an object is not bytes",
        "  await client.postTxSubmit({ body: { cbor: '83a4' } });",
        "  const { data } = await client.getIpfsGatewayIPFSPath({ path: { IPFS_path: 'Qm' } });",
        "  return data;",
        "}",
      ].join("\n"),
    );
    expect(typeCheck([usage])).toEqual([]);
  }, TYPE_CHECK_BUDGET_MS);

  it("refuses a body that is not bytes before sending anything", async () => {
    server.requests.length = 0;
    // The generated package's own InvalidRequestError.
    await expect(client.postTxSubmit({ body: { cbor: "83a4" } })).rejects.toMatchObject({ name: "InvalidRequestError", kind: "invalid_request", field: "body" });
    expect(server.requests).toEqual([]);
  });
});

describe("a binary body through ClientCore", () => {
  const upload = (mediaType: string): OperationSpec => ({ operationId: "upload", method: "PUT", path: "/upload", server: "api", requestMediaType: mediaType, responseKind: "none" });
  const send = async (spec: OperationSpec, body: unknown, options: object = {}) => {
    class Client extends ClientCore {
      upload() {
        return this.request<unknown>(spec, { body });
      }
    }
    server.requests.length = 0;
    await new Client({ maxRetries: 0, ...options }, { servers: { api: server.url } }).upload();
    return server.requests;
  };

  it.each([
    ["a Uint8Array", () => BYTES],
    ["an ArrayBuffer", () => BYTES.slice().buffer],
    ["a DataView over part of a buffer", () => new DataView(Uint8Array.from([9, ...BYTES, 9]).buffer, 1, BYTES.length)],
    ["a Blob", () => new Blob([BYTES], { type: "text/plain" })],
    ["a ReadableStream", () => new Blob([BYTES]).stream()],
  ])("sends %s unchanged, with the operation's media type", async (_, body) => {
    const [received] = await send(upload("image/jpeg"), body());
    expect(received!.headers["content-type"]).toBe("image/jpeg");
    expect([...received!.body]).toEqual([...BYTES]);
  });

  it("sends a stream again on a retry, the same bytes", async () => {
    let attempts = 0;
    const fetch = async (request: Request) => (++attempts === 1 ? new Response(null, { status: 503 }) : globalThis.fetch(request));
    const received = await send({ ...upload("application/x-tar"), method: "PUT" }, new Blob([BYTES]).stream(), { fetch, retryBaseDelayMs: 1, maxRetries: 1 });
    expect(attempts).toBe(2);
    expect([...received[0]!.body]).toEqual([...BYTES]);
  });

  it("sends a string as its UTF-8 bytes", async () => {
    const [received] = await send(upload("application/xml"), "<a>é</a>");
    expect(received!.headers["content-type"]).toBe("application/xml");
    expect(received!.body.toString("utf8")).toBe("<a>é</a>");
  });

  it("sends a body for a media range with a Blob's own type, else as application/octet-stream", async () => {
    expect((await send(upload("image/*"), new Blob([BYTES], { type: "image/png" })))[0]!.headers["content-type"]).toBe("image/png");
    expect((await send(upload("*/*"), BYTES))[0]!.headers["content-type"]).toBe("application/octet-stream");
  });

  it("returns a successful answer the operation reads as bytes as a Blob", async () => {
    class Client extends ClientCore {
      download() {
        return this.request<Blob>({ operationId: "download", method: "GET", path: "/download", server: "api", responseKind: "blob" });
      }
    }
    const { data } = await new Client({}, { servers: { api: server.url } }).download();
    expect(data).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await data.arrayBuffer())]).toEqual([...BYTES]);
  });
});
