/**
 * The event-stream runtime on its own: the WHATWG parsing rules as a table of streams written for
 * this test (each also fed split at every character boundary, and as bytes split inside a multibyte
 * character), the data of a JSON event schema, resuming with Last-Event-ID, 204, and the delays.
 */
import { describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec } from "../../templates/runtime/client-core.ts";
import { datesOf } from "../../templates/runtime/dates/convert.ts";
import { AbortedError, ConnectionError, ResponseValidationError, UnexpectedResponseError } from "../../templates/runtime/errors.ts";
import { reconnectDelay, streamEvents } from "../../templates/runtime/server-sent-events/event-stream.ts";
import type { EventDataSpec, EventStreamOptions, ServerSentEvent } from "../../templates/runtime/server-sent-events/types.ts";

const SPEC: OperationSpec = { operationId: "followThings", method: "GET", path: "/things/events", server: "api", responseKind: "text" };
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8" };

/** One answer of the fake server: a status, and the body's chunks (an `Error` breaks the body there). */
interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  chunks?: Array<string | Uint8Array | Error>;
}

function bodyOf(chunks: ReadonlyArray<string | Uint8Array | Error>, onCancel: () => void): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else if (chunk instanceof Error) controller.error(chunk);
      else controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
    },
    cancel: onCancel,
  });
}

/** A client whose fetch answers from a script, recording the requests and the bodies cancelled. */
function scriptedClient(script: Scripted[], extra: Record<string, unknown> = {}) {
  const requests: Request[] = [];
  let cancelled = 0;
  class Client extends ClientCore {
    constructor() {
      super(
        {
          maxRetries: 0,
          ...extra,
          fetch: async (request: Request) => {
            requests.push(request);
            const next = script.shift();
            if (next === undefined) throw new TypeError("no answer scripted");
            const status = next.status ?? 200;
            const body = status === 204 ? null : bodyOf(next.chunks ?? [], () => void cancelled++);
            return new Response(body, { status, headers: next.headers ?? SSE_HEADERS });
          },
        },
        { servers: { api: "https://events.example.test" } },
      );
    }
  }
  return { client: new Client(), requests, cancelled: () => cancelled };
}

async function collect<Data = string>(script: Scripted[], options: EventStreamOptions = {}, dataSpec?: EventDataSpec) {
  const fake = scriptedClient(script);
  const events: ServerSentEvent<Data>[] = [];
  for await (const event of streamEvents<Data>(fake.client, SPEC, {}, { maxReconnects: 0, reconnectDelayMs: 0, ...options }, dataSpec)) events.push(event);
  return { events, ...fake };
}

/** A stream's text and the events it gives: `[event type, data, id]` (id only when its block set one). */
const PARSING: Array<{ name: string; stream: string; events: Array<[string, string, string?]> }> = [
  { name: "data lines joined by LF", stream: "data: AAPL\ndata: -1.5\ndata: 190\n\n", events: [["message", "AAPL\n-1.5\n190"]] },
  {
    name: "comments, ids, one space stripped after the colon",
    stream: ": keep-alive\n\ndata: alpha\nid: 7\n\ndata:beta\nid\n\ndata:   gamma\n\n",
    events: [["message", "alpha", "7"], ["message", "beta", ""], ["message", "  gamma"]],
  },
  { name: "a data field without colon, and a last block without a blank line is dropped", stream: "data\n\ndata\ndata\n\ndata:\n", events: [["message", ""], ["message", "\n"]] },
  { name: "with and without the space", stream: "data:same\n\ndata: same\n\n", events: [["message", "same"], ["message", "same"]] },
  { name: "event types", stream: "event: added\ndata: 41\n\nevent: removed\ndata: 42\n\ndata: 43\n\n", events: [["added", "41"], ["removed", "42"], ["message", "43"]] },
  { name: "a leading BOM is skipped", stream: "\uFEFFdata: one\n\n", events: [["message", "one"]] },
  { name: "only one BOM: a second starts a field no one knows", stream: "\uFEFF\uFEFFdata: one\n\ndata: two\n\n", events: [["message", "two"]] },
  { name: "CR line ends", stream: "data: r1\rdata: r2\r\rdata: r3\r\r", events: [["message", "r1\nr2"], ["message", "r3"]] },
  { name: "CRLF line ends", stream: "event: x\r\ndata: c1\r\n\r\ndata: c2\r\n\r\n", events: [["x", "c1"], ["message", "c2"]] },
  { name: "mixed line ends", stream: "data: m1\r\ndata: m2\rdata: m3\n\r\n", events: [["message", "m1\nm2\nm3"]] },
  { name: "a block without data dispatches nothing", stream: "event: ping\nid: 3\n\ndata: after\n\n", events: [["message", "after"]] },
  { name: "an id holding NUL is ignored", stream: "id: a\u0000b\ndata: n\n\n", events: [["message", "n"]] },
  { name: "unknown fields and bad retry values are ignored", stream: "colour: blue\nretry: 12x\ndata: kept\n\n", events: [["message", "kept"]] },
  { name: "a field name is case-sensitive", stream: "Data: no\n\ndata: yes\n\n", events: [["message", "yes"]] },
  { name: "an empty event type is message", stream: "event:\ndata: e\n\n", events: [["message", "e"]] },
  { name: "multibyte text", stream: "data: héllo wörld ✓ 🚀\n\n", events: [["message", "héllo wörld ✓ 🚀"]] },
];

const shape = (events: ServerSentEvent[]) => events.map((e) => (e.id === undefined ? [e.event, e.data] : [e.event, e.data, e.id]));

describe("parsing, as the WHATWG algorithm says", () => {
  for (const { name, stream, events } of PARSING) {
    it(name, async () => {
      expect(shape((await collect([{ chunks: [stream] }])).events)).toEqual(events);
      // Split at every boundary: a CRLF split in two included.
      const characters = Array.from(stream);
      for (let at = 1; at < characters.length; at++) {
        const chunks = [characters.slice(0, at).join(""), characters.slice(at).join("")];
        expect(shape((await collect([{ chunks }])).events), `split at ${at}`).toEqual(events);
      }
      // One byte at a time: a character split between chunks.
      const bytes = new TextEncoder().encode(stream);
      expect(shape((await collect([{ chunks: [...bytes].map((b) => Uint8Array.of(b)) }])).events)).toEqual(events);
    });
  }

  it("retry sets the reconnection time, on the event it came with", async () => {
    const { events } = await collect([{ chunks: ["retry: 2500\ndata: a\n\ndata: b\n\n"] }]);
    expect(events.map((e) => e.retry)).toEqual([2500, undefined]);
  });
});

describe("the data of an event schema", () => {
  const objects: EventDataSpec = {
    json: true,
    validate: (value) => (typeof value === "object" && value !== null && typeof (value as { line?: unknown }).line === "string" ? [] : [{ path: "/line", keyword: "type", message: "must be string", schemaPath: "#/properties/line/type" }]),
  };

  it("is parsed as JSON and checked", async () => {
    const { events } = await collect<{ line: string }>([{ chunks: ['data: {"line":"booting"}\n\n'] }], {}, objects);
    expect(events[0]!.data).toEqual({ line: "booting" });
  });

  it("that the schema refuses is a ResponseValidationError; not JSON an UnexpectedResponseError", async () => {
    await expect(collect([{ chunks: ['data: {"line":3}\n\n'] }], {}, objects)).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(collect([{ chunks: ["data: {oops\n\n"] }], {}, objects)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("has its dates as Dates after the check, with --dates date; a string that is no date is a ResponseValidationError", async () => {
    const dated: EventDataSpec = { ...objects, dates: datesOf({ properties: { ts: "date-time" } }) };
    const { events } = await collect<{ line: string; ts: Date }>([{ chunks: ['data: {"line":"up","ts":"2026-06-01T12:01:41Z"}\n\n'] }], {}, dated);
    expect(events[0]!.data).toEqual({ line: "up", ts: new Date("2026-06-01T12:01:41Z") });
    const error = await collect([{ chunks: ['data: {"line":"up","ts":"noon"}\n\n'] }], {}, dated).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).problems).toEqual([{ path: "/ts", keyword: "format", message: "must be an RFC 3339 date-time", schemaPath: "" }]);
  });

  it("an answer that is not an event stream is refused", async () => {
    const error = await collect([{ headers: { "content-type": "application/json" }, chunks: ["{}"] }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/not an event stream/);
  });
});

describe("resuming", () => {
  it("a cut connection is resumed with Last-Event-ID; 204 ends the iteration", async () => {
    const { events, requests } = await collect(
      [{ chunks: ["id: 1\ndata: first\n\nid: 2\ndata: sec", new TypeError("socket hang up")] }, { chunks: ["data: ond\n\nid: 3\ndata: third\n\n"] }, { status: 204 }],
      { maxReconnects: 3 },
    );
    expect(events.map((e) => e.data)).toEqual(["first", "ond", "third"]);
    expect(requests.map((r) => r.headers.get("last-event-id"))).toEqual([null, "1", "3"]);
    expect(requests.every((r) => r.headers.get("accept")?.startsWith("text/event-stream,"))).toBe(true);
  });

  it("a given lastEventId is sent from the first request; an empty id stops sending one", async () => {
    const { requests } = await collect([{ chunks: ["id\ndata: x\n\n"] }, { status: 204 }], { lastEventId: "41", maxReconnects: 1 });
    expect(requests.map((r) => r.headers.get("last-event-id"))).toEqual(["41", null]);
  });

  it("the budget counts reconnections in a row without an event; a cut past it is thrown", async () => {
    const cut = () => ({ chunks: [new TypeError("reset")] });
    const error = await collect([cut(), cut(), cut()], { maxReconnects: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it("a server unreachable after it sent events is given up after the budget, not retried forever", async () => {
    // One event, then every reconnection fails to connect (the script has no answer left).
    const fake = scriptedClient([{ chunks: ["id: 1\ndata: a\n\n"] }]);
    const events: string[] = [];
    const error = await (async () => {
      for await (const event of streamEvents(fake.client, SPEC, {}, { maxReconnects: 2, reconnectDelayMs: 0 })) events.push(event.data as string);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(events).toEqual(["a"]);
    expect(fake.requests).toHaveLength(3);
  });

  it("a stream opened by a POST is not sent again unless the caller asks: reconnecting would start its work again", async () => {
    const post: OperationSpec = { ...SPEC, method: "POST" };
    const once = scriptedClient([{ chunks: ["data: a\n\n"] }, { chunks: ["data: b\n\n"] }]);
    const events: string[] = [];
    for await (const event of streamEvents(once.client, post, {}, { reconnectDelayMs: 0 })) events.push(event.data as string);
    expect(events).toEqual(["a"]);
    expect(once.requests).toHaveLength(1);
    const asked = scriptedClient([{ chunks: ["data: a\n\n"] }, { chunks: ["data: b\n\n"] }, { status: 204 }]);
    const resumed: string[] = [];
    for await (const event of streamEvents(asked.client, post, {}, { reconnectDelayMs: 0, maxReconnects: 1 })) resumed.push(event.data as string);
    expect(resumed).toEqual(["a", "b"]);
  });

  it("a clean close past the budget just ends", async () => {
    const { events, requests } = await collect([{ chunks: ["data: a\n\n"] }, { chunks: [] }], { maxReconnects: 1 });
    expect(events.map((e) => e.data)).toEqual(["a"]);
    expect(requests).toHaveLength(2);
  });

  it("break cancels the body", async () => {
    const fake = scriptedClient([{ chunks: ["data: a\n\n", "data: b\n\n", "data: c\n\n"] }]);
    for await (const event of streamEvents(fake.client, SPEC, {}, {})) if (event.data === "a") break;
    expect(fake.cancelled()).toBe(1);
  });

  it("each connection runs the client's hooks, the reconnection's with its Last-Event-ID", async () => {
    const seen: string[] = [];
    const hooks = {
      onRequest: (request: { attempt: number; headers: Headers }) => void seen.push(`request ${request.headers.get("last-event-id") ?? "-"}`),
      onResponse: (response: { status: number }) => void seen.push(`response ${response.status}`),
    };
    const fake = scriptedClient([{ chunks: ["id: 9\ndata: a\n\n"] }, { status: 204 }], { hooks });
    for await (const _ of streamEvents(fake.client, SPEC, {}, { reconnectDelayMs: 0 }));
    expect(seen).toEqual(["request -", "response 200", "request 9", "response 204"]);
  });

  it("an abort while waiting to reconnect ends the stream with an AbortedError, without the reconnection", async () => {
    const fake = scriptedClient([{ chunks: ["data: a\n\n"] }, { chunks: ["data: never\n\n"] }]);
    const controller = new AbortController();
    const events: string[] = [];
    // A wait no test would sit out: the abort, whenever it lands (reading or waiting), ends it.
    const iteration = (async () => {
      for await (const event of streamEvents<string>(fake.client, SPEC, {}, { signal: controller.signal, reconnectDelayMs: 3_600_000 })) {
        events.push(event.data);
        setTimeout(() => controller.abort(new Error("done")), 0);
      }
    })();
    await expect(iteration).rejects.toBeInstanceOf(AbortedError);
    expect(events).toEqual(["a"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("the delay doubles from the server's retry, capped", () => {
    expect([1, 2, 3, 4].map((n) => reconnectDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
    expect(reconnectDelay(1, 0, 5000)).toBe(0);
  });

  it("nonsense options are refused before any request", async () => {
    await expect(collect([], { maxReconnects: -1 })).rejects.toThrow(/maxReconnects/);
    await expect(collect([], { idleTimeoutMs: Number.NaN })).rejects.toThrow(/idleTimeoutMs/);
  });
});
