/**
 * Part 1 and 2: what the generated layer costs on every call, and whether it holds on to memory.
 *
 * A loopback HTTP server runs in a child process (bench/server.ts) so its CPU time does not mix
 * with the client's. All contenders share Node's global fetch (undici, keep-alive by default) and
 * so the same connection pool. They run interleaved in rounds, the order rotating every round, so
 * machine noise (CPU frequency, other processes) lands on all of them alike.
 *
 *   node --expose-gc --import tsx bench/client-overhead.ts [--quick] [--json]
 *
 * Prints Markdown tables on stdout; with --json, one JSON line at the end for bench/run.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import createClient from "openapi-fetch";
import { GpuCloudClient, type GpuCloudClientOptions } from "../generated/gpu-cloud-client/src/index.ts";
import type { paths } from "../generated/gpu-cloud-client/src/schema.ts";
import { buildPayloads, JOB_ID, JOB_MODEL, RATE_LIMIT, RATE_LIMIT_POLICY } from "./payloads.ts";
import {
  bytes,
  GENERATED_SRC,
  integer,
  isMain,
  markdownTable,
  mean,
  percent,
  progress,
  quantile,
  ratio,
  REPO_ROOT,
  sorted,
  us,
} from "./lib.ts";

const API_KEY = "bench-key-0123456789";
/** The options the lead is adding; typed loosely so this file compiles before and after. */
type ValidationOptions = { validateRequests?: boolean; validateResponses?: boolean };

export interface Contender {
  id: string;
  label: string;
  call: () => Promise<unknown>;
}

export interface Operation {
  id: "listPods" | "getJobStatus";
  label: string;
  contenders: Contender[];
}

export interface ContenderStats {
  operation: string;
  id: string;
  label: string;
  calls: number;
  rps: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  /** Median over rounds of (this contender's median latency / raw fetch's) in the same round. */
  ratioToRaw: number;
  /** Same, against openapi-fetch alone: the goal's measure. */
  ratioToOpenapiFetch: number;
  ratioToOpenapiFetchP10: number;
  ratioToOpenapiFetchP90: number;
  /** Median over rounds of (this contender's mean / openapi-fetch's mean) in the same round. */
  meanRatioToOpenapiFetch: number;
  /** Extra time per call over openapi-fetch alone: median over rounds of (batch p50 − its batch p50). */
  extraOverOpenapiFetchMs: number;
}

export interface MemoryStats {
  operation: string;
  calls: number;
  firstMark: number;
  /** Heap after a full GC every `calls / 10` calls. */
  checkpoints: { calls: number; heapUsed: number }[];
  /** Least-squares slope of the checkpoints after the first mark, bytes per call. */
  regressionBytesPerCall: number;
  heapBefore: number;
  heapAt20k: number;
  heapAt100k: number;
  rssBefore: number;
  rssAfter: number;
  perCallBytes: number;
  /** Per call between the 20k and 100k marks: ~0 when growth does not scale with calls. */
  slopeBytesPerCall: number;
  flat: boolean;
  seconds: number;
}

export interface OverheadResult {
  server: { podsBytes: number; jobBytes: number };
  validation: { requestOption: boolean; requestValidatorsActive: boolean; responseValidatorsPresent: boolean };
  rounds: number;
  stats: ContenderStats[];
  /** The same contenders against an in-memory fetch: the layers' own CPU cost, no network. */
  inMemory: ContenderStats[];
  memory?: MemoryStats;
  goal: { ratio: number; p10: number; p90: number; meanRatio: number; extraUs: number; met: boolean; operation: string }[];
  markdown: string;
}

/** Starts bench/server.ts in a child process; resolves with its port once it listens. */
export async function startServer(): Promise<{ child: ChildProcess; port: number; podsBytes: number; jobBytes: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "bench", "server.ts")], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const info = await new Promise<{ port: number; podsBytes: number; jobBytes: number }>((resolve, reject) => {
    let buffer = "";
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline !== -1) resolve(JSON.parse(buffer.slice(0, newline)));
    });
  });
  child.removeAllListeners("exit");
  return { child, ...info };
}

export function stopServer(child: ChildProcess): void {
  child.stdin?.end();
  child.kill("SIGTERM");
}

export function generatedClient(base: string, validation: ValidationOptions, fetchImpl?: FetchLike): GpuCloudClient {
  const options: GpuCloudClientOptions & ValidationOptions = {
    apiKey: API_KEY,
    baseUrl: base,
    publicEndpointBaseUrl: base,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...validation,
  };
  return new GpuCloudClient(options);
}

export type FetchLike = (request: Request) => Promise<Response>;

/**
 * A stand-in for the platform's fetch that never touches the network: like the real one it
 * builds a Request from its arguments (`fetch(request, init)` copies the request), then answers
 * with the canned body of the route, built afresh (a Response body can be read once). Installed
 * as `globalThis.fetch`, so every contender takes the path it takes with the real fetch: the CPU
 * cost of the layers alone.
 */
export function inMemoryFetch(): (input: Request | string, init?: RequestInit) => Promise<Response> {
  const payloads = buildPayloads();
  const headers = {
    "content-type": "application/json",
    RateLimit: RATE_LIMIT,
    "RateLimit-Policy": RATE_LIMIT_POLICY,
  };
  return async (input, init) => {
    const request = new Request(input, init);
    const pathname = new URL(request.url).pathname;
    const body = pathname === "/v2/pods" ? payloads.pods : payloads.job;
    return new Response(body, { status: 200, headers });
  };
}

/** Runs `body` with `globalThis.fetch` replaced by the in-memory stand-in. */
export async function withInMemoryFetch<T>(body: () => Promise<T>): Promise<T> {
  const platformFetch = globalThis.fetch;
  globalThis.fetch = inMemoryFetch() as typeof fetch;
  try {
    return await body();
  } finally {
    globalThis.fetch = platformFetch;
  }
}

/** The five contenders for both operations, over one base URL (and one fetch, global by default). */
export function buildOperations(base: string, fetchImpl?: FetchLike): Operation[] {
  const authorization = { authorization: `Bearer ${API_KEY}` };
  const podsUrl = `${base}/v2/pods?includeClusterPods=true`;
  const jobUrl = `${base}/v2/${encodeURIComponent(JOB_MODEL)}/status/${encodeURIComponent(JOB_ID)}`;

  const rawJson = async (url: string) => {
    const response = fetchImpl ? await fetchImpl(new Request(url, { headers: authorization })) : await fetch(url, { headers: authorization });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return JSON.parse(await response.text());
  };

  const openapiFetch = createClient<paths>({
    baseUrl: base,
    headers: { Authorization: `Bearer ${API_KEY}` },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const unwrap = (result: { data?: unknown; error?: unknown; response: Response }) => {
    if (result.data === undefined) throw new Error(`HTTP ${result.response.status}`);
    return result.data;
  };

  const noValidation = generatedClient(base, { validateRequests: false, validateResponses: false }, fetchImpl);
  const requestValidation = generatedClient(base, { validateRequests: true, validateResponses: false }, fetchImpl);
  const fullValidation = generatedClient(base, { validateRequests: true, validateResponses: true }, fetchImpl);
  const podsParams = { query: { includeClusterPods: true } } as const;
  const jobParams = { path: { model_endpoint_id: JOB_MODEL, job_id: JOB_ID } } as const;

  return [
    {
      id: "listPods",
      label: "list pods (100 pods)",
      contenders: [
        { id: "raw", label: "raw fetch + JSON.parse", call: () => rawJson(podsUrl) },
        {
          id: "openapi-fetch",
          label: "openapi-fetch alone",
          call: async () => unwrap(await openapiFetch.GET("/v2/pods", { params: { query: { includeClusterPods: true } } })),
        },
        { id: "gen-novalidate", label: "generated, validateRequests: false", call: () => noValidation.listPods(podsParams) },
        { id: "gen-validate", label: "generated, validateRequests: true (default)", call: () => requestValidation.listPods(podsParams) },
        { id: "gen-validate-all", label: "generated, + validateResponses: true", call: () => fullValidation.listPods(podsParams) },
      ],
    },
    {
      id: "getJobStatus",
      label: "job status",
      contenders: [
        { id: "raw", label: "raw fetch + JSON.parse", call: () => rawJson(jobUrl) },
        {
          id: "openapi-fetch",
          label: "openapi-fetch alone",
          call: async () =>
            unwrap(await openapiFetch.GET("/v2/{model_endpoint_id}/status/{job_id}", { params: { path: { model_endpoint_id: JOB_MODEL, job_id: JOB_ID } } })),
        },
        { id: "gen-novalidate", label: "generated, validateRequests: false", call: () => noValidation.getJobStatus(jobParams) },
        { id: "gen-validate", label: "generated, validateRequests: true (default)", call: () => requestValidation.getJobStatus(jobParams) },
        { id: "gen-validate-all", label: "generated, + validateResponses: true", call: () => fullValidation.getJobStatus(jobParams) },
      ],
    },
  ];
}

/**
 * Is validation really wired in? A bad query must be refused before anything is sent, and with
 * `validateResponses` a body that breaks the contract must be refused.
 */
async function probeValidation(base: string): Promise<OverheadResult["validation"]> {
  const clientCore = fs.readFileSync(path.join(GENERATED_SRC, "runtime", "client-core.ts"), "utf8");
  let requestValidatorsActive = false;
  try {
    await generatedClient(base, { validateRequests: true }).listPods({ query: { includeClusterPods: "yes" as unknown as boolean } });
  } catch (error) {
    requestValidatorsActive = (error as Error).name === "InvalidRequestError" || (error as { kind?: string }).kind === "invalid_request";
  }
  let responseValidatorsPresent = false;
  const brokenBody: FetchLike = async () => new Response('{"pods":[{"id":1}]}', { headers: { "content-type": "application/json" } });
  try {
    await generatedClient(base, { validateResponses: true }, brokenBody).listPods();
  } catch (error) {
    responseValidatorsPresent = (error as { kind?: string }).kind === "invalid_response";
  }
  return { requestOption: clientCore.includes("validateRequests"), requestValidatorsActive, responseValidatorsPresent };
}

async function timeBatch(call: () => Promise<unknown>, count: number, latencies: number[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    latencies.push(performance.now() - t0);
  }
  return performance.now() - started;
}

/**
 * Warms every contender up, then runs `rounds` rounds, each contender `batch` calls per round,
 * the order rotating every round.
 */
async function measureOperation(operation: Operation, rounds: number, targetBatchMs: number): Promise<ContenderStats[]> {
  const contenders = operation.contenders;
  // Warm-up: JIT, connection pool, lazy initialisation. Also sizes the batch.
  const probe: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const contender of contenders) await timeBatch(contender.call, 200, pass === 2 ? probe : []);
  }
  const batch = Math.max(50, Math.round(targetBatchMs / (mean(probe) || 1)));
  progress(`${operation.label}: ${rounds} rounds × ${batch} calls × ${contenders.length} contenders`);

  const latencies = contenders.map(() => [] as number[]);
  const wall = contenders.map(() => 0);
  const roundMeans = contenders.map(() => [] as number[]);
  const roundMedians = contenders.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const index = (k + round) % contenders.length;
      const before = latencies[index]!.length;
      const elapsed = await timeBatch(contenders[index]!.call, batch, latencies[index]!);
      wall[index]! += elapsed;
      const batchLatencies = latencies[index]!.slice(before);
      roundMeans[index]!.push(mean(batchLatencies));
      roundMedians[index]!.push(quantile(sorted(batchLatencies), 0.5));
    }
  }

  const rawIndex = contenders.findIndex((c) => c.id === "raw");
  const ofIndex = contenders.findIndex((c) => c.id === "openapi-fetch");
  return contenders.map((contender, index) => {
    const all = sorted(latencies[index]!);
    const toRaw = sorted(roundMedians[index]!.map((m, r) => m / roundMedians[rawIndex]![r]!));
    const toOf = sorted(roundMedians[index]!.map((m, r) => m / roundMedians[ofIndex]![r]!));
    const meanToOf = sorted(roundMeans[index]!.map((m, r) => m / roundMeans[ofIndex]![r]!));
    const minusOf = sorted(roundMedians[index]!.map((m, r) => m - roundMedians[ofIndex]![r]!));
    const meanMs = mean(all);
    return {
      operation: operation.label,
      id: contender.id,
      label: contender.label,
      calls: all.length,
      rps: (all.length / wall[index]!) * 1000,
      meanMs,
      p50Ms: quantile(all, 0.5),
      p99Ms: quantile(all, 0.99),
      ratioToRaw: quantile(toRaw, 0.5),
      ratioToOpenapiFetch: quantile(toOf, 0.5),
      ratioToOpenapiFetchP10: quantile(toOf, 0.1),
      ratioToOpenapiFetchP90: quantile(toOf, 0.9),
      meanRatioToOpenapiFetch: quantile(meanToOf, 0.5),
      extraOverOpenapiFetchMs: quantile(minusOf, 0.5),
    };
  });
}

async function fullGc(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run node with --expose-gc");
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Heap before, after 20k and after 100k calls of one client, each after a full GC. */
async function measureMemory(base: string, total: number): Promise<MemoryStats> {
  const client = generatedClient(base, { validateRequests: true });
  const params = { path: { model_endpoint_id: JOB_MODEL, job_id: JOB_ID } } as const;
  const run = async (count: number) => {
    for (let i = 0; i < count; i++) await client.getJobStatus(params);
  };
  const first = Math.round(total / 5);
  const step = Math.round(total / 10);
  progress(`memory: ${integer(total)} calls of getJobStatus on one generated client`);
  await run(2_000); // warm, so JIT code and pools count as "before"
  await fullGc();
  const started = performance.now();
  const before = process.memoryUsage();
  const checkpoints: MemoryStats["checkpoints"] = [{ calls: 0, heapUsed: before.heapUsed }];
  let at20k = before;
  for (let done = 0; done < total; ) {
    await run(step);
    done += step;
    await fullGc();
    const usage = process.memoryUsage();
    checkpoints.push({ calls: done, heapUsed: usage.heapUsed });
    if (done === first) at20k = usage;
  }
  const after = process.memoryUsage();
  const slope = (after.heapUsed - at20k.heapUsed) / (total - first);
  // The two-point slope is at the mercy of one noisy reading; the regression over every checkpoint is not.
  const tail = checkpoints.filter((c) => c.calls >= first);
  const mx = mean(tail.map((c) => c.calls));
  const my = mean(tail.map((c) => c.heapUsed));
  let sxy = 0;
  let sxx = 0;
  for (const c of tail) {
    sxy += (c.calls - mx) * (c.heapUsed - my);
    sxx += (c.calls - mx) ** 2;
  }
  const regression = sxy / sxx;
  return {
    operation: "getJobStatus",
    calls: total,
    firstMark: first,
    checkpoints,
    regressionBytesPerCall: regression,
    heapBefore: before.heapUsed,
    heapAt20k: at20k.heapUsed,
    heapAt100k: after.heapUsed,
    rssBefore: before.rss,
    rssAfter: after.rss,
    perCallBytes: (after.heapUsed - before.heapUsed) / total,
    slopeBytesPerCall: slope,
    // A leak of even one small object per call (≥ 16 B) would show; GC noise stays well below.
    flat: regression < 8,
    seconds: (performance.now() - started) / 1000,
  };
}

export async function runOverhead(options: { quick?: boolean; memory?: boolean } = {}): Promise<OverheadResult> {
  const server = await startServer();
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const validation = await probeValidation(base);
    const operations = buildOperations(base);
    const rounds = options.quick ? 6 : 20;
    const targetBatchMs = options.quick ? 40 : 100;
    const stats: ContenderStats[] = [];
    for (const operation of operations) stats.push(...(await measureOperation(operation, rounds, targetBatchMs)));
    const inMemory: ContenderStats[] = [];
    await withInMemoryFetch(async () => {
      for (const operation of buildOperations(base)) {
        operation.label += ", in-memory fetch";
        inMemory.push(...(await measureOperation(operation, options.quick ? 4 : 8, targetBatchMs / 2)));
      }
    });
    const memory = options.memory === false ? undefined : await measureMemory(base, options.quick ? 25_000 : 100_000);
    const goal = operations.map((operation) => {
      const row = stats.find((s) => s.operation === operation.label && s.id === "gen-validate")!;
      return {
        operation: operation.label,
        ratio: row.ratioToOpenapiFetch,
        p10: row.ratioToOpenapiFetchP10,
        p90: row.ratioToOpenapiFetchP90,
        meanRatio: row.meanRatioToOpenapiFetch,
        extraUs: row.extraOverOpenapiFetchMs * 1000,
        met: row.ratioToOpenapiFetch <= 1,
      };
    });
    const result: OverheadResult = {
      server: { podsBytes: server.podsBytes, jobBytes: server.jobBytes },
      validation,
      rounds,
      stats,
      inMemory,
      memory,
      goal,
      markdown: "",
    };
    result.markdown = overheadMarkdown(result);
    return result;
  } finally {
    stopServer(server.child);
  }
}

const k = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : integer(n));

export function overheadMarkdown(result: OverheadResult): string {
  const baseline = (s: ContenderStats) => s.id === "raw" || s.id === "openapi-fetch";
  const rows = result.stats.map((s) => [
    s.operation,
    s.label,
    integer(s.rps),
    us(s.p50Ms),
    us(s.p99Ms),
    us(s.meanMs),
    ratio(s.ratioToRaw),
    baseline(s) ? "–" : percent(s.ratioToOpenapiFetch - 1),
    baseline(s) ? "–" : percent(s.meanRatioToOpenapiFetch - 1),
    baseline(s) ? "–" : us(s.extraOverOpenapiFetchMs),
  ]);
  const calls = result.stats[0]?.calls ?? 0;
  const v = result.validation;
  const lines = [
    markdownTable(
      ["Operation", "Contender", "req/s", "p50", "p99", "mean", "× raw fetch (p50)", "vs openapi-fetch (p50)", "vs openapi-fetch (mean)", "extra per call vs openapi-fetch (p50)"],
      rows,
    ),
    "",
    `Sequential calls (one in flight) over loopback keep-alive, server in a child process; bodies ${bytes(result.server.podsBytes)} (pods) and ${bytes(result.server.jobBytes)} (job), with \`RateLimit\` and \`RateLimit-Policy\` headers. ` +
      `${result.rounds} interleaved rounds (order rotating), ~${integer(calls)} calls per contender per operation after warm-up; req/s = calls ÷ time spent in them. ` +
      "Ratios are the median over rounds of each contender's batch p50 (or mean) against the same round's baseline, so drift and other processes' bursts cancel; the goal is judged on the p50 ratio.",
    `Request validation in this build: option ${v.requestOption ? "present" : "ABSENT"}, validators ${v.requestValidatorsActive ? "active (a bad query is refused before sending)" : "NOT active (rows with validation on measure the same code as off)"}; response validators ${v.responseValidatorsPresent ? "active (a body that breaks the contract is refused)" : "NOT active (validateResponses is a no-op)"}.`,
  ];
  lines.push(
    "",
    markdownTable(
      ["Without network (in-memory fetch)", "Contender", "p50", "mean", "× raw (p50)", "vs openapi-fetch (p50)", "extra per call vs openapi-fetch (p50)"],
      result.inMemory.map((s) => [
        s.operation.replace(", in-memory fetch", ""),
        s.label,
        us(s.p50Ms, 1),
        us(s.meanMs, 1),
        ratio(s.ratioToRaw),
        baseline(s) ? "–" : percent(s.ratioToOpenapiFetch - 1),
        baseline(s) ? "–" : us(s.extraOverOpenapiFetchMs, 1),
      ]),
    ),
    "",
    "The same contenders with `globalThis.fetch` replaced by a stand-in that answers from memory (it copies the Request as the platform's fetch does, then returns a fresh `Response`): what each layer costs in CPU alone, with no socket or server in the way.",
    "",
  );
  for (const goal of result.goal) {
    lines.push(
      `Goal (generated with request validation at most 1.00× openapi-fetch), ${goal.operation}: ${percent(goal.ratio - 1)} at p50 ` +
        `(rounds p10–p90: ${percent(goal.p10 - 1)} … ${percent(goal.p90 - 1)}; by mean ${percent(goal.meanRatio - 1)}; ${goal.extraUs.toFixed(0)} µs per call) → **${goal.met ? "met" : "missed"}**.`,
    );
  }
  if (result.memory) {
    const m = result.memory;
    lines.push(
      "",
      markdownTable(
        [
          "Heap (one generated client, getJobStatus, after forced GC)",
          "before",
          `after ${k(m.firstMark)} calls`,
          `after ${k(m.calls)} calls`,
          `per call (0→${k(m.calls)})`,
          `per call (${k(m.firstMark)}→${k(m.calls)}, two points)`,
          `per call (${k(m.firstMark)}→${k(m.calls)}, fit of ${m.checkpoints.filter((c) => c.calls >= m.firstMark).length} checkpoints)`,
          "RSS before → after",
        ],
        [
          [
            `${integer(m.calls)} calls in ${m.seconds.toFixed(1)} s`,
            bytes(m.heapBefore),
            bytes(m.heapAt20k),
            bytes(m.heapAt100k),
            `${m.perCallBytes.toFixed(2)} B`,
            `${m.slopeBytesPerCall.toFixed(2)} B`,
            `${m.regressionBytesPerCall.toFixed(2)} B`,
            `${bytes(m.rssBefore)} → ${bytes(m.rssAfter)}`,
          ],
        ],
      ),
      "",
      `Heap growth ${m.flat ? "does not scale with calls" : "SCALES with calls (possible leak)"}: ${m.regressionBytesPerCall.toFixed(2)} B per call from ${k(m.firstMark)} to ${k(m.calls)} calls ` +
        `(least-squares slope of the heap after a full GC every ${k(m.calls / 10)} calls; threshold 8 B: one leaked object per call would be ≥ 16 B). ` +
        `Heap after GC at each checkpoint: ${m.checkpoints.map((c) => bytes(c.heapUsed)).join(", ")}.`,
    );
  }
  return lines.join("\n");
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes("--quick");
  const json = process.argv.includes("--json");
  const result = await runOverhead({ quick, memory: !process.argv.includes("--no-memory") });
  // undici keeps idle sockets alive; do not wait for them (but let stdout drain first).
  process.stdout.write(json ? `${JSON.stringify(result)}\n` : `${result.markdown}\n`, () => process.exit(0));
}
