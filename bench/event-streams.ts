/**
 * Server-Sent Events: parse throughput and per-event overhead of the generated client's stream
 * (the event-streams fixture's package) beside `eventsource-parser` fed directly and `fetch` read
 * as text, on one in-memory body in chunks as a socket gives them (no server, no socket: what is
 * measured is reading and parsing). Rounds interleave the ways; medians of the rounds.
 *
 *   npx tsx bench/event-streams.ts [--quick] [--json]
 */
import path from "node:path";
import { createParser } from "eventsource-parser";
import { generateFiles } from "../generator/generate.ts";
import { writeOutput } from "../generator/write/index.ts";
import { REPO_ROOT, bytes, integer, isMain, markdownTable, median, ratio } from "./lib.ts";

const quick = process.argv.includes("--quick");
const EVENTS = Number(process.env.SSE_BENCH_EVENTS ?? (quick ? 10_000 : 50_000));
const ROUNDS = quick ? 3 : 9;
/** The body read once: a server that closes is otherwise asked again (no 204 here). */
const ONCE = { maxReconnects: 0 };
/** What one read of a socket typically gives. */
const CHUNK_BYTES = 16 * 1024;

export interface EventStreamsResult {
  events: number;
  bodyBytes: number;
  rows: Array<{ id: string; label: string; ms: number; eventsPerSecond: number; mbPerSecond: number }>;
  markdown: string;
}

/** A log stream: one JSON line per event, with its id, as a build log would send. */
function body(): Uint8Array {
  let text = ": log of build b-31\n\n";
  for (let seq = 1; seq <= EVENTS; seq++) {
    text += `id: ${seq}\ndata: ${JSON.stringify({ seq, stream: seq % 7 === 0 ? "stderr" : "stdout", text: `compiling module ${seq % 311} of the workspace (${seq * 13} bytes)` })}\n\n`;
  }
  return new TextEncoder().encode(text);
}

function chunksOf(bytesOf: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytesOf.length; at += CHUNK_BYTES) chunks.push(bytesOf.subarray(at, at + CHUNK_BYTES));
  return chunks;
}

/** An in-memory answer: the chunks as a stream, pulled one at a time. */
function answer(chunks: readonly Uint8Array[]): Response {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}

interface EventsClient {
  followBuildLog(params: { path: { buildId: string } }, options: { maxReconnects: number }): AsyncIterable<{ data: unknown }>;
  watchNotices(options: { maxReconnects: number }): AsyncIterable<{ data: string }>;
}

async function generatedClient(chunks: readonly Uint8Array[]): Promise<EventsClient> {
  const out = path.join(REPO_ROOT, ".tmp/bench/event-streams");
  const generated = await generateFiles({ spec: path.join(REPO_ROOT, "test/fixtures/contracts/event-streams.yaml"), out });
  await writeOutput(out, generated.files);
  const module = (await import(path.join(out, "src/index.ts"))) as { BuildEventsApiClient: new (options: Record<string, unknown>) => EventsClient };
  return new module.BuildEventsApiClient({ apiKey: "bench-key", baseUrl: "https://builds.example.test/v1", maxRetries: 0, fetch: async () => answer(chunks) });
}

async function parserDirect(chunks: readonly Uint8Array[], json: boolean): Promise<number> {
  let count = 0;
  let sink: unknown;
  const parser = createParser({
    onEvent: (event) => {
      count++;
      sink = json ? JSON.parse(event.data) : event.data;
    },
  });
  const reader = answer(chunks).body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return sink === undefined ? 0 : count;
}

async function count(events: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of events) n++;
  return n;
}

export async function runEventStreams(): Promise<EventStreamsResult> {
  const payload = body();
  const chunks = chunksOf(payload);
  const client = await generatedClient(chunks);
  const ways: Array<{ id: string; label: string; run: () => Promise<number> }> = [
    { id: "fetch-text", label: "`fetch` body read as text (no parsing: the floor)", run: async () => ((await answer(chunks).text()).length > 0 ? EVENTS : 0) },
    { id: "parser-text", label: "`eventsource-parser` fed directly, data as text", run: () => parserDirect(chunks, false) },
    { id: "client-text", label: "generated client, text events (`watchNotices`)", run: () => count(client.watchNotices(ONCE)) },
    { id: "parser-json", label: "`eventsource-parser` fed directly, data `JSON.parse`d", run: () => parserDirect(chunks, true) },
    { id: "client-json", label: "generated client, JSON events checked against `LogLine` (`followBuildLog`)", run: () => count(client.followBuildLog({ path: { buildId: "b-31" } }, ONCE)) },
  ];
  // A warm-up round, then interleaved rounds (each starting with another way) so that drift hits every way alike.
  for (const way of ways) await way.run();
  const times = new Map(ways.map((way) => [way.id, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < ways.length; i++) {
      const way = ways[(i + round) % ways.length]!;
      const started = performance.now();
      const events = await way.run();
      times.get(way.id)!.push(performance.now() - started);
      if (events !== EVENTS) throw new Error(`${way.id} gave ${events} events, not ${EVENTS}`);
    }
  }
  const rows = ways.map((way) => {
    const elapsed = median(times.get(way.id)!);
    return { id: way.id, label: way.label, ms: elapsed, eventsPerSecond: (EVENTS / elapsed) * 1000, mbPerSecond: payload.length / 1e6 / (elapsed / 1000) };
  });
  const by = (id: string) => rows.find((row) => row.id === id)!;
  const baseline = (id: string) => (id.endsWith("json") ? by("parser-json") : by("parser-text"));
  const perEventUs = (id: string) => ((by(id).ms - baseline(id).ms) * 1000) / EVENTS;
  const table = markdownTable(
    ["Way", "Median time", "Events/s", "MB/s", "÷ eventsource-parser directly", "Added per event"],
    rows.map((row) => [
      row.label,
      `${row.ms.toFixed(1)} ms`,
      integer(row.eventsPerSecond),
      row.mbPerSecond.toFixed(1),
      row.id === "fetch-text" ? `${ratio(row.ms / by("parser-text").ms)} (of the text parse)` : ratio(row.ms / baseline(row.id).ms),
      row.id.startsWith("client") ? `${perEventUs(row.id).toFixed(2)} µs` : "–",
    ]),
  );
  const markdown = [
    table,
    "",
    `${integer(EVENTS)} events (${bytes(payload.length)}, one JSON log line each with its id) in ${integer(chunks.length)} chunks of ${bytes(CHUNK_BYTES)}, from an in-memory \`Response\`; median of ${ROUNDS} interleaved rounds after a warm-up. ` +
      "The client's rows include one request through the client (checks, headers) and every event's object; the JSON row also checks each event against its schema.",
  ].join("\n");
  return { events: EVENTS, bodyBytes: payload.length, rows, markdown };
}

if (isMain(import.meta.url)) {
  const result = await runEventStreams();
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(result)}\n` : `${result.markdown}\n`);
}
