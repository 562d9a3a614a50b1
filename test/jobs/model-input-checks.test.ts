/**
 * Each model's input checks live in a module of their own, loaded the first time the model is
 * used: a bad input is still refused before anything is sent, and an app that runs one model
 * does not load the others' checks.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GpuCloudClient, InvalidRequestError, estimateCost, loadedModelInputChecks, runAndWait } from "../../generated/gpu-cloud-client/src/index.ts";
import { repoRoot } from "../support/prism.ts";

describe("per-model input checks", () => {
  it("loads a model's checks on its first run, refusing a bad input before any request, and no other model's", async () => {
    const sent: string[] = [];
    const client = new GpuCloudClient({ apiKey: "k", publicEndpointBaseUrl: "https://api.test", fetch: async (request: Request) => (sent.push(request.url), new Response("{}", { status: 500 })) });
    expect(loadedModelInputChecks("sora-2-i2v")).toBeUndefined();
    const error = await client.runModel("sora-2-i2v", { prompt: "p", image: "https://images.example.org/a.png", duration: 6 as 4 }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("body.input.duration");
    expect(sent).toEqual([]);
    expect(loadedModelInputChecks("sora-2-i2v")).toBeDefined();
    expect(loadedModelInputChecks("sora-2-pro-i2v")).toBeUndefined();
    // The job helpers load them before pricing: defaults and the refusal of a bad value apply.
    const capped = await runAndWait(client, "vidu-q3-t2v", { prompt: "p", duration: 17 }, { maxCostUsd: 10 }).catch((e) => e);
    expect(capped).toBeInstanceOf(InvalidRequestError);
    expect(capped.field).toBe("input.duration");
    expect(sent).toEqual([]);
    // An unlisted model has no checks to load, and is sent as it is.
    expect(loadedModelInputChecks("my-own-model")).toBeUndefined();
    // estimateCost (synchronous) keeps every model's checks at hand.
    expect(estimateCost("vidu-q3-t2v", { prompt: "p" })).toBe(0.75);
  });

  it("writes each input schema's checks in a module that imports nothing of the shared validators", () => {
    const folder = path.join(repoRoot, "generated/gpu-cloud-client/src/model-inputs");
    const files = fs.readdirSync(folder);
    const modules = files.filter((file) => file.endsWith(".js"));
    expect(modules).toContain("Sora2Input.js");
    // 40 models, 38 input schemas: the three prompt-style text models share one; each module is JavaScript with its declarations.
    expect(modules).toHaveLength(38);
    expect(files.filter((file) => file.endsWith(".d.ts"))).toEqual(modules.map((file) => file.replace(/\.js$/, ".d.ts")));
    expect(files).toHaveLength(76);
    for (const file of modules) {
      const source = fs.readFileSync(path.join(folder, file), "utf8");
      const stem = file.replace(/\.js$/, "");
      expect(source).toContain(`export function validate${stem}(`);
      expect(source).not.toMatch(/from "\.\.\/validators\.js"/);
      expect(fs.readFileSync(path.join(folder, `${stem}.d.ts`), "utf8")).toContain(`export declare function validate${stem}(value: unknown): ValidationIssue[];`);
    }
  });
});
