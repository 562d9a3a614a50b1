/**
 * Runs the package README's "Waiting for jobs" examples as a user would paste them (only the
 * package import pointed at the generated source, the service's host at the stateful fake, and the
 * output files' host at a loopback server), and checks what each one did on the fake.
 * The helpers' pauses run 100 times faster: the examples use their default intervals (seconds).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readmeExamplesSource } from "../publish/support.ts";
import { FakeService, type FakeOptions } from "../support/fake-service.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";

const readme = fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Waiting for jobs"), readme.indexOf("\n## ", readme.indexOf("## Waiting for jobs") + 1));
const OUTPUT = Buffer.from("forty-two bytes of a video file, or so...");

const realFetch = globalThis.fetch;
const realSetTimeout = globalThis.setTimeout;
/** Delays shorter than this are the helpers' pauses; longer ones, timeouts. */
const SCALED_BELOW_MS = 10_000;
const realCwd = process.cwd();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "readme-jobs-"));
let files: RecordingServer;
let fake: FakeService | undefined;
/** Each example: its source as the README has it, and the function that runs it. */
let examples: Array<[source: string, run: () => Promise<void>]>;

beforeAll(async () => {
  files = await startRecordingServer(() => ({ headers: { "content-type": "video/mp4" }, body: OUTPUT }));
  const moduleFile = path.join(repoRoot, "test/jobs/.tmp-readme-jobs.ts");
  const generated = JSON.stringify(path.join(repoRoot, "generated/gpu-cloud-client/src/index.ts"));
  const source = readmeExamplesSource(section, "GpuCloudClient");
  fs.writeFileSync(moduleFile, source.replaceAll('from "gpu-cloud-client"', `from ${generated}`));
  try {
    const loaded = (await import(moduleFile)) as Record<string, () => Promise<void>>;
    const bodies = [...source.matchAll(/^export async function (example\d+)\(\): Promise<void> \{\n([\s\S]*?)^\}$/gm)];
    examples = bodies.map(([, name, body]) => [body!, loaded[name!]!]);
  } finally {
    fs.rmSync(moduleFile, { force: true });
  }
  // Whatever the examples call on the service's host goes to the fake.
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.hostname !== "api.runpod.ai") return realFetch(request);
    return fake!.service.handler(request);
  }) as typeof fetch;
  // The helpers' pauses (polls every 2 s, a second between submissions) pass 100 times faster; timeouts (a request's
  // minute, a wait's half hour) are left as they are, so a slow machine never times out what an example waits for.
  globalThis.setTimeout = ((callback: () => void, ms?: number, ...rest: unknown[]) =>
    realSetTimeout(callback, (ms ?? 0) < SCALED_BELOW_MS ? Math.ceil((ms ?? 0) / 100) : ms, ...rest)) as typeof setTimeout;
  process.env.GPU_CLOUD_API_KEY = "readme-jobs-key";
  process.chdir(scratch);
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  globalThis.setTimeout = realSetTimeout;
  delete process.env.GPU_CLOUD_API_KEY;
  process.chdir(realCwd);
  await files?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Runs one example against a fresh fake; what it printed, one string per console.log. */
async function run(example: () => Promise<void>, options: FakeOptions = {}): Promise<string[]> {
  fake = await new FakeService({ fileBaseUrl: files.url, ...options }).start();
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    await example();
    return log.mock.calls.map((args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
  } finally {
    log.mockRestore();
    await fake.stop();
  }
}

const operations = () => fake!.log.map((entry) => `${entry.method} ${entry.path.replace(/\/v2\/[^/]+\//, "").replace(/\/[^/]+$/, "")}`);
/** The one example whose source has `text`: its source, and the function that runs it. */
const example = (text: string) => {
  const found = examples.filter(([source]) => source.includes(text));
  expect(found, `one example with ${text}`).toHaveLength(1);
  return found[0]!;
};
const find = (text: string) => example(text)[1];

describe("the package README's job examples", () => {
  it("are all here, each run below", () => {
    const calls = ["cancelOnAbort: true", "retryFailed: 2", "maxTotalCostUsd", "download(result", "streamJob(client"];
    for (const call of calls) find(call);
    // Besides those: the client's block and the import lines.
    expect(examples.filter(([source]) => /runAndWait|runMany|streamJob/.test(source))).toHaveLength(7);
  });

  it("estimateCost and onProgress: the estimate printed first, then each poll's status, within maxCostUsd", async () => {
    const printed = await run(find("estimateCost("));
    const estimate = Number(printed[0]);
    const cap = Number(/maxCostUsd: ([\d.]+)/.exec(example("estimateCost(")[0])![1]);
    expect(estimate).toBeGreaterThan(0);
    expect(estimate).toBeLessThanOrEqual(cap);
    // The submitted job (0 polls), then the fake: one poll queued, one running, then completed.
    expect(printed.slice(1)).toEqual(["IN_QUEUE 0", "IN_QUEUE 1", "IN_PROGRESS 2", "COMPLETED 3"]);
    expect(operations()).toEqual(["POST run", "GET status", "GET status", "GET status"]);
  });

  it("runAndWait: one run, polled until it completes", async () => {
    const plain = examples.filter(([source]) => / {2}const result = await runAndWait\(client, "[^"]+", \{[^}]*\}\);\n$/.test(source));
    expect(plain).toHaveLength(1);
    await run(plain[0]![1]);
    // The fake's job: one poll queued, one running, then completed.
    expect(operations()).toEqual(["POST run", "GET status", "GET status", "GET status"]);
  });

  it("cancelOnAbort: a job that ends before the signal is never cancelled", async () => {
    await run(find("cancelOnAbort: true"));
    expect(operations()).toEqual(["POST run", "GET status", "GET status", "GET status"]);
    expect(fake!.jobs.size).toBe(1);
  });

  it("retryFailed: a failed job runs again under its id, and attempts says 2", async () => {
    const printed = await run(find("retryFailed: 2"), { plan: () => ({ queuedPolls: 0, runningPolls: 1, outcome: "FAILED" }) });
    expect(printed).toEqual(["2"]);
    expect(operations().filter((o) => o === "POST run")).toHaveLength(1);
    expect(operations()).toContain("POST retry");
  });

  it("maxTotalCostUsd: the batch runs within its budget and reports its cost", async () => {
    const printed = await run(find("maxTotalCostUsd"));
    const [succeeded, failed, total] = printed[0]!.split(" ").map(Number) as [number, number, number];
    const budget = Number(/maxTotalCostUsd: ([\d.]+)/.exec(section)![1]);
    const inputs = example("maxTotalCostUsd")[0].match(/\bprompt:/g)!.length;
    // Every job submitted succeeded; the ones the budget could not take were never sent.
    expect(operations().filter((o) => o === "POST run")).toHaveLength(succeeded);
    expect(succeeded + failed).toBe(inputs);
    expect(total).toBeLessThanOrEqual(budget);
    // The jobs cost alike: the budget takes as many as fit in it, and the example shows one left out.
    expect(succeeded).toBe(Math.floor(budget / (total / succeeded)));
    expect(failed).toBeGreaterThan(0);
  });

  it("download: the output file lands where the example says, fetched without the key", async () => {
    const before = files.requests.length;
    const printed = await run(find("download(result"));
    const name = /download\(result, "([^"]+)"\)/.exec(section)![1]!;
    expect(printed).toEqual([String(OUTPUT.length)]);
    expect(fs.readFileSync(path.join(scratch, name))).toEqual(OUTPUT);
    const fetched = files.requests.slice(before);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.headers.authorization).toBeUndefined();
  });

  it("streamJob: prints each partial output until the job ends", async () => {
    const printed = await run(find("streamJob(client"), { plan: () => ({ queuedPolls: 1, runningPolls: 2, outcome: "COMPLETED" }) });
    expect(printed).toEqual(['{"chunk":1}', '{"chunk":2}']);
    expect(operations().at(-1)).toBe("GET stream");
  });
});
