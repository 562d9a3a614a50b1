/**
 * A batch's running budget (`maxTotalCostUsd`): each job's estimate is reserved before it is
 * submitted and replaced by what it reported costing when it ends, so a submission that would pass
 * the budget is never sent, whatever the jobs before it turned out to cost.
 */
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { CostLimitError, costEstimate, formatUsd } from "./cost.js";
import type { ModelCatalog } from "./types.js";
import { checkNumber } from "../option-checks.js";

/** A job of a batch was not submitted: its estimate would have passed `maxTotalCostUsd`. */
export class BudgetExceededError extends SdkError {
  static {
    nameClass(this, "BudgetExceededError");
  }
  readonly maxTotalCostUsd: number;
  /** What the finished jobs cost and the running ones were estimated at, when this one was due. */
  readonly committedUsd: number;
  readonly estimateUsd: number;

  constructor(maxTotalCostUsd: number, committedUsd: number, estimateUsd: number) {
    super(
      "cost_limit",
      `not submitted: its estimate ${formatUsd(estimateUsd)} would pass the batch's maxTotalCostUsd ${formatUsd(maxTotalCostUsd)} (${formatUsd(committedUsd)} already spent or reserved)`,
    );
    this.maxTotalCostUsd = maxTotalCostUsd;
    this.committedUsd = committedUsd;
    this.estimateUsd = estimateUsd;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), maxTotalCostUsd: this.maxTotalCostUsd, committedUsd: this.committedUsd, estimateUsd: this.estimateUsd };
  }
}

export class BatchBudget {
  #committed = 0;
  #spent = 0;

  /**
   * Checks the option and that every input can be priced (a budget cannot hold a job it cannot
   * price), before anything is sent.
   */
  constructor(
    readonly maxTotalCostUsd: number,
    private readonly catalog: ModelCatalog,
    private readonly model: string,
    private readonly runsPerJob: number,
  ) {
    checkNumber("maxTotalCostUsd", maxTotalCostUsd, { unit: "USD", min: 0 });
  }

  /** The worst case of a job: its estimate for every run it may take (`retryFailed`). */
  estimate(input: unknown): number {
    const once = costEstimate(this.catalog, this.model, input);
    if (!("usd" in once)) throw new CostLimitError(this.model, undefined, this.maxTotalCostUsd, 1, once.reason);
    return once.usd * this.runsPerJob;
  }

  /** Reserves `estimate`, or says what refuses it. */
  reserve(estimate: number): BudgetExceededError | undefined {
    if (this.#committed + estimate > this.maxTotalCostUsd + 1e-9) return new BudgetExceededError(this.maxTotalCostUsd, round(this.#committed), round(estimate));
    this.#committed += estimate;
    return undefined;
  }

  /** A job ended: its reservation gives way to what it cost (its estimate when it did not say). */
  settle(estimate: number, costUsd: number): void {
    this.#committed += costUsd - estimate;
    this.#spent += costUsd;
  }

  /** Whether what the ended jobs cost has passed the budget (reported costs above their estimates). */
  get passed(): boolean {
    return this.#spent > this.maxTotalCostUsd + 1e-9;
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
