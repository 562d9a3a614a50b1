/**
 * Cost first: estimates from the contract's pricing, maxCostUsd refusing a job or a batch before any
 * request, and maxTotalCostUsd, a batch's running budget.
 */
import { describe, expect, it, vi } from "vitest";
import {
  BudgetExceededError,
  CostLimitError,
  InvalidRequestError,
  JobWaitError,
  MODEL_CATALOG,
  TimeoutError,
  estimateCost,
  runAndWait,
  runMany,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, answer, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("cost first", () => {
  it("refuses to price an input the service would refuse, naming the field", () => {
    let error: any;
    try {
      estimateCost(VIDEO, { ...input(), duration: 7 } as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("input.duration");
    expect(error.message).toContain("input.duration: must be one of 5, 10, 15");
    // Missing required fields do not matter to a price.
    expect(estimateCost(VIDEO, { duration: 10 } as never)).toBe(1);
  });

  it("refuses, before any request, a job whose estimate exceeds maxCostUsd, stating both figures", async () => {
    await startFake();
    const error = await runAndWait(client, VIDEO, { ...input(), duration: 15, size: "1920*1080" }, { maxCostUsd: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(CostLimitError);
    expect(error.message).toContain("2.25 USD");
    expect(error.message).toContain("1.00 USD");
    expect(fake.log).toEqual([]);
  });

  it("accepts a job within maxCostUsd", async () => {
    await startFake();
    const result = await runAndWait(client, VIDEO, input(), { maxCostUsd: 0.5, now: time.now, sleep: time.sleep });
    expect(result.costUsd).toBe(0.5);
  });

  it("refuses maxCostUsd for a model without pricing rather than guess", async () => {
    await startFake();
    await expect(runAndWait(client, "some-unlisted-model", { prompt: "p" }, { maxCostUsd: 10 })).rejects.toBeInstanceOf(CostLimitError);
    expect(estimateCost("some-unlisted-model", { prompt: "p" })).toBeUndefined();
    expect(fake.log).toEqual([]);
  });

  it("prices the image model per megapixel, from width and height (defaults 1024)", async () => {
    // 1024 × 1024 = 1.048576 megapixels at 0.02 USD: 0.02097152, rounded to a millionth.
    expect(estimateCost("black-forest-labs-flux-1-dev", { prompt: "p" })).toBe(0.020972);
    expect(estimateCost("black-forest-labs-flux-1-dev", { prompt: "p", width: 512, height: 768 })).toBe(0.007864);
    await startFake();
    const twoLarge = [{ prompt: "a", width: 1536, height: 1536 }, { prompt: "b", width: 1536, height: 1536 }];
    // 2 × 2.359296 MP × 0.02 = 0.09437184 USD: over a 0.09 limit, nothing is sent.
    await expect(runMany(client, "black-forest-labs-flux-1-dev", twoLarge, { maxCostUsd: 0.09 })).rejects.toBeInstanceOf(CostLimitError);
    expect(fake.log).toEqual([]);
  });
});

describe("maxTotalCostUsd: a batch's running budget", () => {
  const runs = () => fake.log.filter((entry) => entry.path.endsWith("/run"));

  it("never submits a job that would pass the budget, counting reported costs, and says why", async () => {
    // 0.50 USD a job (5 s at 1280*720): a 1.20 USD budget takes two, whatever the concurrency.
    await startFake();
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3), input(4)], { concurrency: 4, maxTotalCostUsd: 1.2, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => item.ok)).toEqual([true, true, false, false]);
    const refused = batch.items[2]!;
    expect(!refused.ok && refused.error).toBeInstanceOf(BudgetExceededError);
    expect(!refused.ok && (refused.error as Error).message).toContain("would pass the batch's maxTotalCostUsd 1.20 USD (1.00 USD already spent or reserved)");
    expect(runs()).toHaveLength(2);
    expect(batch.totalCostUsd).toBeLessThanOrEqual(1.2);
  });

  it("frees the reservation of a job that was never accepted, and keeps it for one that failed", async () => {
    await startFake({ plan: (given) => ({ queuedPolls: 1, runningPolls: 1, outcome: given["prompt"] === "shot 1" ? "FAILED" : "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { concurrency: 1, maxTotalCostUsd: 1, now: time.now, sleep: time.sleep });
    // The failed job's 0.50 stays counted: the second fits, the third does not.
    expect(batch.items.map((item) => item.ok)).toEqual([false, true, false]);
    expect(runs()).toHaveLength(2);
  });

  it("with cancelOnBudget, cancels the running jobs once reported costs pass the budget", async () => {
    // The first job reports 1.50 USD where 0.50 was estimated: the second, still running, is cancelled.
    await startFake({
      plan: (given) => ({ queuedPolls: 1, runningPolls: given["prompt"] === "shot 1" ? 1 : 50, outcome: "COMPLETED" }),
      cost: (given) => (given["prompt"] === "shot 1" ? 1.5 : 0.5),
    });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { concurrency: 2, maxTotalCostUsd: 1.2, cancelOnBudget: true, now: time.now, sleep: time.sleep });
    expect(batch.items[0]!.ok).toBe(true);
    const second = batch.items[1]!;
    expect(!second.ok && second.error).toBeInstanceOf(JobWaitError);
    expect(!second.ok && (second.error as InstanceType<typeof JobWaitError>).cancellation?.cancelled).toEqual([second.jobId]);
    expect(fake.jobs.get(second.jobId!)?.cancelled).toBe(true);
    const third = batch.items[2]!;
    expect(!third.ok && third.error).toBeInstanceOf(BudgetExceededError);
    expect(runs()).toHaveLength(2);
    const missing = await runMany(client, VIDEO, [input()], { cancelOnBudget: true }).catch((e) => e);
    expect(missing.field).toBe("cancelOnBudget");
  });

  it("refuses, before any request, a budget it cannot hold: a model without pricing, a bad figure", async () => {
    await startFake();
    const unpriced = await runtimeJobs.runMany(client, MODEL_CATALOG, "some-unlisted-model", [{}], { maxTotalCostUsd: 5 }).catch((e) => e);
    expect(unpriced).toBeInstanceOf(CostLimitError);
    const bad = await runMany(client, VIDEO, [input()], { maxTotalCostUsd: -1 }).catch((e) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad.field).toBe("maxTotalCostUsd");
    expect(fake.log).toHaveLength(0);
  });

  const done = (status: string, extra: object = {}) => answer({ id: "j", status, ...extra });

  it("keeps a budget's reservation for a submission that got no answer (the job may exist)", async () => {
    let calls = 0;
    const stub = {
      runModel: vi.fn(async () => {
        calls += 1;
        if (calls === 1) throw new TimeoutError({ method: "POST", url: "https://x.test/run", timeoutMs: 1 });
        return { ...done("IN_QUEUE"), data: { id: `j${calls}`, status: "IN_QUEUE" } };
      }),
      getModelJob: vi.fn(async (_model: string, id: string) => ({ ...done("COMPLETED"), data: { id, status: "COMPLETED", output: { video_url: "https://f.test/v.mp4", cost: 0.5 } } })),
    };
    const batch = await runtimeJobs.runMany(stub as never, MODEL_CATALOG, VIDEO, [input(1), input(2), input(3)], { concurrency: 1, maxTotalCostUsd: 1, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => item.ok)).toEqual([false, true, false]);
    expect(stub.runModel).toHaveBeenCalledTimes(2);
  });
});
