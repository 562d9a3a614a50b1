/**
 * Each form of the pricing grammar on the models that use it, with figures worked out by hand in
 * the comments (not read back from the code), and what maxCostUsd does where no estimate can be
 * made: it refuses before any request, saying why.
 */
import { describe, expect, it, vi } from "vitest";
import { CostLimitError, MODEL_CATALOG, estimateCost, runAndWait } from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { answer, client, fake, startFake, time, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("the pricing grammar, form by form", () => {
  it("per megapixel: width × height ÷ 1,000,000 × rate", () => {
    // 768 × 512 = 393,216 px = 0.393216 MP; × 0.0024 = 0.0009437184, to a millionth 0.000944.
    expect(estimateCost("black-forest-labs-flux-1-schnell", { prompt: "p", width: 768, height: 512 })).toBe(0.000944);
  });

  it("per image: one unit per job, or a count from an input", () => {
    expect(estimateCost("qwen-image-t2i", { prompt: "p" })).toBe(0.02);
    expect(estimateCost("p-image-t2i", { prompt: "p" })).toBe(0.005);
    expect(estimateCost("seedream-v4-edit", { prompt: "p", images: ["https://images.example.org/a.png"] })).toBe(0.027);
    // No listed model takes a count; the grammar does: 3 images at 0.01 USD = 0.03.
    const catalog = {
      ...MODEL_CATALOG,
      validate: undefined,
      withDefaults: undefined,
      endpoints: { "batch-images": { kind: "image", pricing: { currency: "USD", unit: "image", unitsFrom: ["num_images"], unitsPer: 1, rate: 0.01 } } },
    };
    expect(runtimeJobs.estimateCost(catalog, "batch-images", { num_images: 3 })).toBe(0.03);
  });

  it("per second, the rate by resolution (and by draft mode)", () => {
    // Seedance: 6 s at 480p × 0.024 = 0.144; the defaults, 5 s at 720p × 0.052 = 0.26.
    expect(estimateCost("seedance-v1-5-pro-i2v", { prompt: "p", image: "https://images.example.org/a.png", duration: 6, resolution: "480p" })).toBe(0.144);
    expect(estimateCost("seedance-v1-5-pro-i2v", { prompt: "p", image: "https://images.example.org/a.png" })).toBe(0.26);
    // Pruna Video: 6 s at 1080p in draft × 0.01 = 0.06; the defaults, 5 s at 720p × 0.02 = 0.10.
    expect(estimateCost("p-video", { prompt: "p", duration: 6, resolution: "1080p", draft: true })).toBe(0.06);
    expect(estimateCost("p-video", { prompt: "p" })).toBe(0.1);
    // WAN 2.6 T2V, portrait 720p: 10 s × 0.10 = 1.00.
    expect(estimateCost("wan-2-6-t2v", { prompt: "p", size: "720*1280", duration: 10 })).toBe(1);
  });

  it("per fixed clip: per 5 s, and a started clip billed whole where the contract says so", () => {
    // WAN 2.2 I2V: 8 s ÷ 5 × 0.30 = 0.48, the page's own figure for 8 s.
    expect(estimateCost("wan-2-2-i2v-720", { prompt: "p", image: "https://images.example.org/a.png", duration: 8 })).toBe(0.48);
    // Kling v2.1: 7 s is two started clips, 2 × 0.45 = 0.90; 10 s also 0.90; 5 s 0.45.
    const kling = (duration: number) => estimateCost("kling-v2-1-i2v-pro", { prompt: "p", image: "https://images.example.org/a.png", duration });
    expect([kling(7), kling(10), kling(5)]).toEqual([0.9, 0.9, 0.45]);
  });

  it("flat tiers: 1K / 2K / 4K, a duration, a resolution and a duration", () => {
    const images = ["https://images.example.org/a.png"];
    expect(estimateCost("nano-banana-pro-edit", { prompt: "p", images })).toBe(0.14); // default 2k
    expect(estimateCost("nano-banana-pro-edit", { prompt: "p", images, resolution: "4k" })).toBe(0.24);
    expect(estimateCost("google-nano-banana-2-edit", { prompt: "p", images })).toBe(0.0875); // default 1k
    expect(estimateCost("sora-2-i2v", { prompt: "p", image: images[0]!, duration: 12 })).toBe(1.2);
    expect(estimateCost("sora-2-pro-i2v", { prompt: "p", image: images[0]!, size: "1080p", duration: 4 })).toBe(2);
    expect(estimateCost("infinitetalk", { prompt: "p", image: images[0]!, audio: "https://audio.example.org/a.mp3", size: "720p" })).toBe(0.5);
  });

  it("per 1,000 characters, counted as code points", () => {
    // "Ça va? 🙂" is 8 code points (the emoji one, though two UTF-16 units): 8 ÷ 1000 × 0.05 = 0.0004.
    expect(estimateCost("minimax-speech-02-hd", { prompt: "Ça va? 🙂" })).toBe(0.0004);
    expect(estimateCost("minimax-speech-02-hd", { prompt: "a".repeat(2000) })).toBe(0.1);
  });

  it("per million tokens in and out: an upper bound, max_tokens out and a token per UTF-8 byte in (+8 per message)", () => {
    expect(runtimeJobs.TOKEN_ALLOWANCE_PER_MESSAGE).toBe(8);
    const messages = [
      { role: "system" as const, content: "Answer in one sentence." }, // 23 bytes
      { role: "user" as const, content: "Why is the sky blue?" }, // 20 bytes
    ];
    // Granite: in 23 + 20 + 2 × 8 = 59, out 512 (the default): 571 × 10 / 1e6 = 0.00571.
    expect(estimateCost("granite-4-0-h-small", { messages })).toBe(0.00571);
    // With max_tokens 100: 159 × 10 / 1e6 = 0.00159.
    expect(estimateCost("granite-4-0-h-small", { messages, sampling_params: { max_tokens: 100 } })).toBe(0.00159);
    // Kimi K3: "héllo" is 6 bytes, in 6 + 8 = 14 × 3 = 42, out 2048 (default) × 15 = 30720: 30762 / 1e6.
    expect(estimateCost("moonshot-kimi", { messages: [{ role: "user", content: "héllo" }], model: "kimi-k3" })).toBe(0.030762);
    // Kimi K2.6 (default): in 4 + 8 = 12 × 0.95 = 11.4, out 100 × 4 = 400: 411.4 / 1e6, to a millionth 0.000411.
    expect(estimateCost("moonshot-kimi", { messages: [{ role: "user", content: "hey!" }], sampling_params: { max_tokens: 100 } })).toBe(0.000411);
    // Prompt models: "2+2=" is 4 bytes, in 12, out 88: 100 × 10 / 1e6 = 0.001; Cogito 3 + 8 + 489 = 500 × 0.5 / 1e6.
    expect(estimateCost("gpt-oss-120b", { prompt: "2+2=", max_tokens: 88 })).toBe(0.001);
    expect(estimateCost("qwen3-32b-awq", { prompt: "2+2=", max_tokens: 88 })).toBe(0.001);
    expect(estimateCost("cogito-671b-v2-1-fp8-dynamic", { prompt: "abc", max_tokens: 489 })).toBe(0.00025);
  });

  it("says why there is no estimate: a price per unit of the result, a file's length, a value without a published rate", () => {
    const reason = (model: string, input: unknown) => {
      const estimate = runtimeJobs.costEstimate(MODEL_CATALOG, model, input);
      return "reason" in estimate ? estimate.reason : `estimated ${estimate.usd}`;
    };
    expect(estimateCost("chatterbox-turbo", { prompt: "Hello" })).toBeUndefined();
    expect(reason("chatterbox-turbo", { prompt: "Hello" })).toMatch(/^priced per second of generated audio: .*result/);
    expect(reason("kling-v2-6-std-motion-control", { image: "https://images.example.org/a.png", video: "https://video.example.org/a.mp4", character_orientation: "video" })).toMatch(/reference video/);
    expect(reason("p-video", { prompt: "p", audio: "https://audio.example.org/a.mp3" })).toBe("input.audio is set, and the service then measures its file for the price");
    expect(reason("wan-2-5", { prompt: "p", image: "https://images.example.org/a.png", size: "832*480" })).toBe("no published price for input.size = 832*480");
    expect(reason("an-unlisted-model", {})).toBe("no published price");
  });
});

describe("maxCostUsd on every form", () => {
  it("refuses, before any request, a job it cannot price, naming the reason", async () => {
    await startFake();
    const error = await runAndWait(client, "chatterbox-turbo", { prompt: "Hello" }, { maxCostUsd: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(CostLimitError);
    expect(error.estimateUsd).toBeUndefined();
    expect(error.reason).toMatch(/generated audio/);
    expect(error.message).toContain("cannot be estimated (priced per second of generated audio");
    expect(error.toJSON().reason).toBe(error.reason);
    expect(fake.log).toEqual([]);
  });

  it("refuses a text job whose upper bound passes the limit, and runs one under it", async () => {
    await startFake();
    const messages = [{ role: "user" as const, content: "Why is the sky blue?" }];
    // In 20 + 8 = 28, out 512: 540 × 10 / 1e6 = 0.0054 > 0.005.
    const error = await runAndWait(client, "granite-4-0-h-small", { messages }, { maxCostUsd: 0.005 }).catch((e) => e);
    expect(error).toBeInstanceOf(CostLimitError);
    expect(error.estimateUsd).toBe(0.0054);
    expect(fake.log).toEqual([]);
  });

  it("adds up the reported costs of a list answer", async () => {
    const stub = {
      runModel: vi.fn(async () => answer({ id: "t1", status: "IN_QUEUE" })),
      getModelJob: vi.fn(async () =>
        answer({
          id: "t1",
          status: "COMPLETED",
          output: [
            { choices: [{ tokens: ["a"] }], cost: 0.00025, usage: { input: 4, output: 20 } },
            { choices: [{ tokens: ["b"] }], cost: 0.0005, usage: { input: 4, output: 46 } },
          ],
        }),
      ),
    };
    const result = await runtimeJobs.runAndWait(stub as never, MODEL_CATALOG, "gpt-oss-120b", { prompt: "x", max_tokens: 100 }, { maxCostUsd: 0.01, now: time.now, sleep: time.sleep });
    expect(result.costUsd).toBeCloseTo(0.00075, 10);
  });
});
