/**
 * The profiled workload of bench/profile-client.ts (bundled by esbuild so the CPU profile's
 * positions map back to the sources): one contender, one operation, an in-memory fetch, so the
 * profile holds the layers' own work and no socket or server time. V8's CPU profiler (what
 * `node --cpu-prof` uses) runs only around the measured loop, after a warm-up.
 *
 *   node profile-worker.mjs <contender> <listPods|getJobStatus> <calls> <out.cpuprofile>
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import { buildOperations, inMemoryFetch } from "./client-overhead.ts";

// The platform-like stand-in, for every contender (see inMemoryFetch).
globalThis.fetch = inMemoryFetch() as typeof fetch;

const [contenderId = "gen-validate", operationId = "getJobStatus", callsText = "20000", out = "worker.cpuprofile"] = process.argv.slice(2);
const calls = Number(callsText);
const operation = buildOperations("http://127.0.0.1:9").find((o) => o.id === operationId);
const contender = operation?.contenders.find((c) => c.id === contenderId);
if (!contender) throw new Error(`unknown contender ${contenderId} or operation ${operationId}`);

for (let i = 0; i < 3_000; i++) await contender.call();

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const started = performance.now();
for (let i = 0; i < calls; i++) await contender.call();
const ms = performance.now() - started;
const { profile } = await session.post("Profiler.stop");
session.disconnect();
fs.writeFileSync(out, JSON.stringify(profile));
process.stdout.write(`${JSON.stringify({ ms, calls })}\n`);
