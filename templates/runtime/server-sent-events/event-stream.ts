/**
 * An operation answering `text/event-stream`, as an async iterable of its events: each connection
 * opened through the client core (credentials, checks, hooks, retries and typed errors as any
 * call), its body parsed as the WHATWG's algorithm says (`eventsource-parser`), and a connection
 * that drops resumed with `Last-Event-ID` within a budget. `break` or the caller's signal ends it
 * with no connection, timer or listener left.
 */
import { createParser } from "eventsource-parser";
import { ClientCore } from "../client-core.js";
import type { OperationParams, OperationSpec, OpenedStream } from "../client-core.js";
import type { Clock } from "../clock.js";
import { SdkError } from "../error-base.js";
import { AbortedError, ConnectionError, ResponseTooLargeError, ResponseValidationError, TimeoutError, UnexpectedResponseError } from "../errors.js";
import { checkNumber } from "../option-checks.js";
import { redactRegisteredSecrets } from "../redact.js";
import { requestIdOf } from "../request-id.js";
import { checkTimeout, MAX_TIMER_MS, sleep } from "../signals.js";
import type { ValidationIssue } from "../validation.js";
import type { EventDataSpec, EventStreamOptions, ServerSentEvent } from "./types.js";

export const DEFAULT_MAX_RECONNECTS = 5;
const DEFAULT_RECONNECT_DELAY_MS = 1_000;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 30_000;
/** The most text an event may pile up before it is dispatched (characters). */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;
const CR = 13;
const LAST_EVENT_ID = "last-event-id";
// The stream first; any other type still welcome, so that an error answer (problem+json, say) is
// sent as the contract documents it rather than replaced by a stream or a 406.
const ACCEPT = "text/event-stream, */*;q=0.1";

/** How one connection ended: the server closed it, or it broke (cut, stalled) with this error. */
type Ending = { closed: true } | { closed: false; error: SdkError };

/** The stream's state across its connections. */
interface Resume {
  lastEventId: string | undefined;
  /** The server's `retry:`, once it sent one. */
  retryMs: number | undefined;
  /** Whether the current connection has handed over an event (which resets the reconnect budget). */
  delivered: boolean;
}

export async function* streamEvents<Data>(
  client: ClientCore,
  spec: OperationSpec,
  params: OperationParams,
  options: EventStreamOptions = {},
  dataSpec: EventDataSpec = { json: false },
): AsyncGenerator<ServerSentEvent<Data>, void, undefined> {
  // Opening the stream again sends the request again: only a GET or HEAD is safe to resend by default
  // (a POST that starts work would start it once more); the caller may still ask for it.
  const resumable = spec.method === "GET" || spec.method === "HEAD";
  const { lastEventId, maxReconnects = resumable ? DEFAULT_MAX_RECONNECTS : 0, reconnectDelayMs = DEFAULT_RECONNECT_DELAY_MS, maxReconnectDelayMs = DEFAULT_MAX_RECONNECT_DELAY_MS, idleTimeoutMs, ...request } = options;
  checkNumber("maxReconnects", maxReconnects, { min: 0, integer: true, infinity: true });
  checkTimeout("reconnectDelayMs", reconnectDelayMs);
  checkTimeout("maxReconnectDelayMs", maxReconnectDelayMs);
  checkTimeout("idleTimeoutMs", idleTimeoutMs);
  const idleMs = Math.min(idleTimeoutMs ?? ClientCore.timeoutOf(client, request), MAX_TIMER_MS);
  // A contract may list Last-Event-ID as a header parameter: the stream sends it, its own way.
  const { header: given, ...rest } = params;
  const header = given === undefined ? undefined : Object.fromEntries(Object.entries(given).filter(([name]) => name.toLowerCase() !== LAST_EVENT_ID));
  const fromParams = given === undefined ? undefined : Object.entries(given).find(([name]) => name.toLowerCase() === LAST_EVENT_ID)?.[1];
  const first = lastEventId ?? (typeof fromParams === "string" ? fromParams : undefined);
  const sent: OperationParams = header === undefined ? rest : { ...rest, header };
  const state: Resume = { lastEventId: first === "" ? undefined : first, retryMs: undefined, delivered: false };
  const clock = ClientCore.clockOf(client);
  for (let reconnects = 0; ; ) {
    const headers: Record<string, string> = { ...request.headers, accept: ACCEPT };
    if (state.lastEventId !== undefined) headers[LAST_EVENT_ID] = state.lastEventId;
    let ending: Ending;
    // Progress is an event from this connection: a reconnection that fails to open has made none.
    state.delivered = false;
    try {
      const opened = await ClientCore.openStream(client, spec, sent, { ...request, headers });
      // 204: the server has nothing more to send, and asks not to be asked again.
      if (opened.status === 204) {
        await letGo(opened);
        return;
      }
      // The connection hands over each chunk's events at once: one step of its generator per chunk, not per event.
      const connection = connectionEvents<Data>(opened, spec, dataSpec, state, idleMs, request.signal, clock);
      try {
        for (let step = await connection.next(); ; step = await connection.next()) {
          if (step.done === true) {
            ending = step.value;
            break;
          }
          for (const event of step.value) yield event;
        }
      } finally {
        // A consumer that left (break, a throw) closes the connection: its generator's finally runs.
        await connection.return({ closed: true });
      }
    } catch (error) {
      // Only a failure to reach the server again after a drop is the budget's; any other is the caller's.
      if (reconnects === 0 || !(error instanceof ConnectionError || error instanceof TimeoutError)) throw error;
      ending = { closed: false, error };
    }
    if (state.delivered) reconnects = 0;
    if (reconnects >= maxReconnects) {
      if (ending.closed) return;
      throw ending.error;
    }
    reconnects++;
    try {
      await sleep(reconnectDelay(reconnects, state.retryMs ?? reconnectDelayMs, maxReconnectDelayMs), request.signal, clock);
    } catch {
      throw new AbortedError({ method: spec.method, reason: request.signal?.reason });
    }
  }
}

/** The wait before the `reconnects`-th reconnection in a row: the base (the server's `retry:`, else the option) doubled each time, capped. */
export function reconnectDelay(reconnects: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** (reconnects - 1), maxMs);
}

/**
 * The events of one connection, handed over chunk by chunk as they are parsed; returns how it ended. The idle
 * timer runs only while a chunk is awaited: a caller slow to take an event is not a stalled server.
 */
async function* connectionEvents<Data>(
  opened: OpenedStream,
  spec: OperationSpec,
  dataSpec: EventDataSpec,
  state: Resume,
  idleMs: number,
  signal: AbortSignal | undefined,
  clock: Clock,
): AsyncGenerator<ServerSentEvent<Data>[], Ending, undefined> {
  const contentType = opened.headers.get("content-type") ?? "";
  if (!/^\s*text\/event-stream\s*(;|$)/i.test(contentType)) {
    await letGo(opened);
    throw unusable(opened, spec, `the answer is ${contentType === "" ? "without a Content-Type" : `of type ${contentType}`}, not an event stream`, "");
  }
  if (opened.body === null) {
    opened.release();
    return { closed: true };
  }
  const reader = opened.body.getReader();
  const decoder = new TextDecoder();
  const parsed: ServerSentEvent<Data>[] = [];
  let tooLarge = false;
  let retry: number | undefined;
  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) state.lastEventId = message.id === "" ? undefined : message.id;
      parsed.push({ id: message.id, event: message.event ?? "message", data: eventData(message.data, opened, spec, dataSpec) as Data, retry });
      retry = undefined;
    },
    onRetry: (ms) => {
      state.retryMs = retry = ms;
    },
    onError: (error) => {
      // Unknown fields and a `retry:` that is not digits are ignored, as the algorithm says.
      if (error.type === "max-buffer-size-exceeded") tooLarge = true;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  let endsWithCr = false;
  let timedOut = false;
  let timer: unknown;
  const stop = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", stop, { once: true });
  let finished = false;
  try {
    for (;;) {
      if (idleMs > 0) {
        timer = clock.setTimeout(() => {
          timedOut = true;
          stop();
        }, idleMs);
      }
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finished = true;
        return { closed: false, error: failure(error, opened, spec, signal, timedOut, idleMs) };
      } finally {
        clock.clearTimeout(timer);
      }
      if (signal?.aborted) throw new AbortedError({ method: spec.method, url: opened.url, reason: signal.reason });
      if (timedOut) return { closed: false, error: stalled(opened, spec, idleMs) };
      // A CR that ends the stream ends a line: the parser waits for an LF that will not come.
      const text: string = chunk.done ? `${decoder.decode()}${endsWithCr ? "\n" : ""}` : decoder.decode(chunk.value, { stream: true });
      if (text !== "") {
        endsWithCr = text.charCodeAt(text.length - 1) === CR;
        parser.feed(text);
      }
      if (tooLarge) throw new ResponseTooLargeError({ status: opened.status, method: spec.method, url: opened.url, maxResponseBytes: MAX_EVENT_CHARS });
      if (parsed.length > 0) {
        state.delivered = true;
        yield parsed.splice(0);
      }
      if (chunk.done) {
        finished = true;
        // An event not ended by a blank line when the stream closes is dropped, as the algorithm says.
        return { closed: true };
      }
    }
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
    if (!finished) await reader.cancel().catch(() => undefined);
    opened.release();
  }
}

/** An event's data, as the operation's event schema says: the text, or JSON its validator accepts. */
function eventData(text: string, opened: OpenedStream, spec: OperationSpec, dataSpec: EventDataSpec): unknown {
  if (!dataSpec.json) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unusable(opened, spec, "an event's data is not JSON", text);
  }
  const invalid = (problems: ValidationIssue[]) =>
    new ResponseValidationError({ status: opened.status, method: spec.method, url: opened.url, operationId: spec.operationId, requestId: requestIdOf(opened.headers), rawBody: redactRegisteredSecrets(text), problems });
  const problems = dataSpec.validate?.(value) ?? [];
  if (problems.length > 0) throw invalid(problems);
  if (dataSpec.dates === undefined) return value;
  const converted = dataSpec.dates(value);
  if (converted.issues.length > 0) throw invalid(converted.issues);
  return converted.data;
}

function unusable(opened: OpenedStream, spec: OperationSpec, reason: string, text: string): UnexpectedResponseError {
  const rawBody = redactRegisteredSecrets(text, { mayBeCut: true });
  return new UnexpectedResponseError({ status: opened.status, method: spec.method, url: opened.url, operationId: spec.operationId, requestId: requestIdOf(opened.headers), reason, rawBody });
}

function stalled(opened: OpenedStream, spec: OperationSpec, idleMs: number): TimeoutError {
  return new TimeoutError({ method: spec.method, url: opened.url, timeoutMs: idleMs, note: "no byte of the event stream arrived within idleTimeoutMs" });
}

/** Why a read of the body failed: the caller's abort, the idle timer, or the network. */
function failure(error: unknown, opened: OpenedStream, spec: OperationSpec, signal: AbortSignal | undefined, timedOut: boolean, idleMs: number): SdkError {
  if (signal?.aborted) throw new AbortedError({ method: spec.method, url: opened.url, reason: signal.reason });
  if (timedOut) return stalled(opened, spec, idleMs);
  const cause = error instanceof Error ? { name: error.name, message: redactRegisteredSecrets(error.message) } : { name: "Error", message: redactRegisteredSecrets(String(error)) };
  return new ConnectionError({ method: spec.method, url: opened.url, cause });
}

async function letGo(opened: OpenedStream): Promise<void> {
  await opened.body?.cancel().catch(() => undefined);
  opened.release();
}
