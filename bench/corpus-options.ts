/**
 * The corpus benchmark's command line, and which documents a sitting measures: the sample or
 * every document, one shard of them, less those the results file already holds.
 */
import path from "node:path";
import { STABLE_SAMPLE } from "./corpus-documents.ts";
import type { ResultLine } from "./corpus-results.ts";
import { REPO_ROOT } from "./lib.ts";

export const DEFAULT_RESULTS = path.join(REPO_ROOT, "bench", "corpus-results.jsonl");
export const DEFAULT_REPORT = path.join(REPO_ROOT, "bench", "corpus.md");

export interface Shard {
  /** 1-based: the K of K/N. */
  index: number;
  count: number;
}

export interface CorpusOptions {
  /** Every document rather than the sample. */
  all: boolean;
  every: number;
  largest: number;
  jobs: number;
  shard?: Shard;
  /** Leave out documents the results files already hold. */
  resume: boolean;
  /** With resume: measure again the documents recorded by another commit of the generator. */
  rerunOlder: boolean;
  /** With resume: measure again the documents whose last line has a step that timed out or crashed. */
  rerunFailed: boolean;
  /** With resume: measure again the documents this generator refused or whose package did not type-check (after a fix). */
  rerunUnmet: boolean;
  /** Read, in order; new lines go to the first. */
  results: string[];
  /** Measure nothing: print the report of the results files. */
  report: boolean;
  /** With report: also write it to bench/corpus.md. */
  write: boolean;
  /** Each job measures in one worker process (bench/corpus-quick.ts): acceptance and type-checks, no comparable cost. */
  quick: boolean;
  /** Time limit of each step (a tool's command, a type-check). */
  timeoutS: number;
}

export class CorpusUsageError extends Error {}

export const USAGE = `usage: npm run bench:corpus -- [--all | --every N --largest N] [--shard K/N] [--resume [--rerun-older] [--rerun-failed] [--rerun-unmet]] [--jobs N] [--quick] [--timeout S] [--results FILE]…
       npm run bench:corpus -- --report [--write] [--results FILE]…`;

function wholeNumber(name: string, text: string | undefined, least = 1): number {
  const value = Number(text);
  if (text === undefined || text.trim() === "" || !Number.isInteger(value) || value < least) throw new CorpusUsageError(`--${name} takes a whole number of at least ${least}, not ${JSON.stringify(text ?? "")}`);
  return value;
}

function parseShard(text: string | undefined): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? "");
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new CorpusUsageError(`--shard takes K/N with 1 ≤ K ≤ N (e.g. 2/5), not ${JSON.stringify(text ?? "")}`);
  return { index, count };
}

/** Reads the arguments after `npm run bench:corpus --`; a mistake is a CorpusUsageError with a one-line reason. */
export function parseCorpusArgs(argv: readonly string[]): CorpusOptions {
  const options: CorpusOptions = { all: false, every: STABLE_SAMPLE.every, largest: STABLE_SAMPLE.largest, jobs: 1, resume: false, rerunOlder: false, rerunFailed: false, rerunUnmet: false, results: [], report: false, write: false, quick: false, timeoutS: 180 };
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i];
    given.add(arg);
    if (arg === "--all") options.all = true;
    else if (arg === "--every") options.every = wholeNumber("every", value(), 0);
    else if (arg === "--largest") options.largest = wholeNumber("largest", value(), 0);
    else if (arg === "--jobs") options.jobs = wholeNumber("jobs", value());
    else if (arg === "--timeout") options.timeoutS = wholeNumber("timeout", value());
    else if (arg === "--shard") options.shard = parseShard(value());
    else if (arg === "--resume") options.resume = true;
    else if (arg === "--rerun-older") options.rerunOlder = true;
    else if (arg === "--rerun-failed") options.rerunFailed = true;
    else if (arg === "--rerun-unmet") options.rerunUnmet = true;
    else if (arg === "--quick") options.quick = true;
    else if (arg === "--results") {
      const file = value();
      if (file === undefined || file.startsWith("--")) throw new CorpusUsageError("--results takes a file name");
      options.results.push(path.resolve(file));
    } else if (arg === "--report") options.report = true;
    else if (arg === "--write") options.write = true;
    else throw new CorpusUsageError(`unknown option ${JSON.stringify(arg)}`);
  }
  if (options.results.length === 0) options.results.push(DEFAULT_RESULTS);
  for (const rerun of ["--rerun-older", "--rerun-failed", "--rerun-unmet"]) if (given.has(rerun) && !options.resume) throw new CorpusUsageError(`${rerun} goes with --resume`);
  if (options.write && !options.report) throw new CorpusUsageError("--write goes with --report (a measuring run's report covers only what it measured)");
  if (options.all && (given.has("--every") || given.has("--largest"))) throw new CorpusUsageError("--all takes every document: --every and --largest choose a sample instead");
  const measuring = ["--all", "--every", "--largest", "--jobs", "--shard", "--resume", "--rerun-older", "--rerun-failed", "--rerun-unmet", "--timeout", "--quick"].filter((name) => given.has(name));
  if (options.report && measuring.length > 0) throw new CorpusUsageError(`--report measures nothing: ${measuring.join(", ")} choose what to measure`);
  return options;
}

/** The K-th of N deterministic slices of the documents: sorted by path, those whose index % N is K-1. */
export function shardOf(documents: readonly string[], shard: Shard | undefined): string[] {
  const sorted = [...documents].sort();
  return shard === undefined ? sorted : sorted.filter((_, index) => index % shard.count === shard.index - 1);
}

/** A step that gave no answer (timed out, crashed): the measurement failed, not the tool. Running out of the default heap is an answer. */
export function measurementFailed(line: Pick<ResultLine, "ours" | "ots">): boolean {
  const failed = (why: string | undefined) => why !== undefined && /^(timed out|crashed)/.test(why);
  return [line.ours, line.ots].some((tool) => failed(tool.refusal) || failed(tool.typecheck?.error));
}

/**
 * What this sitting measures of the chosen documents: all of them, or with resume those no results
 * file holds yet; with rerunOlder also those last recorded by another commit than `commit`, with
 * rerunFailed also those whose last line has a step that timed out or crashed, with rerunUnmet
 * also those this generator refused or whose package did not type-check.
 */
export function toMeasure(chosen: readonly string[], recorded: ReadonlyMap<string, Pick<ResultLine, "commit" | "ours" | "ots">>, options: Pick<CorpusOptions, "resume" | "rerunOlder" | "rerunFailed"> & Partial<Pick<CorpusOptions, "rerunUnmet">>, commit: string): { todo: string[]; skipped: number } {
  if (!options.resume) return { todo: [...chosen], skipped: 0 };
  const todo = chosen.filter((document) => {
    const line = recorded.get(document);
    const unmet = line !== undefined && !(line.ours.accepted && line.ours.typecheck?.ok === true);
    return line === undefined || (options.rerunOlder && line.commit !== commit) || (options.rerunFailed && measurementFailed(line)) || (options.rerunUnmet === true && unmet);
  });
  return { todo, skipped: chosen.length - todo.length };
}
