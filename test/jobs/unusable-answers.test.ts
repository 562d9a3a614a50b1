/**
 * Success answers without the shape the job helpers need, from a real loopback server: no body, a
 * `null`, an array, a job without its id, a COMPLETED job without its output. Each is a typed
 * UnexpectedResponseError keeping the raw body (redacted, bounded), with validation on or off; a
 * submission's says the job may exist, and it is not sent again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GpuCloudClient, InvalidRequestError, UnexpectedResponseError, runAndWait, runMany, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
import { startRecordingServer, type RecordingServer, type Reply } from "../support/recording-server.ts";

const KEY = "sk-unusable-answers-7f3a9c";
const MODEL = "black-forest-labs-flux-1-dev";
const json = (body: string, status = 200): Reply => ({ status, headers: { "content-type": "application/json" }, body });

/** The answers that carry no job: [what, reply]. */
const NOT_A_JOB: Array<[string, Reply]> = [
  ["200 null", json("null")],
  ["an empty 200", json("")],
  ["a 204", { status: 204 }],
  ["an array", json('[{"id":"job-1","status":"IN_QUEUE"}]')],
  ["a string", json('"job-1"')],
];

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: (method: string) => Reply, validateResponses: boolean): Promise<GpuCloudClient> {
  server = await startRecordingServer((request) => reply(request.method));
  return new GpuCloudClient({ apiKey: KEY, baseUrl: server.url, publicEndpointBaseUrl: server.url, validateResponses, maxRetries: 0 });
}

describe.each([false, true])("with validateResponses %s", (validateResponses) => {
  it.each(NOT_A_JOB)("a status poll answered with %s is an UnexpectedResponseError, not a TypeError", async (_, reply) => {
    const client = await serve(() => reply, validateResponses);
    const error = await waitForJob(client, MODEL, "job-1", { timeoutMs: 5_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ kind: "invalid_response", method: "GET", status: reply.status ?? 200, rawBody: reply.body ?? "" });
    expect(error.message).toContain("where a job was expected");
    expect(server!.requests).toHaveLength(1);
  });

  it.each([...NOT_A_JOB, ["a job without its id", json('{"status":"IN_QUEUE"}')] as [string, Reply]])(
    "a submission answered with %s says the job may exist, and is sent once",
    async (_, reply) => {
      const client = await serve(() => reply, validateResponses);
      const error = await runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 5_000 }).catch((e) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error).not.toBeInstanceOf(InvalidRequestError);
      expect(error).toMatchObject({ method: "POST", operationId: "run", rawBody: reply.body ?? "" });
      expect(error.message).toContain("may have been created");
      expect(error.message).not.toContain("nothing was sent");
      expect(server!.requests.map((r) => r.method)).toEqual(["POST"]);
    },
  );

  it("a COMPLETED job without its output is an UnexpectedResponseError, not a result with output undefined", async () => {
    const completed = '{"id":"job-1","status":"COMPLETED"}';
    const client = await serve(() => json(completed), validateResponses);
    const waited = await waitForJob(client, MODEL, "job-1", { timeoutMs: 5_000 }).catch((e) => e);
    expect(waited).toBeInstanceOf(UnexpectedResponseError);
    expect(waited.message).toContain("COMPLETED without its output");
    const ran = await runAndWait(client, MODEL, { prompt: "p" }, { sync: true, timeoutMs: 60_000 }).catch((e) => e);
    expect(ran).toBeInstanceOf(UnexpectedResponseError);
    expect(ran).toMatchObject({ operationId: "runSync", rawBody: completed });
  });
});

it("keeps the raw body redacted and cut at 64 KiB", async () => {
  const echo = JSON.stringify({ status: "IN_QUEUE", seen: `Bearer ${KEY}`, padding: "x".repeat(100_000) });
  const client = await serve(() => json(echo), false);
  const error = await runAndWait(client, MODEL, { prompt: "p" }).catch((e) => e);
  expect(error).toBeInstanceOf(UnexpectedResponseError);
  expect(error.rawBody.length).toBeLessThanOrEqual(64 * 1024);
  expect(error.rawBody).toContain('"status":"IN_QUEUE"');
  for (const shown of [error.rawBody, error.message, JSON.stringify(error), error.stack]) expect(shown).not.toContain(KEY);
});

it("fails one job of a batch, not the batch, when its answer has no id", async () => {
  let posts = 0;
  const client = await serve((method) => {
    if (method === "POST") return ++posts === 2 ? json('{"status":"IN_QUEUE"}') : json(`{"id":"job-${posts}","status":"IN_QUEUE"}`);
    return json('{"id":"job-x","status":"COMPLETED","output":{"image_url":"https://files.example/x.png","cost":0.01}}');
  }, false);
  const batch = await runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }, { prompt: "c" }], { concurrency: 1, intervalMs: 10 });
  expect(batch.items.map((item) => item.ok)).toEqual([true, false, true]);
  const failed = batch.items[1]!;
  expect(failed.ok ? undefined : failed.error).toBeInstanceOf(UnexpectedResponseError);
  expect(posts).toBe(3);
});
