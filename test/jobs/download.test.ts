/**
 * `download`: a finished job's output file fetched from a loopback file host (a real HTTP server
 * that streams, stalls and refuses as told), to a path, a stream and a Blob; and end to end, a job
 * of the stateful fake whose presigned output URL points at that host.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DownloadError, GpuCloudClient, download, runAndWait } from "../../generated/gpu-cloud-client/src/index.ts";
import { FakeServiceServer } from "../support/fake-service.ts";

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

const seen: Seen[] = [];
const FILE = Buffer.from("not really an mp4, but 40 bytes of it..!");
let host: http.Server;
let hostUrl: string;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "download-"));

beforeAll(async () => {
  host = http.createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    const { pathname } = new URL(req.url!, "http://x");
    if (pathname === "/gone.mp4") {
      res.writeHead(403, { "content-type": "application/xml" });
      res.end("<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>");
    } else if (pathname === "/endless.mp4") {
      // No length: chunks until the client stops reading.
      res.writeHead(200, { "content-type": "video/mp4" });
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 7)), 1);
      res.on("close", () => clearInterval(timer));
    } else if (pathname === "/stalls.mp4") {
      res.writeHead(200, { "content-type": "video/mp4" });
      res.write(FILE.subarray(0, 10));
    } else if (pathname === "/huge.mp4") {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": String(5 * 1024 ** 3) });
      res.write(FILE);
    } else {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": String(FILE.length) });
      res.end(FILE);
    }
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
  host.closeAllConnections();
  await new Promise((resolve) => host.close(resolve));
  fs.rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  seen.length = 0;
});

const signed = (name: string) => `${hostUrl}/${name}?X-Amz-Signature=s3cr3t-signature&X-Amz-Expires=604800`;
const filesIn = (dir: string) => fs.readdirSync(dir);

async function failure(promise: Promise<unknown>): Promise<DownloadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadError);
  const shown = [String((error as Error).message), JSON.stringify(error)].join("\n");
  // The presigned URL's query is a credential of the file: never shown.
  expect(shown).not.toContain("s3cr3t");
  return error as DownloadError;
}

describe("download", () => {
  it("writes the file to a path, sending nothing of the client's", async () => {
    const dir = fs.mkdtempSync(path.join(scratch, "ok-"));
    const target = path.join(dir, "out.mp4");
    const report = await download({ id: "job-1", url: signed("out.mp4"), expiresAt: new Date(Date.now() + 60_000) }, target);
    expect(report).toEqual({ bytes: FILE.length, contentType: "video/mp4" });
    expect(fs.readFileSync(target)).toEqual(FILE);
    expect(filesIn(dir)).toEqual(["out.mp4"]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe("/out.mp4?X-Amz-Signature=s3cr3t-signature&X-Amz-Expires=604800");
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers.cookie).toBeUndefined();
  });

  it("gives a Blob without a destination, and fills a WritableStream", async () => {
    const blob = await download({ url: signed("a.mp4") });
    expect(blob.type).toBe("video/mp4");
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(FILE);

    const chunks: Uint8Array[] = [];
    const stream = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) });
    expect(await download({ url: signed("b.mp4") }, stream, { timeoutMs: 5_000 })).toEqual({ bytes: FILE.length, contentType: "video/mp4" });
    expect(Buffer.concat(chunks)).toEqual(FILE);
  });

  it("stops past maxBytes, announced or streamed, and leaves nothing at the path", async () => {
    const dir = fs.mkdtempSync(path.join(scratch, "large-"));
    const announced = await failure(download({ url: signed("huge.mp4") }, path.join(dir, "huge.mp4")));
    expect(announced.reason).toBe("too_large");
    expect(announced.message).toBe(`${hostUrl}/huge.mp4: the file is larger than maxBytes (${2 * 1024 ** 3} bytes)`);
    const streamed = await failure(download({ url: signed("endless.mp4") }, path.join(dir, "endless.mp4"), { maxBytes: 1024 ** 2 }));
    expect(streamed.reason).toBe("too_large");
    expect(filesIn(dir)).toEqual([]);
  });

  it("stops at timeoutMs while the body stalls, and when the signal aborts, leaving nothing", async () => {
    const dir = fs.mkdtempSync(path.join(scratch, "slow-"));
    const timedOut = await failure(download({ url: signed("stalls.mp4") }, path.join(dir, "x.mp4"), { timeoutMs: 200 }));
    expect(timedOut).toMatchObject({ reason: "timeout", kind: "download_failed", message: `${hostUrl}/stalls.mp4: the download took longer than 200 ms` });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await failure(download({ url: signed("stalls.mp4") }, path.join(dir, "y.mp4"), { signal: controller.signal }));
    expect(aborted.reason).toBe("aborted");
    expect(filesIn(dir)).toEqual([]);
  });

  it("bounds the writing too, takes timeoutMs 0 as no limit, and blanks the URL out of a fetch's own message", async () => {
    // A write that never settles: only the timeout can end the download.
    const stalled = new WritableStream<Uint8Array>({ write: () => new Promise(() => {}) });
    const stuck = await failure(download({ url: signed("a.mp4") }, stalled, { timeoutMs: 300 }));
    expect(stuck.reason).toBe("timeout");

    const blob = await download({ url: signed("a.mp4") }, { timeoutMs: 0 });
    expect(blob.size).toBe(FILE.length);

    const quoting = async (input: RequestInfo | URL) => {
      throw new TypeError(`error sending request for url (${String(input)}): connection reset`);
    };
    const failed = await failure(download({ url: signed("a.mp4") }, { fetch: quoting as typeof fetch }));
    expect(failed.reason).toBe("network");
    expect(failed.message).toBe(`${hostUrl}/a.mp4: the download failed: error sending request for url (${hostUrl}/a.mp4): connection reset`);
  });

  it("says when the URL had passed its expiry, with the host's status", async () => {
    const error = await failure(download({ id: "job-9", url: signed("gone.mp4"), expiresAt: new Date(Date.now() - 1000) }));
    expect(error).toMatchObject({ reason: "status", status: 403, url: `${hostUrl}/gone.mp4` });
    expect(error.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gone\.mp4: the file host answered 403 \(the URL was only sure to work until 20\d\d-/);
  });

  it("refuses what it cannot download before any request, and names a path it cannot write", async () => {
    expect((await failure(download({ id: "job-2", url: undefined }))).message).toBe("job job-2's result has no output URL to download");
    expect((await failure(download({ url: "ftp://files.example/x.mp4" }))).reason).toBe("bad_url");
    await expect(download({ url: signed("a.mp4") }, "")).rejects.toThrow("destination: expected a file path, got an empty string");
    await expect(download({ url: signed("a.mp4") }, { maxBytes: 0 })).rejects.toThrow("maxBytes: expected a positive number of bytes, got 0");
    await expect(download({ url: signed("a.mp4") }, { timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
    const missingDir = await failure(download({ url: signed("a.mp4") }, path.join(scratch, "no-such-dir", "a.mp4")));
    expect(missingDir.reason).toBe("write");
    // Only the last one reached the file host.
    expect(seen.map((s) => s.url.split("?")[0])).toEqual(["/a.mp4"]);
  });

  it("fetches a finished job's output end to end, without the API key", async () => {
    const fake = await new FakeServiceServer({ fileBaseUrl: hostUrl }).start();
    try {
      const client = new GpuCloudClient({ apiKey: "download-key", publicEndpointBaseUrl: fake.baseUrl });
      const result = await runAndWait(client, "wan-2-6-i2v", { prompt: "a fox", image: "https://images.example.org/fox.jpg" }, { intervalMs: 1 });
      expect(result.url).toContain("X-Amz-Signature=");
      const target = path.join(scratch, `${result.id}.mp4`);
      expect(await download(result, target)).toMatchObject({ bytes: FILE.length });
      expect(fs.readFileSync(target)).toEqual(FILE);
      expect(JSON.stringify(seen.map((s) => s.headers))).not.toContain("download-key");
    } finally {
      await fake.stop();
    }
  });
});
