/**
 * What a job costs before it is sent: the estimate from the contract's pricing, and the refusal of
 * jobs (or a batch) above `maxCostUsd`.
 */
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { InvalidRequestError } from "../errors.js";
import type { ModelCatalog } from "./types.js";
import { fieldPath, valueAtSegments } from "../json-pointer.js";
import { checkNumber } from "../option-checks.js";

/** The estimate is above `maxCostUsd`, or cannot be made (`reason` says why): nothing was sent. */
export class CostLimitError extends SdkError {
  static {
    nameClass(this, "CostLimitError");
  }
  readonly estimateUsd: number | undefined;
  readonly maxCostUsd: number;
  /** Why no estimate could be made, when none was. */
  readonly reason: string | undefined;

  constructor(model: string, estimateUsd: number | undefined, maxCostUsd: number, runsPerJob = 1, reason?: string) {
    const runs = runsPerJob > 1 ? ` (${runsPerJob} runs per job, counting retryFailed)` : "";
    super(
      "cost_limit",
      estimateUsd === undefined
        ? `the cost of a job on ${model} cannot be estimated (${reason ?? "no published price"}), so it cannot be held under maxCostUsd ${formatUsd(maxCostUsd)}; nothing was submitted`
        : `estimated cost ${formatUsd(estimateUsd)}${runs} exceeds maxCostUsd ${formatUsd(maxCostUsd)}; nothing was submitted`,
    );
    this.estimateUsd = estimateUsd;
    this.maxCostUsd = maxCostUsd;
    this.reason = estimateUsd === undefined ? (reason ?? "no published price") : undefined;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), estimateUsd: this.estimateUsd, maxCostUsd: this.maxCostUsd, reason: this.reason };
  }
}

export function formatUsd(amount: number): string {
  return `${amount.toFixed(2)} USD`;
}

/**
 * Tokens the chat template may add around each message (role, markers): an allowance, not a
 * figure the service publishes.
 */
export const TOKEN_ALLOWANCE_PER_MESSAGE = 8;

/**
 * The estimated cost in USD of one job, from the contract's pricing with the input's defaults
 * applied; undefined when it cannot be made (`costEstimate` says why): no published price, a
 * price per unit of the result (seconds of generated audio), or an input whose value has no
 * published rate.
 *
 * Token prices give an upper bound: the output part counts `max_tokens` (the service stops there),
 * the input part counts each UTF-8 byte of the prompt (or of each message's content) as a token,
 * which no byte-level tokenizer exceeds, plus TOKEN_ALLOWANCE_PER_MESSAGE per message.
 */
export function estimateCost(catalog: ModelCatalog, model: string, input: unknown): number | undefined {
  const estimate = costEstimate(catalog, model, input);
  return "usd" in estimate ? estimate.usd : undefined;
}

/** The estimate, or why there is none. */
export function costEstimate(catalog: ModelCatalog, model: string, input: unknown): { usd: number } | { reason: string } {
  const pricing = Object.hasOwn(catalog.endpoints, model) ? catalog.endpoints[model]?.pricing : undefined;
  if (!pricing) return { reason: "no published price" };
  if (pricing.unitsUnknown !== undefined) return { reason: `priced per ${pricing.unit}: ${pricing.unitsUnknown}` };
  // A price for an input the service would refuse (`duration: 7`) would mislead; missing fields are fine here.
  const problems = (catalog.validate?.(model, input) ?? []).filter((problem) => problem.keyword !== "required");
  if (problems.length > 0) {
    const fields = problems.map((problem) => ({ ...problem, path: fieldPath("input", problem.path) }));
    throw new InvalidRequestError(`cannot estimate the cost of an invalid input for ${model}:\n${fields.map((field) => `  ${field.path}: ${field.message}`).join("\n")}`, {
      field: fields[0]!.path,
      problems: fields,
    });
  }
  const complete = (catalog.withDefaults?.(model, input) ?? input) as Record<string, unknown>;
  const given = isRecord(complete) ? complete : {};
  for (const field of pricing.unknownWhen ?? []) {
    if (given[field] !== undefined) return { reason: `input.${field} is set, and the service then measures its file for the price` };
  }
  let rate = pricing.rate;
  if (rate === undefined) {
    const key = (pricing.rateFrom ?? []).map((field) => String(given[field])).join(",");
    if (pricing.rates === undefined || !Object.hasOwn(pricing.rates, key)) {
      return { reason: `no published price for ${(pricing.rateFrom ?? []).map((field) => `input.${field}`).join(",")} = ${key}` };
    }
    rate = pricing.rates[key]!;
  }
  let usd: number;
  if (pricing.tokens !== undefined) {
    if (typeof rate === "number") return { reason: "the contract's token pricing has no input and output rates" };
    const text = valueAtSegments(given, pricing.tokens.inputFrom);
    const inputTokens = tokenBound(text);
    if (inputTokens === undefined) return { reason: `input.${pricing.tokens.inputFrom.join(".")} is not text or a list of messages` };
    const maxOutput = valueAtSegments(given, pricing.tokens.maxOutputFrom) ?? pricing.tokens.maxOutputDefault;
    if (typeof maxOutput !== "number" || !Number.isFinite(maxOutput)) return { reason: `input.${pricing.tokens.maxOutputFrom.join(".")} is not a number` };
    usd = (inputTokens * rate.input + maxOutput * rate.output) / pricing.unitsPer;
  } else {
    if (typeof rate !== "number") return { reason: "the contract's per-token rates need token pricing" };
    let count = 1;
    if (pricing.charactersFrom !== undefined) {
      const text = given[pricing.charactersFrom];
      if (typeof text !== "string") return { reason: `input.${pricing.charactersFrom} is not text` };
      count = codePoints(text);
    }
    for (const field of pricing.unitsFrom ?? []) {
      const value = given[field];
      if (typeof value !== "number" || !Number.isFinite(value)) return { reason: `input.${field} is not a number` };
      count *= value;
    }
    let units = count / pricing.unitsPer;
    // A started clip is billed whole; the tolerance keeps 10 / 5 from becoming 3 after rounding noise.
    if (pricing.round === "up") units = Math.ceil(units - 1e-9);
    usd = rate * units;
  }
  // Rounded to a millionth of a dollar: 0.1 × 5 is 0.5, not 0.5000000000000001.
  return { usd: Math.round(usd * 1e6) / 1e6 };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}


/** At most one token per UTF-8 byte, plus the template's allowance per message (a prompt is one). */
function tokenBound(text: unknown): number | undefined {
  if (typeof text === "string") return utf8Bytes(text) + TOKEN_ALLOWANCE_PER_MESSAGE;
  if (!Array.isArray(text)) return undefined;
  let total = 0;
  for (const message of text) {
    const content = isRecord(message) ? message["content"] : undefined;
    if (typeof content !== "string") return undefined;
    total += utf8Bytes(content) + TOKEN_ALLOWANCE_PER_MESSAGE;
  }
  return total;
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function enforceCostLimit(catalog: ModelCatalog, model: string, inputs: readonly unknown[], maxCostUsd: number | undefined, runsPerJob = 1): void {
  // NaN would compare false with every estimate: no limit at all.
  checkNumber("maxCostUsd", maxCostUsd, { unit: "USD", min: 0 });
  if (maxCostUsd === undefined) return;
  let total = 0;
  for (const input of inputs) {
    const estimate = costEstimate(catalog, model, input);
    if (!("usd" in estimate)) throw new CostLimitError(model, undefined, maxCostUsd, 1, estimate.reason);
    total += estimate.usd;
  }
  // Each retry of a failed job is billed as a run: the worst case counts them all.
  total *= runsPerJob;
  if (total > maxCostUsd + 1e-9) throw new CostLimitError(model, Math.round(total * 1e6) / 1e6, maxCostUsd, runsPerJob);
}
