/**
 * What a pod costs per hour before it is created: the catalog's price for one GPU of its type on its
 * cloud, times its GPU count (`x-pod-cost` on the create operation says where each figure is), and
 * the refusal of a pod whose estimate passes `maxCostPerHourUsd`.
 */
import type { ApiResult, RequestOptions } from "../client-core.js";
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { checkNumber } from "../option-checks.js";
import { valueAt } from "../json-pointer.js";

/** `x-pod-cost`, as the generator read it: JSON pointers into the create body and the price answer. */
export interface PodCostSpec {
  /** The operation that answers one GPU type's prices (its only path parameter the type's id). */
  priceOperation: string;
  gpuTypeFrom: string;
  gpuCountFrom: string;
  defaultGpuCount: number;
  cloudFrom: string;
  defaultCloud: string;
  /** Per cloud, where the price answer holds the USD per hour for one GPU. */
  rates: Readonly<Record<string, string>>;
}

export interface PodCostEstimate {
  gpuTypeId: string;
  gpuCount: number;
  cloud: string;
  /** The catalog's list price for one GPU of the type on the cloud, USD per hour. */
  usdPerGpuHour: number;
  /** `usdPerGpuHour × gpuCount`: the pod's list rate. What it is billed is the pod's own `cost`. */
  usdPerHour: number;
}

/** Reads one GPU type's prices: the generated package binds it to the price operation. */
export type PriceReader = (gpuTypeId: string, options?: RequestOptions) => Promise<ApiResult<unknown>>;

/** Why a pod was not created: its estimate passes the limit, or there is none. Nothing was sent. */
export class PodCostLimitError extends SdkError {
  static {
    nameClass(this, "PodCostLimitError");
  }
  readonly estimate: PodCostEstimate | undefined;
  readonly maxCostPerHourUsd: number;

  constructor(estimate: PodCostEstimate | undefined, maxCostPerHourUsd: number, why?: string) {
    super(
      "cost_limit",
      estimate === undefined
        ? `the pod's cost cannot be estimated (${why ?? "no price"}), so it cannot be held under maxCostPerHourUsd ${maxCostPerHourUsd} USD; nothing was created`
        : `estimated ${estimate.usdPerHour} USD per hour (${estimate.gpuCount} × ${estimate.usdPerGpuHour} for ${estimate.gpuTypeId} on ${estimate.cloud}) exceeds maxCostPerHourUsd ${maxCostPerHourUsd}; nothing was created`,
    );
    this.estimate = estimate;
    this.maxCostPerHourUsd = maxCostPerHourUsd;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), estimate: this.estimate, maxCostPerHourUsd: this.maxCostPerHourUsd };
  }
}

/** What `estimatePodCost` could not do, said in a sentence; an estimate otherwise. */
export type EstimateAttempt = { estimate: PodCostEstimate } | { estimate: undefined; why: string };

/**
 * The estimate of a pod about to be created with `body`: one read of its GPU type's price. A pod
 * without a GPU type (a CPU pod) or a cloud without a price has none (`why` says which).
 */
export async function attemptPodCost(readPrice: PriceReader, spec: PodCostSpec, body: unknown, options?: RequestOptions): Promise<EstimateAttempt> {
  const gpuTypeId = valueAt(body, spec.gpuTypeFrom);
  if (typeof gpuTypeId !== "string" || gpuTypeId === "") return { estimate: undefined, why: "the pod names no GPU type" };
  const count = valueAt(body, spec.gpuCountFrom) ?? spec.defaultGpuCount;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1) return { estimate: undefined, why: "its GPU count is not a positive whole number" };
  const cloud = valueAt(body, spec.cloudFrom) ?? spec.defaultCloud;
  const ratePointer = typeof cloud === "string" && Object.prototype.hasOwnProperty.call(spec.rates, cloud) ? spec.rates[cloud] : undefined;
  if (typeof cloud !== "string" || ratePointer === undefined) return { estimate: undefined, why: `the catalog has no price for the cloud ${String(cloud)}` };
  const { data } = await readPrice(gpuTypeId, options);
  const usdPerGpuHour = valueAt(data, ratePointer);
  if (typeof usdPerGpuHour !== "number" || !Number.isFinite(usdPerGpuHour) || usdPerGpuHour < 0) {
    return { estimate: undefined, why: `the catalog gives ${gpuTypeId} no price on ${cloud}` };
  }
  return { estimate: { gpuTypeId, gpuCount: count, cloud, usdPerGpuHour, usdPerHour: roundUsd(usdPerGpuHour * count) } };
}

/** The estimate, or undefined when there is none (see `attemptPodCost`). */
export async function estimatePodCost(readPrice: PriceReader, spec: PodCostSpec, body: unknown, options?: RequestOptions): Promise<PodCostEstimate | undefined> {
  return (await attemptPodCost(readPrice, spec, body, options)).estimate;
}

/**
 * Creates the pod only when its estimate is at most `maxCostPerHourUsd`; otherwise (or when there
 * is no estimate) throws `PodCostLimitError` before the create request is sent.
 */
export async function createPodWithinBudget<R>(
  readPrice: PriceReader,
  create: () => Promise<R>,
  spec: PodCostSpec,
  body: unknown,
  maxCostPerHourUsd: number,
  options?: RequestOptions,
): Promise<R & { estimate: PodCostEstimate }> {
  // Required: an absent limit must not read as no limit.
  checkNumber("maxCostPerHourUsd", maxCostPerHourUsd ?? Number.NaN, { unit: "USD per hour", min: 0 });
  const attempt = await attemptPodCost(readPrice, spec, body, options);
  if (attempt.estimate === undefined) throw new PodCostLimitError(undefined, maxCostPerHourUsd, attempt.why);
  if (attempt.estimate.usdPerHour > maxCostPerHourUsd) throw new PodCostLimitError(attempt.estimate, maxCostPerHourUsd);
  const result = await create();
  return Object.assign(result as R & object, { estimate: attempt.estimate }) as R & { estimate: PodCostEstimate };
}

/** Sums of binary fractions drift (0.69 × 3 = 2.0699999999999994): kept to the micro-dollar. */
function roundUsd(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}
