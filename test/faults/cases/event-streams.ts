/**
 * Event streams (the event-streams fixture's `followBuildLog`): a connection cut mid-event and
 * resumed with Last-Event-ID, a stream that stalls (the idle timeout), a server that closes, 204
 * ending the reconnections, error answers before the stream, and a caller that aborts or breaks
 * mid-stream. Each case's checks hold under any scheduling: they count requests and compare ids,
 * never times.
 */
import { cut, problem, respond, stall, type Reply } from "../fault-server.ts";
import { EVERY_ECHO, KEY, STREAMS, type CaseContext, type FaultCase, type LogEvent } from "../case-kit.ts";

const LOG = "/builds/b-31/log";
const FOLLOW = `GET ${LOG}`;
const SSE = { "Content-Type": "text/event-stream" };

/** One log line as an event block. */
const line = (seq: number, text = `step ${seq}`) => `id: ${seq}\ndata: ${JSON.stringify({ seq, text })}\n\n`;
const stream = (body: string): Reply => respond(200, body, SSE);
const ended = (): Reply => respond(204);

/** Follows the log to its end, keeping each event in `seen` (a case's checks read it even after a throw). */
function follow(seen: LogEvent[], options: Record<string, unknown> = {}) {
  return async (ctx: CaseContext) => {
    for await (const event of ctx.streamsClient().followBuildLog({ path: { buildId: "b-31" } }, { signal: ctx.signal, reconnectDelayMs: 0, ...options })) seen.push(event);
    return seen;
  };
}

/** The Last-Event-ID each request carried, in order (`-` for none). */
const resumedFrom = (expected: string[]) => (_: unknown, ctx: CaseContext) => {
  const sent = ctx.a.requests.map((request) => request.headers["last-event-id"] ?? "-");
  return JSON.stringify(sent) === JSON.stringify(expected) ? [] : [`Last-Event-ID ${JSON.stringify(sent)}, expected ${JSON.stringify(expected)}`];
};

const seqs = (seen: LogEvent[], expected: number[]) => () =>
  JSON.stringify(seen.map((event) => event.data.seq)) === JSON.stringify(expected) ? [] : [`events ${JSON.stringify(seen.map((event) => event.data.seq))}, expected ${JSON.stringify(expected)}`];

function cutMidEvent(): FaultCase {
  const seen: LogEvent[] = [];
  const first = line(1) + line(2);
  return {
    name: "event stream cut mid-event: resumed with the last whole event's id, the cut event not handed over, then 204 ends it",
    a: () => ({ routes: [{ path: LOG, reply: [cut(200, first, line(1).length + 9, "close", SSE), stream(line(2) + line(3)), ended()] }] }),
    run: follow(seen, { maxReconnects: 3 }),
    expect: { result: "ok", counts: { [FOLLOW]: 3 }, check: (outcome, ctx) => [...seqs(seen, [1, 2, 3])(), ...resumedFrom(["-", "1", "3"])(outcome, ctx)] },
  };
}

function stalled(): FaultCase {
  const seen: LogEvent[] = [];
  return {
    name: "event stream that stalls: each silence past idleTimeoutMs is a drop; past maxReconnects a TimeoutError of idleTimeoutMs",
    a: () => ({ routes: [{ path: LOG, reply: [stall(200, line(1), SSE), stall(200, "", SSE)] }] }),
    run: follow(seen, { idleTimeoutMs: 200, maxReconnects: 1 }),
    expect: {
      result: STREAMS.TimeoutError,
      // Whether or not the first event came before its silence, the budget allows one reconnection.
      counts: { [FOLLOW]: 2 },
      check: (outcome, ctx) => [
        ...((outcome.error as { timeoutMs?: number }).timeoutMs === 200 ? [] : [`timed out after ${(outcome.error as { timeoutMs?: number }).timeoutMs} ms, not the idle timeout`]),
        // The reconnection resumes from whatever the caller was given.
        ...resumedFrom(["-", seen.length === 1 ? "1" : "-"])(outcome, ctx),
      ],
    },
  };
}

function serverCloses(): FaultCase {
  const seen: LogEvent[] = [];
  return {
    name: "event stream the server closes: reconnected with Last-Event-ID until maxReconnects closes in a row without an event, then it just ends",
    a: () => ({ routes: [{ path: LOG, reply: [stream(line(1)), stream(": nothing new\n\n")] }] }),
    run: follow(seen, { maxReconnects: 2 }),
    expect: { result: "ok", counts: { [FOLLOW]: 3 }, check: (outcome, ctx) => [...seqs(seen, [1])(), ...resumedFrom(["-", "1", "1"])(outcome, ctx)] },
  };
}

function noContent(): FaultCase {
  const seen: LogEvent[] = [];
  return {
    name: "event stream answered 204 on reconnecting: the iteration ends, no more requests",
    a: () => ({ routes: [{ path: LOG, reply: [stream(line(1) + line(2)), ended()] }] }),
    run: follow(seen, { maxReconnects: 10 }),
    expect: { result: "ok", counts: { [FOLLOW]: 2 }, check: (outcome, ctx) => [...seqs(seen, [1, 2])(), ...resumedFrom(["-", "2"])(outcome, ctx)] },
  };
}

function before(status: number, errorClass: FaultCase["expect"]["result"], headers: Record<string, string> = {}, requests = 1): FaultCase {
  return {
    name: `event stream answered ${status} before any event, its problem echoing the key: the typed error of any call without it, nothing resumed`,
    a: () => ({ routes: [{ path: LOG, reply: problem(status, `refused with ${status}: ${EVERY_ECHO}`, headers) }] }),
    run: follow([]),
    expect: { result: errorClass, counts: { [FOLLOW]: requests } },
  };
}

function rateLimitedThenStream(): FaultCase {
  const seen: LogEvent[] = [];
  return {
    name: "event stream answered 429 with Retry-After 0, then the stream: retried as any call, then followed",
    a: () => ({ routes: [{ path: LOG, reply: [problem(429, "quota", { "Retry-After": "0" }), stream(line(1)), ended()] }] }),
    run: follow(seen),
    expect: { result: "ok", counts: { [FOLLOW]: 3 }, check: (outcome, ctx) => [...seqs(seen, [1])(), ...resumedFrom(["-", "-", "1"])(outcome, ctx)] },
  };
}

function refusedEvent(): FaultCase {
  return {
    name: "event stream whose event the schema refuses, echoing the key: a ResponseValidationError without it, nothing resumed",
    a: () => ({ routes: [{ path: LOG, reply: stream(`id: 1\ndata: ${JSON.stringify({ seq: KEY, text: EVERY_ECHO })}\n\n`) }] }),
    run: follow([], { maxReconnects: 3 }),
    expect: { result: STREAMS.ResponseValidationError, counts: { [FOLLOW]: 1 } },
  };
}

function abortMidStream(): FaultCase {
  const seen: LogEvent[] = [];
  return {
    name: "event stream aborted by the caller after its first event: an AbortedError, the connection closed, no timer or listener left",
    a: () => ({ routes: [{ path: LOG, reply: stall(200, line(1), SSE) }] }),
    run: async (ctx) => {
      for await (const event of ctx.streamsClient().followBuildLog({ path: { buildId: "b-31" } }, { signal: ctx.signal, idleTimeoutMs: 0 })) {
        seen.push(event);
        ctx.abort(new Error("enough"));
      }
    },
    expect: { result: STREAMS.AbortedError, counts: { [FOLLOW]: 1 }, check: seqs(seen, [1]) },
  };
}

function breakMidStream(): FaultCase {
  return {
    name: "event stream left with break after its first event while the server keeps it open: the connection closed, nothing left",
    a: () => ({ routes: [{ path: LOG, reply: stall(200, line(1) + line(2), SSE) }] }),
    run: async (ctx) => {
      for await (const event of ctx.streamsClient().followBuildLog({ path: { buildId: "b-31" } }, { signal: ctx.signal })) if (event.data.seq === 1) break;
    },
    expect: { result: "ok", counts: { [FOLLOW]: 1 } },
  };
}

export const EVENT_STREAM_CASES: FaultCase[] = [
  cutMidEvent(),
  stalled(),
  serverCloses(),
  noContent(),
  before(401, STREAMS.AuthenticationError),
  before(404, STREAMS.NotFoundError),
  // Retried by the transport's one rule (maxRetries 2), then the typed error with the wait asked.
  before(429, STREAMS.RateLimitError, { "Retry-After": "0" }, 3),
  rateLimitedThenStream(),
  refusedEvent(),
  abortMidStream(),
  breakMidStream(),
];
