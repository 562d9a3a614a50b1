/**
 * The fault-injection suite: each case of cases.ts against the scriptable loopback servers, one
 * at a time (the leftover checks look at the whole process). Per case: the expected result, the
 * request counts and checks (which bound ended a call, never how long it took: a loaded machine is
 * slow), and the invariants of invariants.ts. A case tagged with an item of issue 17 shows it in
 * its name.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, GpuCloudError } from "../../generated/gpu-cloud-client/src/index.ts";
import { needlesOf, recordingLogger } from "../support/secret-echoes.ts";
import { CASES, ECHOES, KEY, PAYMENTS, STREAMS, type CaseContext, type FaultCase } from "./cases.ts";
import { FaultServer } from "./fault-server.ts";
import { collectWarnings, errorsOf, keyShown, resubmissions, signalListeners, trackResources, untypedErrors } from "./invariants.ts";

const NEEDLES = needlesOf(KEY, Object.values(ECHOES));
/**
 * A call not settled after this is reported as hung, and what it holds is freed: a guard against
 * a call that never ends (a wait for a reset of hours), far beyond what any case takes, not a
 * bound on its pace.
 */
const HANG_MS = 20_000;
/** How long sockets and timers may take to close once the call has settled. */
const SETTLE_MS = 1_000;

let a: FaultServer;
let b: FaultServer;
let refused: string;

beforeAll(async () => {
  [a, b] = await Promise.all([FaultServer.start(), FaultServer.start()]);
  // A port that was just free: connecting to it is refused.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  refused = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(() => Promise.all([a.close(), b.close()]));

async function runCase(fault: FaultCase): Promise<string[]> {
  const logger = recordingLogger();
  const controller = new AbortController();
  const ctx: CaseContext = {
    a,
    b,
    refused,
    signal: controller.signal,
    log: logger.lines,
    abort: (reason) => controller.abort(reason),
    client: (options = {}) =>
      new GpuCloudClient({ apiKey: KEY, baseUrl: a.url, publicEndpointBaseUrl: a.url, timeoutMs: 10_000, maxRetries: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20, logger, ...options }),
    streamsClient: (options = {}) => new STREAMS.BuildEventsApiClient({ apiKey: KEY, baseUrl: a.url, timeoutMs: 10_000, maxRetries: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20, logger, ...options }),
    paymentsClient: (options = {}) => new PAYMENTS.PaymentsApiClient({ apiKey: KEY, baseUrl: a.url, timeoutMs: 10_000, maxRetries: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20, logger, ...options }),
  };
  a.load(fault.a?.(ctx) ?? { routes: [] });
  b.load(fault.b?.(ctx) ?? { routes: [] });
  const warnings = collectWarnings();
  const resources = trackResources();

  let deadline: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    fault.run(ctx).then(
      (value) => ({ ok: true, value, error: undefined, hung: false }),
      (error: unknown) => ({ ok: false, value: undefined, error, hung: false }),
    ),
    new Promise<{ ok: false; value: undefined; error: undefined; hung: true }>((resolve) => {
      deadline = setTimeout(() => resolve({ ok: false, value: undefined, error: undefined, hung: true }), HANG_MS);
    }),
  ]);
  clearTimeout(deadline);
  const problems: string[] = [];
  if (outcome.hung) {
    problems.push(`did not settle within ${HANG_MS} ms`);
    // Free what the call holds, so the next case starts clean.
    controller.abort(new Error("the case's deadline passed"));
    a.hangUp();
    b.hangUp();
  }

  // The result asked for.
  const { result } = fault.expect;
  const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  if (!outcome.hung) {
    if (result === "ok" && !outcome.ok) problems.push(`rejected with ${describe(outcome.error)}`);
    if (result !== "ok" && result !== "settles" && outcome.ok) problems.push(`resolved, expected ${result === "typed" ? "a typed error" : `a ${result.name}`}`);
    if (typeof result === "function" && !outcome.ok && !(outcome.error instanceof result)) problems.push(`rejected with ${describe(outcome.error)}, not a ${result.name}`);
  }
  const counts = { ...a.counts(), ...b.counts("B ") };
  if (fault.expect.counts !== undefined && JSON.stringify(sorted(counts)) !== JSON.stringify(sorted(fault.expect.counts))) {
    problems.push(`requests ${JSON.stringify(sorted(counts))}, expected ${JSON.stringify(sorted(fault.expect.counts))}`);
  }
  if (!outcome.hung) problems.push(...(fault.expect.check?.({ value: outcome.value, error: outcome.error }, ctx) ?? []));

  // The invariants.
  const errors = outcome.hung ? [] : errorsOf(outcome);
  problems.push(...resubmissions([...a.requests, ...b.requests]).map((found) => `submitted again: ${found}`));
  problems.push(...untypedErrors(errors, [GpuCloudError, STREAMS.BuildEventsApiError, PAYMENTS.PaymentsApiError]).map((found) => `not a ${GpuCloudError.name}: ${found}`));
  problems.push(...keyShown(errors, logger.lines, NEEDLES).map((found) => `the key shows: ${found}`));
  const settled = (await a.settled(SETTLE_MS)) && (await b.settled(SETTLE_MS));
  if (!settled) problems.push(`a connection stayed open ${SETTLE_MS} ms after the call settled (${a.openSockets + b.openSockets} socket(s))`);
  // Closes (and the pool's spare connection after an abort) land on later turns of the event loop:
  // what is left is what stays so for a while.
  let left: string[] = [];
  for (const until = Date.now() + SETTLE_MS; Date.now() < until; ) {
    await Promise.all([a.dropIdle(100), b.dropIdle(100)]);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    left = resources.alive();
    if (left.length === 0) break;
  }
  resources.stop();
  for (const [kind, count] of Object.entries(tally(left))) problems.push(`left running: ${count} ${kind}`);
  if (signalListeners(ctx.signal) > 0) problems.push(`${signalListeners(ctx.signal)} abort listener(s) left on the caller's signal`);
  warnings.stop();
  problems.push(...warnings.warnings.map((warning) => `warning: ${warning}`));
  if (!settled) {
    a.hangUp();
    b.hangUp();
  }
  return problems;
}

function tally(kinds: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

function sorted(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([x], [y]) => x.localeCompare(y)));
}

describe("fault injection: the generated client against misbehaving servers", () => {
  for (const fault of CASES) {
    const tag = fault.item !== undefined ? ` [issue 17 item ${fault.item}]` : fault.finding !== undefined ? ` [found here: ${fault.finding}]` : "";
    it(`${fault.name}${tag}`, async () => {
      expect(await runCase(fault)).toEqual([]);
    });
  }
});
