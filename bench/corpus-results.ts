/**
 * The corpus benchmark's results file: one JSON line per measured document, appended and flushed as
 * soon as the document is done, so that a run killed at any point loses at most the document in
 * progress and the next sitting can resume from it. Figures a step could not give are null.
 */
import fs from "node:fs";

/** The strict type-check of one tool's output, in a fresh process with Node's default heap. */
export interface TypeCheckResult {
  /** Zero diagnostics under strict, in the default heap, within the time limit. */
  ok: boolean;
  diagnostics?: number;
  firstDiagnostic?: string;
  /** Why the check did not finish: "heap exhausted (default heap, 4144 MiB)", "timed out after 180 s", "crashed (…)". */
  error?: string;
  ms: number | null;
  maxRssKiB: number | null;
  heapLimitMiB?: number;
}

/** One tool's command line on one document, then its output's type-check. */
export interface ToolResult {
  accepted: boolean;
  /** The first line of the refusal (or of the crash) when not accepted. */
  refusal?: string;
  ms: number | null;
  maxRssKiB: number | null;
  /** The package's `src` (this generator) or `schema.ts` (openapi-typescript), in bytes. */
  outputBytes?: number;
  typecheck?: TypeCheckResult;
}

export interface ResultLine {
  /** Path under node_modules. */
  document: string;
  sizeBytes: number;
  /** The generator's commit (short), "-dirty" when generator/ or templates/ had uncommitted changes. */
  commit: string;
  /** When the document was done (ISO 8601). */
  date: string;
  /** CPU, cores, memory and Node of the machine that measured it. */
  machine: string;
  /** Documents measured at a time: above 1, the figures shared the cores. */
  jobs: number;
  /**
   * "quick": both tools run in one worker process (bench/corpus-in-process.ts): acceptance and
   * type-checks count, but times are not a command's and no peak RSS is taken.
   */
  mode?: "quick";
  ours: ToolResult;
  ots: ToolResult;
}

/**
 * Every line of the files, in order (a file that does not exist yet holds none). A line that does
 * not parse (the one a killed run was writing) is left out and counted in `skipped`.
 */
export function readResultLines(files: readonly string[]): { lines: ResultLine[]; skipped: number } {
  const lines: ResultLine[] = [];
  let skipped = 0;
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    for (const text of fs.readFileSync(file, "utf8").split("\n")) {
      if (text.trim() === "") continue;
      try {
        const line = JSON.parse(text) as ResultLine;
        if (typeof line.document === "string" && line.ours && line.ots) lines.push(line);
        else skipped++;
      } catch {
        skipped++;
      }
    }
  }
  return { lines, skipped };
}

/** The last line recorded for each document: a re-measured document counts once, as last measured. */
export function latestByDocument(lines: readonly ResultLine[]): Map<string, ResultLine> {
  // By date, not by read order: new lines go to the first of several results files.
  const latest = new Map<string, ResultLine>();
  for (const line of lines) {
    const known = latest.get(line.document);
    if (known === undefined || line.date >= known.date) latest.set(line.document, line);
  }
  return latest;
}

/** Appends one line and flushes it to disk before returning. */
export function appendResult(file: string, line: ResultLine): void {
  const fd = fs.openSync(file, "a");
  try {
    fs.writeSync(fd, `${JSON.stringify(line)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Ends a line a killed run left unfinished, so that the next line appended starts on its own. */
export function endPartialLine(file: string): void {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return;
  const fd = fs.openSync(file, "r+");
  try {
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, fs.fstatSync(fd).size - 1);
    if (last[0] !== 0x0a) fs.writeSync(fd, "\n", fs.fstatSync(fd).size);
  } finally {
    fs.closeSync(fd);
  }
}
