/**
 * A pod's log: lines with ids in the order written, streamed as Server-Sent Events that send the
 * backlog (`tail`, `since`, or what follows `Last-Event-ID`) and then each new line until the
 * client stops reading. A stream can be cut (it errors, as a dropped connection does).
 */
import { iso, problem } from "./answers.js";

/** One line of a pod's log: its event's id and its data (the contract's PodLogEvent). */
export interface FakeLogEvent {
  id: string;
  data: { source: string; line: string; ts: string };
}

export interface PodLog {
  events: FakeLogEvent[];
  /** The open streams' senders. */
  followers: Set<(event: FakeLogEvent) => void>;
  /** The next stream errors after this many events. */
  cutAfter: number | undefined;
}

export class PodLogs {
  /** Every log stream request: the pod, the `Last-Event-ID` it resumed after, its query. */
  readonly requests: Array<{ pod: string; lastEventId: string | undefined; query: string }> = [];
  readonly #now: () => number;
  #nextSeq = 1;
  #open = 0;
  #whenNoneOpen: Array<() => void> = [];

  constructor(now: () => number) {
    this.#now = now;
  }

  get open(): number {
    return this.#open;
  }

  /** Resolves once no log stream is open. */
  closed(): Promise<void> {
    return this.#open === 0 ? Promise.resolve() : new Promise((resolve) => this.#whenNoneOpen.push(resolve));
  }

  append(log: PodLog, line: string, source: string): FakeLogEvent {
    const ts = iso(this.#now());
    const event = { id: `${ts}/${String(this.#nextSeq++).padStart(12, "0")}`, data: { source, line, ts } };
    log.events.push(event);
    for (const send of log.followers) send(event);
    return event;
  }

  stream(pod: string, log: PodLog, query: URLSearchParams, lastEventId: string | undefined, headers: Record<string, string>): Response {
    this.requests.push({ pod, lastEventId, query: query.toString() });
    const tailText = query.get("tail");
    const tail = tailText === null ? 100 : Number(tailText);
    if (!Number.isInteger(tail) || tail < 0 || tail > 5000 || tailText === "") return problem(400, "Bad Request", "tail must be a whole number from 0 to 5000", headers);
    const since = query.get("since");
    if (since !== null && Number.isNaN(Date.parse(since))) return problem(400, "Bad Request", "since must be an RFC 3339 instant", headers);
    const source = query.get("source");
    const kept = (event: FakeLogEvent) => source === null || event.data.source === source;
    const lines = log.events.filter(kept);
    // Ids are in the order written: resuming sends what follows the one given.
    const after = lastEventId === undefined ? undefined : seqOf(lastEventId);
    const backlog =
      after !== undefined ? lines.filter((event) => seqOf(event.id) > after) : since !== null ? lines.filter((event) => Date.parse(event.data.ts) >= Date.parse(since)) : tail === 0 ? [] : lines.slice(-tail);
    const cutAfter = log.cutAfter;
    log.cutAfter = undefined;
    const encoder = new TextEncoder();
    let close = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let sent = 0;
        let done = false;
        const follower = (event: FakeLogEvent) => {
          if (done || !kept(event)) return;
          sent += 1;
          controller.enqueue(encoder.encode(`id: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`));
          if (cutAfter !== undefined && sent >= cutAfter) {
            // Once the event is out, the stream breaks with no clean end: the client sees a dropped connection.
            close();
            setTimeout(() => controller.error(new TypeError("the fake dropped the log stream")), 0);
          }
        };
        close = () => {
          if (done) return;
          done = true;
          log.followers.delete(follower);
          this.#open -= 1;
          if (this.#open === 0) for (const resolve of this.#whenNoneOpen.splice(0)) resolve();
        };
        this.#open += 1;
        log.followers.add(follower);
        for (const event of backlog) follower(event);
      },
      cancel: () => close(),
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers } });
  }
}

function seqOf(id: string): number {
  return Number(id.slice(id.lastIndexOf("/") + 1));
}
