/**
 * The pod helpers in one module, as the generated `pods.ts` imports them: the cost of a pod before it
 * is created and the refusal above a limit (cost.ts), waiting until it runs (wait.ts).
 */
export { PodCostLimitError, attemptPodCost, createPodWithinBudget, estimatePodCost } from "./cost.js";
export type { EstimateAttempt, PodCostEstimate, PodCostSpec, PriceReader } from "./cost.js";
export { DEFAULT_POD_POLL_INTERVAL_MS, DEFAULT_POD_WAIT_TIMEOUT_MS, PodWaitError, podState, waitForPod } from "./wait.js";
export type { PodReadinessSpec, PodState, PodWaitOptions, PodWaitReason } from "./wait.js";
export { valueAt } from "../json-pointer.js";
