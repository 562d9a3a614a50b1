/**
 * The corpus benchmark's Markdown report, built only from results lines (bench/corpus-results.ts):
 * counts, cost medians on the stable sample, the largest documents side by side, the refusals and
 * type-check failures grouped, and the goals. It says how much of the corpus the lines cover, so a
 * partial run reads as one.
 */
import { type CorpusDocument, largestOf, sampleOf, STABLE_SAMPLE } from "./corpus-documents.ts";
import type { ResultLine, ToolResult, TypeCheckResult } from "./corpus-results.ts";
import { bytes, integer, markdownTable, median, ms, ratio } from "./lib.ts";

export interface ReportInput {
  /** Every document of the corpus: the stable sample and the largest documents are taken from it. */
  corpus: readonly CorpusDocument[];
  /** The documents this report is about (the corpus, or what a run chose), by path. */
  scope: readonly string[];
  /** What `scope` is, for the coverage line: "the corpus", "the sample", "shard 1/300 of the corpus". */
  scopeLabel: string;
  /** The last line of each document, any order; lines outside `scope` are left out. */
  lines: readonly ResultLine[];
}

/** How many rows a grouped table shows before it sums up the rest. */
const MAX_GROUPS = 25;
const LARGEST_SIDE_BY_SIDE = 20;
const LARGEST_GOALS = 10;

type Pick = (line: ResultLine) => ToolResult;
const OURS: Pick = (line) => line.ours;
const OTS: Pick = (line) => line.ots;

/** A table, or a line saying it has no rows (a header alone reads as a broken table). */
function table(header: string[], rows: string[][], none = "None."): string {
  return rows.length === 0 ? none : markdownTable(header, rows);
}

function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

function finite(values: (number | null | undefined)[]): number[] {
  return values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
}

function mib(kib: number | null | undefined): string {
  return typeof kib === "number" && Number.isFinite(kib) ? bytes(kib * 1024) : "–";
}

function time(value: number | null | undefined): string {
  return typeof value === "number" ? ms(value) : "–";
}

function quotient(a: number | null | undefined, b: number | null | undefined): number {
  return typeof a === "number" && typeof b === "number" && b > 0 ? a / b : NaN;
}

/** Did not finish in the default heap or in time (rather than finishing with diagnostics). */
function unfinished(check: TypeCheckResult | undefined): boolean {
  return check?.error !== undefined;
}

function typeChecks(tool: ToolResult): boolean {
  return tool.accepted && tool.typecheck?.ok === true;
}

/** A reason with its specifics (quoted names, pointers, line numbers) taken out, so alike reasons group. */
export function reasonGroup(text: string): string {
  return text
    .replace(/^#\S*: /, "")
    .replace(/^(\S+\.ts):\d+: /, "$1: ")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/#\/\S+/g, "#/…")
    .replace(/\{[^{}\s]*\}/g, "{…}")
    .slice(0, 120);
}

function groups<T>(items: readonly T[], key: (item: T) => string): [string, T[]][] {
  const byKey = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    byKey.set(k, [...(byKey.get(k) ?? []), item]);
  }
  return [...byKey].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
}

function groupedTable(header: string[], grouped: [string, ResultLine[]][], row: (key: string, lines: ResultLine[]) => string[]): string {
  const shown = grouped.slice(0, MAX_GROUPS);
  const rest = grouped.slice(MAX_GROUPS);
  const rows = shown.map(([key, lines]) => row(key, lines).map(cell));
  if (rest.length > 0) rows.push([`${rest.length} other reasons`, integer(rest.reduce((sum, [, lines]) => sum + lines.length, 0)), ...header.slice(2).map(() => "")]);
  return table(header, rows);
}

function countsTable(lines: readonly ResultLine[]): string {
  const row = (name: string, pick: Pick) => {
    const accepted = lines.filter((l) => pick(l).accepted);
    const crashed = lines.filter((l) => !pick(l).accepted && /^(crashed|timed out|heap exhausted)/.test(pick(l).refusal ?? ""));
    const failing = accepted.filter((l) => !typeChecks(pick(l)));
    return [name, integer(accepted.length), integer(lines.length - accepted.length), integer(crashed.length), integer(accepted.length - failing.length), integer(failing.length), integer(failing.filter((l) => unfinished(pick(l).typecheck)).length)];
  };
  return markdownTable(
    ["", "accepted", "refused", "of which crashes or timeouts", "output type-checks (strict, default heap)", "output does not type-check", "of which heap exhausted or timed out"],
    [row("this generator", OURS), row("openapi-typescript", OTS)],
  );
}

/** Lines whose figures are a command's and a fresh process's (not the quick mode's). */
function measuredFully(lines: readonly ResultLine[]): ResultLine[] {
  return lines.filter((l) => l.mode !== "quick");
}

function mediansRow(label: string, lines: readonly ResultLine[]): string[] {
  const both = measuredFully(lines).filter((l) => l.ours.accepted && l.ots.accepted);
  const med = (pick: Pick, figure: "ms" | "maxRssKiB") => {
    const values = finite(both.map((l) => pick(l)[figure]));
    return values.length > 0 ? median(values) : NaN;
  };
  const [t1, t2, m1, m2] = [med(OURS, "ms"), med(OTS, "ms"), med(OURS, "maxRssKiB"), med(OTS, "maxRssKiB")];
  return [label, integer(both.length), ms(t1), ms(t2), ratio(t1 / t2), mib(m1), mib(m2), ratio(m1 / m2)];
}

function sideBySide(lines: readonly ResultLine[]): string {
  return table(
    ["document", "size", "this generator", "openapi-typescript", "time ×", "peak RSS here", "openapi-typescript", "RSS ×"],
    lines.map((l) => {
      // A refusal's time is not a generation's: no ratio then.
      const both = l.ours.accepted && l.ots.accepted;
      return [l.document, bytes(l.sizeBytes), l.ours.accepted ? time(l.ours.ms) : "refused", l.ots.accepted ? time(l.ots.ms) : "refused", both ? ratio(quotient(l.ours.ms, l.ots.ms)) : "–", l.ours.accepted ? mib(l.ours.maxRssKiB) : "–", l.ots.accepted ? mib(l.ots.maxRssKiB) : "–", both ? ratio(quotient(l.ours.maxRssKiB, l.ots.maxRssKiB)) : "–"].map(cell);
    }),
  );
}

function checkCell(tool: ToolResult, figure: string): string {
  if (!tool.accepted) return "refused";
  if (tool.typecheck === undefined) return "–";
  if (tool.typecheck.error !== undefined) return tool.typecheck.error.split(" (")[0]!.split(":")[0]!;
  return figure;
}

function typeCheckTable(lines: readonly ResultLine[]): string {
  return table(
    ["document", "package src", "openapi-typescript's schema.ts", "size ×", "tsc here", "openapi-typescript's", "time ×", "tsc peak RSS here", "openapi-typescript's", "RSS ×", "type-checks here"],
    lines.map((l) => {
      const [a, b] = [l.ours.typecheck, l.ots.typecheck];
      return [
        l.document,
        l.ours.outputBytes !== undefined ? bytes(l.ours.outputBytes) : "–",
        l.ots.outputBytes !== undefined ? bytes(l.ots.outputBytes) : "–",
        ratio(quotient(l.ours.outputBytes, l.ots.outputBytes)),
        checkCell(l.ours, time(a?.ms)),
        checkCell(l.ots, time(b?.ms)),
        ratio(quotient(a?.ms, b?.ms)),
        checkCell(l.ours, mib(a?.maxRssKiB)),
        checkCell(l.ots, mib(b?.maxRssKiB)),
        ratio(quotient(a?.maxRssKiB, b?.maxRssKiB)),
        !l.ours.accepted ? "–" : a?.ok ? "yes" : (a?.error ?? `no: ${a?.diagnostics ?? "?"} diagnostics`),
      ].map(cell);
    }),
  );
}

type Verdict = "yes" | "no" | "open";

/**
 * A goal over each of the largest documents. `value` is NaN where the two cannot be compared
 * (openapi-typescript refused it, say) and Infinity where this generator gave nothing to compare.
 * Open while some are unmeasured, unless one already misses.
 */
function eachLargest(largest: readonly string[], byDocument: ReadonlyMap<string, ResultLine>, value: (line: ResultLine) => number, limit: number): [string, Verdict] {
  const measured = largest.map((d) => byDocument.get(d)).filter((l): l is ResultLine => l !== undefined);
  const values = measured.map(value).filter((v) => !Number.isNaN(v));
  const worst = Math.max(...values);
  const misses = values.filter((v) => v > limit).length;
  const worstText = values.length === 0 ? "" : Number.isFinite(worst) ? `worst ${ratio(worst)}, ` : "worst: none here, ";
  const text = `${worstText}${misses} over; ${values.length} compared, ${measured.length} of ${largest.length} measured`;
  return [text, misses > 0 ? "no" : measured.length < largest.length || values.length === 0 ? "open" : "yes"];
}

function goalsTable(lines: readonly ResultLine[], scopeSize: number, sample: readonly ResultLine[], sampleSize: number, largest: readonly string[], byDocument: ReadonlyMap<string, ResultLine>): string {
  const both = measuredFully(sample).filter((l) => l.ours.accepted && l.ots.accepted);
  const medianRatio = (figure: "ms" | "maxRssKiB"): [string, Verdict] => {
    const r = median(finite(both.map((l) => l.ours[figure]))) / median(finite(both.map((l) => l.ots[figure])));
    const verdict: Verdict = !Number.isFinite(r) ? "open" : r > 1.3 ? "no" : sample.length === sampleSize ? "yes" : "open";
    return [`${ratio(r)} (${both.length} documents accepted by both; ${sample.length} of ${sampleSize} measured)`, verdict];
  };
  const generationRatio = (figure: "ms" | "maxRssKiB") => (l: ResultLine) => (l.ours.accepted && l.ots.accepted ? quotient(l.ours[figure], l.ots[figure]) : l.ots.accepted ? Infinity : NaN);
  // A package that does not finish its type-check in the default heap misses the goal outright.
  const checkRatio = (figure: "ms" | "maxRssKiB") => (l: ResultLine) => {
    if (!l.ours.accepted || !typeChecks(l.ots)) return NaN;
    return unfinished(l.ours.typecheck) ? Infinity : quotient(l.ours.typecheck?.[figure], l.ots.typecheck?.[figure]);
  };
  const everyDocument = (misses: number): Verdict => (misses > 0 ? "no" : lines.length < scopeSize ? "open" : "yes");
  const acceptedByOts = lines.filter((l) => l.ots.accepted);
  const refusedHere = acceptedByOts.filter((l) => !l.ours.accepted);
  const acceptedHere = lines.filter((l) => l.ours.accepted);
  const untyped = acceptedHere.filter((l) => !typeChecks(l.ours));
  const rows: [string, [string, Verdict]][] = [
    ["median time ≤ 1.3× openapi-typescript's command (stable sample, ratio of medians)", medianRatio("ms")],
    ["median peak RSS ≤ 1.3× openapi-typescript's command (stable sample, ratio of medians)", medianRatio("maxRssKiB")],
    [`time ≤ 2× openapi-typescript's on each of the ${largest.length} largest documents`, eachLargest(largest, byDocument, generationRatio("ms"), 2)],
    [`peak RSS ≤ 2× openapi-typescript's on each of the ${largest.length} largest documents`, eachLargest(largest, byDocument, generationRatio("maxRssKiB"), 2)],
    [`the package's tsc time ≤ 2× openapi-typescript's output's on each of the ${largest.length} largest`, eachLargest(largest, byDocument, checkRatio("ms"), 2)],
    [`the package's tsc peak RSS ≤ 2× openapi-typescript's output's on each of the ${largest.length} largest`, eachLargest(largest, byDocument, checkRatio("maxRssKiB"), 2)],
    ["every document openapi-typescript accepts is accepted here", [`${integer(refusedHere.length)} of ${integer(acceptedByOts.length)} refused here`, everyDocument(refusedHere.length)]],
    ["every output of this generator type-checks under strict in the default heap", [`${integer(untyped.length)} of ${integer(acceptedHere.length)} do not`, everyDocument(untyped.length)]],
  ];
  return markdownTable(["goal", "measured", "met"], rows.map(([goal, [measured, verdict]]) => [goal, measured, verdict].map(cell)));
}

function provenance(lines: readonly ResultLine[]): string {
  const counted = (values: string[]) =>
    groups(values, (v) => v)
      .map(([value, all]) => `${value} (${integer(all.length)})`)
      .join(", ");
  const dates = lines.map((l) => l.date.slice(0, 10)).sort();
  const heaps = [...new Set(lines.flatMap((l) => [l.ours.typecheck?.heapLimitMiB, l.ots.typecheck?.heapLimitMiB]).filter((h) => h !== undefined))];
  const quick = lines.length - measuredFully(lines).length;
  return [
    `Generator commits: ${counted(lines.map((l) => l.commit))}.`,
    `Measured the full way: ${integer(lines.length - quick)}; in quick mode (acceptance and type-checks only): ${integer(quick)}.`,
    `Measured ${dates[0]}${dates.at(-1) !== dates[0] ? ` to ${dates.at(-1)}` : ""} on ${counted(lines.map((l) => l.machine))}.`,
    `Documents at a time: ${counted(lines.map((l) => String(l.jobs ?? 1)))} (above 1, the figures shared the cores).`,
    `Type-checks in Node's default heap (${heaps.length > 0 ? heaps.map((h) => `${integer(h!)} MiB`).join(", ") : "–"}).`,
  ].join(" ");
}

export function corpusReport(input: ReportInput): string {
  const inScope = new Set(input.scope);
  const byDocument = new Map(input.lines.filter((l) => inScope.has(l.document)).map((l) => [l.document, l]));
  const lines = [...byDocument.values()].sort((a, b) => (a.document < b.document ? -1 : 1));
  const sampleDocuments = sampleOf(input.corpus, STABLE_SAMPLE.every, STABLE_SAMPLE.largest).map((d) => d.path);
  const sample = sampleDocuments.map((d) => byDocument.get(d)).filter((l): l is ResultLine => l !== undefined);
  const largest = largestOf(input.corpus, LARGEST_SIDE_BY_SIDE).map((d) => d.path);
  const largestMeasured = largest.map((d) => byDocument.get(d)).filter((l): l is ResultLine => l !== undefined);
  const goalsLargest = largest.slice(0, LARGEST_GOALS);

  const out: string[] = [];
  out.push("## Corpus: this generator beside openapi-typescript on real documents", "");
  const corpusSize = input.scope.length === input.corpus.length ? "" : `; the corpus has ${integer(input.corpus.length)} OpenAPI 3.x documents`;
  out.push(`**${integer(lines.length)} of ${integer(input.scope.length)} documents measured** (${input.scopeLabel}${corpusSize}).`);
  if (lines.length === 0) return `${out.join("\n")}\n`;
  out.push(provenance(lines), "");
  out.push(
    "Each step is a fresh process. Generation: each tool's command line, from Node's start to its exit, and its peak RSS (worker threads included). Type-check: the output under strict (this generator's package with its own tsconfig, openapi-typescript's `schema.ts` alone), the check's time in its process and that process's peak RSS; running out of the default heap or of time counts as not type-checking. Quick mode (`--quick`) runs both tools and both checks in one worker process per job, for acceptance and type-checks across the whole corpus; its lines give no time or memory to compare, and each distinct package runtime is checked in full once per worker, then only the package's own files.",
    "",
  );
  out.push(countsTable(lines), "");
  out.push("### Medians (documents both tools accept; × is the ratio of the medians)", "");
  out.push(
    markdownTable(
      ["documents", "both accept", "time here", "openapi-typescript", "time ×", "peak RSS here", "openapi-typescript", "RSS ×"],
      [mediansRow(`stable sample (every ${STABLE_SAMPLE.every}th and the ${STABLE_SAMPLE.largest} largest): ${sample.length} of ${sampleDocuments.length} measured`, sample), mediansRow(`every document measured the full way (${integer(measuredFully(lines).length)})`, lines)],
    ),
    "",
  );
  out.push(`### The ${LARGEST_SIDE_BY_SIDE} largest documents of the corpus (${largestMeasured.length} measured)`, "", sideBySide(largestMeasured), "");
  const goalsLargestMeasured = largestMeasured.filter((l) => goalsLargest.includes(l.document));
  out.push(`### The ${LARGEST_GOALS} largest (${goalsLargestMeasured.length} measured): the output's size and its type-check beside openapi-typescript's`, "", typeCheckTable(goalsLargestMeasured), "");

  const refused = lines.filter((l) => l.ots.accepted && !l.ours.accepted);
  out.push(`### Accepted by openapi-typescript, refused here (${integer(refused.length)}): first line of the refusal, grouped`, "");
  out.push(groupedTable(["reason", "documents", "example"], groups(refused, (l) => reasonGroup(l.ours.refusal ?? "")), (key, all) => [key, integer(all.length), all[0]!.document]), "");

  const failing = (pick: Pick) => lines.filter((l) => pick(l).accepted && !typeChecks(pick(l)));
  const firstProblem = (pick: Pick) => (l: ResultLine) => reasonGroup(pick(l).typecheck?.error ?? pick(l).typecheck?.firstDiagnostic ?? "not type-checked");
  for (const [name, pick] of [["this generator", OURS], ["openapi-typescript", OTS]] as const) {
    const outputs = failing(pick);
    out.push(`### Outputs of ${name} that do not type-check (${integer(outputs.length)}): first diagnostic, grouped`, "");
    out.push(groupedTable(["first diagnostic (or why the check did not finish)", "outputs", "example"], groups(outputs, firstProblem(pick)), (key, all) => [key, integer(all.length), all[0]!.document]), "");
  }

  out.push("### Goals", "", goalsTable(lines, input.scope.length, sample, sampleDocuments.length, goalsLargest, byDocument), "");
  out.push('"open": not all of the documents the goal is judged on are measured yet, and none of those measured misses it.');
  return `${out.join("\n")}\n`;
}
