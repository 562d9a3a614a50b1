/**
 * What a job costs before it is sent: the estimate from the contract's pricing, and the refusal of
 * jobs (or a batch) above `maxCostUsd`.
 */
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { InvalidRequestError } from "../errors.js";
import type { ModelCatalog } from "./types.js";
import { fieldPath } from "../json-pointer.js";
import { checkNumber } from "../option-checks.js";

/** The estimate is above `maxCostUsd`, or cannot be made: nothing was sent. */
export class CostLimitError extends SdkError {
  static {
    nameClass(this, "CostLimitError");
  }
  readonly estimateUsd: number | undefined;
  readonly maxCostUsd: number;

  constructor(model: string, estimateUsd: number | undefined, maxCostUsd: number, runsPerJob = 1) {
    const runs = runsPerJob > 1 ? ` (${runsPerJob} runs per job, counting retryFailed)` : "";
    super(
      "cost_limit",
      estimateUsd === undefined
        ? `the cost of a job on ${model} cannot be estimated (no pricing in the contract), so it cannot be held under maxCostUsd ${formatUsd(maxCostUsd)}`
        : `estimated cost ${formatUsd(estimateUsd)}${runs} exceeds maxCostUsd ${formatUsd(maxCostUsd)}; nothing was submitted`,
    );
    this.estimateUsd = estimateUsd;
    this.maxCostUsd = maxCostUsd;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), estimateUsd: this.estimateUsd, maxCostUsd: this.maxCostUsd };
  }
}

export function formatUsd(amount: number): string {
  return `${amount.toFixed(2)} USD`;
}

/**
 * The estimated cost in USD of one job, from the contract's pricing with the input's defaults
 * applied; undefined when the model has no pricing or the input names no known rate.
 */
export function estimateCost(catalog: ModelCatalog, model: string, input: unknown): number | undefined {
  const pricing = Object.hasOwn(catalog.endpoints, model) ? catalog.endpoints[model]?.pricing : undefined;
  if (!pricing) return undefined;
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
  let product = 1;
  for (const field of pricing.unitsFrom) {
    const value = complete?.[field];
    if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
    product *= value;
  }
  const rateKey = pricing.rateFrom === undefined ? undefined : complete?.[pricing.rateFrom];
  const rate =
    pricing.rate ?? (typeof rateKey === "string" && pricing.rates !== undefined && Object.hasOwn(pricing.rates, rateKey) ? pricing.rates[rateKey] : undefined);
  if (rate === undefined) return undefined;
  // Rounded to a millionth of a dollar: 0.1 × 5 is 0.5, not 0.5000000000000001.
  return Math.round(((rate * product) / pricing.unitsPer) * 1e6) / 1e6;
}

export function enforceCostLimit(catalog: ModelCatalog, model: string, inputs: readonly unknown[], maxCostUsd: number | undefined, runsPerJob = 1): void {
  // NaN would compare false with every estimate: no limit at all.
  checkNumber("maxCostUsd", maxCostUsd, { unit: "USD", min: 0 });
  if (maxCostUsd === undefined) return;
  let total = 0;
  for (const input of inputs) {
    const estimate = estimateCost(catalog, model, input);
    if (estimate === undefined) throw new CostLimitError(model, undefined, maxCostUsd);
    total += estimate;
  }
  // Each retry of a failed job is billed as a run: the worst case counts them all.
  total *= runsPerJob;
  if (total > maxCostUsd + 1e-9) throw new CostLimitError(model, Math.round(total * 1e6) / 1e6, maxCostUsd, runsPerJob);
}
