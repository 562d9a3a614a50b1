/**
 * `pods logs`: in-process through the command registry, the log call bound as the generated
 * `bin.ts` binds it, against the stateful fake's log streams. Nothing races a real clock: the line
 * times come from a simulated clock, the quiet wait that ends a stream without `--follow` is a gate
 * the test opens once the lines it expects are out, a reconnection waits 0 ms, and `--follow` ends
 * by the signal once the lines are out.
 */
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, POD_COST, POD_READINESS } from "../../generated/gpu-cloud-client/src/index.ts";
import * as operations from "../../generated/gpu-cloud-client/src/operations.ts";
import { EXIT, runCommands } from "../../generated/gpu-cloud-client/src/runtime/cli/commands.ts";
import { podCommands } from "../../generated/gpu-cloud-client/src/runtime/pod-budget/cli.ts";
import { POD_LOGS_QUIET_MS } from "../../generated/gpu-cloud-client/src/runtime/pod-budget/logs.ts";
import { POD_LOGS_QUIET_SECONDS } from "../../generator/extensions/pod-budget/readme.ts";
import { contractValidator } from "../support/contract.ts";
import { FakeServiceServer } from "../support/fake-service.ts";
import { simulatedTime } from "../support/simulated-time.ts";

const KEY = "sk-pods-logs-secret-91c2";
const time = simulatedTime();
const schema = contractValidator();
let fake: FakeServiceServer;

beforeAll(async () => {
  fake = await new FakeServiceServer({ now: time.now }).start();
});
afterAll(() => fake.stop());

/** A stream that can be awaited until its text holds what a test waits for. */
function capture() {
  const waiters: Array<{ holds: (text: string) => boolean; resolve: () => void }> = [];
  const stream = {
    text: "",
    write(chunk: string) {
      stream.text += chunk;
      for (const waiter of waiters.filter((w) => w.holds(stream.text))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      return true;
    },
    until(holds: (text: string) => boolean): Promise<void> {
      return holds(stream.text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ holds, resolve }));
    },
  };
  return stream;
}

/** The quiet wait as a gate: no wait ends before `open()`, every one (pending or later) ends after it. */
function quietGate() {
  let opened = false;
  const pending: Array<() => void> = [];
  const asked: number[] = [];
  return {
    asked,
    open() {
      opened = true;
      for (const resolve of pending.splice(0)) resolve();
    },
    sleep(ms: number, signal?: AbortSignal): Promise<void> {
      asked.push(ms);
      if (opened) return Promise.resolve();
      return new Promise((resolve, reject) => {
        pending.push(resolve);
        signal?.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
      });
    },
  };
}

const outputs: string[] = [];

function start(args: string[], options: { signal?: AbortSignal; sleep?: (ms: number, signal?: AbortSignal) => Promise<void>; withLogs?: boolean } = {}) {
  const stdout = capture();
  const stderr = capture();
  const environment = { name: "gpu-cloud-client", credentials: { apiKey: { env: "GPU_CLOUD_API_KEY", label: "API key" } }, stdout, stderr, signal: options.signal };
  const createClient = () => new GpuCloudClient({ apiKey: KEY, baseUrl: fake.baseUrl, publicEndpointBaseUrl: fake.baseUrl });
  const done = runCommands(args, environment, [
    podCommands({
      ...environment,
      createClient,
      cost: POD_COST,
      readiness: POD_READINESS,
      now: time.now,
      sleep: options.sleep ?? time.sleep,
      reconnectDelayMs: 0,
      ...(options.withLogs === false ? {} : { logFilters: ["tail", "since", "source"] as const }),
      // As the generated bin.ts binds them.
      calls: {
        getPod: (client, id, requestOptions) => operations.getPod(client, { path: { id } }, requestOptions),
        ...(options.withLogs === false ? {} : { podLogs: (client: GpuCloudClient, id: string, query: object, streamOptions: object) => operations.getPodLogs(client, { path: { id }, query }, streamOptions) }),
      },
    }),
  ]).then((code) => {
    outputs.push(stdout.text, stderr.text);
    return code;
  });
  return { done, stdout, stderr };
}

/** A pod (its log starts with the fake's `system` line) with container lines a second apart on the simulated clock. */
async function podWithLines(lines: readonly string[]): Promise<string> {
  const created = await new GpuCloudClient({ apiKey: KEY, baseUrl: fake.baseUrl }).createPod({ body: { name: "logs-pod", image: "example/app:2", gpu: { id: "NVIDIA A40" } } as never });
  const id = (created.data as { id: string }).id;
  for (const line of lines) {
    time.clock.now += 1_000;
    fake.service.appendLog(id, line);
  }
  return id;
}

const lineCount = (n: number) => (text: string) => text.split("\n").length > n;
const printed = (text: string) => text.trimEnd().split("\n").map((line) => line.replace(/^\S+ \S+ /, ""));

describe("pods logs", () => {
  it("is in the help with its flags when the contract has the log stream, and absent without it", async () => {
    const withLogs = start(["--help"]);
    expect(await withLogs.done).toBe(EXIT.ok);
    expect(withLogs.stdout.text).toContain("gpu-cloud-client pods logs <pod-id> [--follow] [--tail N] [--since RFC3339] [--source container|system] [--json]");
    const without = start(["--help"], { withLogs: false });
    expect(await without.done).toBe(EXIT.ok);
    expect(without.stdout.text).not.toContain("pods logs");
    const refused = start(["pods", "logs", "pod1"], { withLogs: false });
    expect(await refused.done).toBe(EXIT.usage);
    expect(refused.stderr.text).toContain("pods logs: this API has no such operation");
  });

  it("without --follow prints the last --tail lines on one connection and stops when the stream goes quiet", async () => {
    const pod = await podWithLines(["booting", "loading weights", "listening on 8888"]);
    const gate = quietGate();
    const requests = fake.service.pods.logs.requests.length;
    const signal = new AbortController().signal;
    const run = start(["pods", "logs", pod, "--tail", "2"], { sleep: gate.sleep, signal });
    await run.stdout.until(lineCount(2));
    gate.open();
    expect(await run.done, run.stderr.text).toBe(EXIT.ok);
    expect(printed(run.stdout.text)).toEqual(["loading weights", "listening on 8888"]);
    // `<ts> <source> <line>`, the time the fake's clock gave the line.
    expect(run.stdout.text.split("\n")[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ container loading weights$/);
    expect(gate.asked.every((ms) => ms === POD_LOGS_QUIET_MS)).toBe(true);
    expect(fake.service.pods.logs.requests.slice(requests)).toEqual([{ pod, lastEventId: undefined, query: "tail=2" }]);
    // The command left no listener on the caller's signal, and let its connection go.
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    await fake.service.logStreamsClosed();
    expect(fake.service.pods.logs.requests.length).toBe(requests + 1);
  });

  it("without --follow does not reconnect: a cut connection is a network error (exit 3)", async () => {
    const pod = await podWithLines(["one", "two", "three"]);
    fake.service.cutLogStreamOnce(pod, 2);
    const requests = fake.service.pods.logs.requests.length;
    const run = start(["pods", "logs", pod, "--tail", "3"], { sleep: quietGate().sleep });
    expect(await run.done).toBe(EXIT.apiError);
    expect(run.stderr.text).toMatch(/^gpu-cloud-client: /);
    expect(fake.service.pods.logs.requests.length).toBe(requests + 1);
  });

  it("--json prints each event as one line of JSON, its data the contract's PodLogEvent; --source keeps one log", async () => {
    const pod = await podWithLines(["a container line"]);
    const gate = quietGate();
    const run = start(["pods", "logs", pod, "--source", "system", "--json"], { sleep: gate.sleep });
    await run.stdout.until(lineCount(1));
    gate.open();
    expect(await run.done, run.stderr.text).toBe(EXIT.ok);
    const events = run.stdout.text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toHaveLength(1);
    const { id, ...data } = events[0]!;
    expect(id).toBe(fake.service.pods.pods.get(pod)!.log.events[0]!.id);
    expect(data).toMatchObject({ source: "system", line: `pod ${pod} created` });
    const validate = schema("#/components/schemas/PodLogEvent");
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
  });

  it("--follow resumes after a cut with Last-Event-ID: every line once, in order, the live ones too; Ctrl-C ends it with 130 and no open stream", async () => {
    const pod = await podWithLines(["one", "two", "three", "four"]);
    fake.service.cutLogStreamOnce(pod, 3);
    const requests = fake.service.pods.logs.requests.length;
    const controller = new AbortController();
    const run = start(["pods", "logs", pod, "--follow", "--tail", "4"], { signal: controller.signal });
    // The backlog, across the cut.
    await run.stdout.until(lineCount(4));
    time.clock.now += 1_000;
    fake.service.appendLog(pod, "five");
    fake.service.appendLog(pod, `six with the key ${KEY}`);
    await run.stdout.until(lineCount(6));
    controller.abort();
    expect(await run.done).toBe(EXIT.interrupted);
    // The key a pod printed is blanked, as in every output of the package.
    expect(printed(run.stdout.text)).toEqual(["one", "two", "three", "four", "five", "six with the key [REDACTED]"]);
    expect(run.stdout.text).not.toContain(KEY);
    expect(run.stderr.text).toMatch(/^gpu-cloud-client: GET \/v2\/pods\/\S+\/logs aborted/);
    // One connection cut, one resumed just after an event it had printed (ids in order: nothing lost, nothing again).
    const made = fake.service.pods.logs.requests.slice(requests);
    expect(made).toHaveLength(2);
    expect(made[0]).toEqual({ pod, lastEventId: undefined, query: "tail=4" });
    const log = fake.service.pods.pods.get(pod)!.log.events;
    expect(log.slice(1, 4).map((event) => event.id)).toContain(made[1]!.lastEventId);
    // Whatever the scheduling, the server sees the last connection close, and nothing reconnects.
    await fake.service.logStreamsClosed();
    expect(fake.service.pods.logs.open).toBe(0);
    expect(fake.service.pods.logs.requests.length).toBe(requests + 2);
  });

  it("refuses a bad --tail, --since or a logs flag on another subcommand before any request", async () => {
    const requests = fake.service.pods.logs.requests.length;
    for (const [args, message] of [
      [["pods", "logs", "pod1", "--tail=-1"], /--tail -1: expected a whole number/],
      [["pods", "logs", "pod1", "--tail", "ten"], /--tail ten: expected a whole number/],
      [["pods", "logs", "pod1", "--since", "yesterday"], /--since yesterday: expected an RFC 3339 instant/],
      [["pods", "get", "pod1", "--follow"], /--follow: not an option of pods get/],
      [["pods", "logs"], /pods logs: expected <pod-id>/],
    ] as const) {
      const run = start([...args]);
      expect(await run.done, args.join(" ")).toBe(EXIT.usage);
      expect(run.stderr.text).toMatch(message);
    }
    expect(fake.service.pods.logs.requests.length).toBe(requests);
  });

  it("documents the quiet time the command uses", () => {
    expect(POD_LOGS_QUIET_SECONDS * 1000).toBe(POD_LOGS_QUIET_MS);
  });

  it("says no line of any output holds the key", () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const text of outputs) expect(text).not.toContain(KEY);
  });
});
