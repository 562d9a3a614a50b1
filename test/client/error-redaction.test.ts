/**
 * No credential in any error the library makes, whoever builds it: the job helpers' errors (a
 * job's `error` text, a field of the last job seen), a response validation's problem paths (a
 * body's field names), and any SdkError, in every spelling a server may echo (raw, Bearer,
 * percent-, JSON- and HTML-escaped, base64 at any alignment, basic credentials), out of the
 * message, stack, JSON, util.inspect output and cause chain.
 */
import util from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GpuCloudClient,
  GpuCloudError,
  JobFailedError,
  JobWaitError,
  ResponseValidationError,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import type { AuthSpec } from "../../templates/runtime/auth.ts";
import { ClientCore } from "../../templates/runtime/client-core.ts";
import { SdkError } from "../../templates/runtime/error-base.ts";
import { JobFailedError as TemplateJobFailedError } from "../../templates/runtime/model-endpoints/wait.ts";
import { startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from "../support/recording-server.ts";
import { echoesOf, leaks, needlesOf, surfacesOf } from "../support/secret-echoes.ts";
import { simulatedTime } from "../support/simulated-time.ts";

// Characters that JSON, HTML, URLs and JSON pointers each escape: every spelling differs from the key.
const KEY = `sk-live_Q7<&>"'/+=~Zx0123456789abcdef`;
const ECHOES = echoesOf(KEY);
const MODEL = "wan-2-6-i2v";

let reply: (request: RecordedRequest) => Reply;
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((request) => reply(request));
});
afterAll(() => server.close());

const json = (body: unknown): Reply => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const client = (options: ConstructorParameters<typeof GpuCloudClient>[0] = {}) =>
  new GpuCloudClient({ apiKey: KEY, baseUrl: server.url, publicEndpointBaseUrl: server.url, maxRetries: 0, ...options });

/** Every spelling whose echo shows in `error`, with where. */
function echoed(error: unknown, echoes: Record<string, string> = ECHOES, key = KEY): string[] {
  return leaks(surfacesOf(error), needlesOf(key, Object.values(echoes)));
}

describe("errors made away from the transport keep the key out", () => {
  it("a JobFailedError whose job's error echoes the key, in every spelling", async () => {
    for (const [spelling, echo] of Object.entries(ECHOES)) {
      reply = () => json({ id: "j1", status: "FAILED", error: `rejected ${echo} (see docs)` });
      const error = await waitForJob(client(), MODEL, "j1", { intervalMs: 1 }).catch((e: unknown) => e);
      expect(error, spelling).toBeInstanceOf(JobFailedError);
      expect(echoed(error), spelling).toEqual([]);
      // What the message still says: only the key is gone.
      expect((error as JobFailedError).message, spelling).toMatch(/^job j1 on wan-2-6-i2v ended FAILED: rejected .*\[REDACTED\].* \(see docs\)$/);
    }
  });

  it("a JobWaitError whose last job has the key in a field's value and in a field's name", async () => {
    reply = () => json({ id: "j2", status: "IN_PROGRESS", debug: `you sent ${ECHOES["bearer"]}`, encoded: ECHOES["base64 sentence"], [KEY]: ECHOES["html-escaped"] });
    // On a simulated clock, so that the wait always sees the job before it times out, however slow the machine.
    const time = simulatedTime();
    const error = await waitForJob(client(), MODEL, "j2", { intervalMs: 60_000, timeoutMs: 60_000, now: time.now, sleep: time.sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(echoed(error)).toEqual([]);
    expect(JSON.parse(JSON.stringify(error)).lastJob).toMatchObject({ id: "j2", status: "IN_PROGRESS", debug: "you sent Bearer [REDACTED]", "[REDACTED]": expect.stringContaining("[REDACTED]") });
  });

  it("a ResponseValidationError whose problem paths come from field names holding the key", async () => {
    reply = () => json({ pods: [{ env: { [KEY]: 1, [`X_${ECHOES["url-encoded"]}`]: 2 } }] });
    const error = await client({ validateResponses: true }).listPods().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const problems = (error as ResponseValidationError).problems;
    expect(problems.map((p) => p.path)).toContain("/pods/0/env/[REDACTED]");
    expect(problems.map((p) => p.path)).toContain("/pods/0/env/X_Bearer%20[REDACTED]");
    expect(echoed(error)).toEqual([]);
    expect(echoed(problems)).toEqual([]);
  });

  it("any error of the library: message, stack, JSON, inspect and cause, with the client alive", () => {
    const alive = client();
    const error = new JobFailedError(MODEL, { id: "j3", status: "FAILED", error: `upstream said ${ECHOES["base64 bearer"]}` });
    Object.defineProperty(error, "cause", { value: new Error(`socket echo: ${ECHOES["json-escaped"]}`), enumerable: false });
    expect(error).toBeInstanceOf(GpuCloudError);
    expect(echoed(error).filter((found) => !found.includes("socket echo"))).toEqual([]);
    // The inspection shows the cause, blanked; the cause itself is not the library's to change.
    expect(util.inspect(error, { depth: 5, showHidden: true })).toContain("socket echo: Bearer [REDACTED]");
    expect(String(alive)).toBe("[object Object]");
  });

  it("a key's base64 is blanked at every alignment, and a text that only looks like it stays", () => {
    client();
    for (const prefix of ["", "a", "ab", "abc", "Authorization: Bearer "]) {
      const encoded = Buffer.from(`${prefix}${KEY}!`).toString("base64");
      const error = new JobFailedError(MODEL, { id: "j4", status: "FAILED", error: encoded });
      expect(error.message, prefix).toContain("[REDACTED]");
      expect(echoed(error, { encoded }), prefix).toEqual([]);
    }
    const unrelated = new JobFailedError(MODEL, { id: "j5", status: "FAILED", error: Buffer.from("nothing secret in here at all").toString("base64") });
    expect(unrelated.message).not.toContain("[REDACTED]");
  });
});

describe("basic credentials, through the runtime the generated package copies", () => {
  const AUTH = {
    schemes: { basicAuth: { kind: "basic", username: "username", password: "password" } },
    credentials: { username: { env: "REDACTION_TEST_USERNAME", label: "username" }, password: { env: "REDACTION_TEST_PASSWORD", label: "password" } },
    security: [["basicAuth"]],
    required: true,
  } as const satisfies AuthSpec;
  const basic = { username: "svc-account", password: "pw-S3cret&<long>-value" };

  it("blanks the password, the pair and its base64 at any alignment out of any error", () => {
    const alive = new ClientCore({ servers: { api: "http://127.0.0.1:9" }, credentials: basic }, { servers: { api: "http://127.0.0.1:9" }, auth: AUTH });
    const echoes = echoesOf(basic.password, basic);
    for (const [spelling, echo] of Object.entries(echoes)) {
      const error = new TemplateJobFailedError(MODEL, { id: "b1", status: "FAILED", error: `rejected ${echo}` });
      expect(error, spelling).toBeInstanceOf(SdkError);
      expect(echoed(error, { [spelling]: echo }, basic.password), spelling).toEqual([]);
    }
    expect(alive).toBeInstanceOf(ClientCore);
  });
});
