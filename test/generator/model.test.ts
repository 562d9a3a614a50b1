/**
 * The model (`buildModel`) carries everything the emitters read: the package's identity and
 * version, info's summary and contact, tags, example arguments, model endpoints' input examples
 * and the changelog; and the emitters that are not schema emitters take nothing but the model.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../generator/load/contract.ts";
import { buildModel } from "../../generator/model/index.ts";
import { readXSdk } from "../../generator/model/x-sdk.ts";
import { describeRequestLimits, readRequestLimits } from "../../generator/model/request-limits.ts";
import { readResultRetention } from "../../generator/extensions/model-endpoints/result-retention.ts";
import { modelEndpointsOf } from "../../generator/extensions/model-endpoints/model.ts";

const fixture = fileURLToPath(new URL("../fixtures/load/model-data/openapi.yaml", import.meta.url));

describe("buildModel", () => {
  it("carries what the package files need, so their emitter reads no document", async () => {
    const api = buildModel(await loadContract(fixture));
    expect(api).toMatchObject({
      packageName: "model-data-api-client",
      packageVersion: "1.2.3",
      version: "2024-06-01",
      summary: "Shows what the model carries.",
      contact: { name: "Model Data Team", url: "https://data.example.test" },
      changelog: fs.readFileSync(path.join(path.dirname(fixture), "CHANGELOG.md"), "utf8"),
    });
    const [putThing, ping] = api.operations;
    expect(putThing).toMatchObject({ tags: ["Things", "Extra"], exampleParams: { path: { id: "thing-1" }, body: { name: "a thing" } } });
    expect(ping).toMatchObject({ tags: [], exampleParams: undefined });
    expect(modelEndpointsOf(api)!.endpoints.map((endpoint) => [endpoint.id, endpoint.inputExample])).toEqual([["echo-1", { name: "an input" }]]);
  });
});

describe("x-sdk", () => {
  const info = { title: "Some API", version: "v2" };

  it("gives the package a name, a key variable and a version, the overrides first", () => {
    expect(readXSdk({ info })).toEqual({ packageName: "some-api-client", apiKeyEnvVar: "SOME_API_CLIENT_API_KEY", packageVersion: "2.0.0" });
    expect(readXSdk({ info, "x-sdk": { packageName: "@acme/some", packageVersion: "1.0.0-rc.1" } }, { apiKeyEnvVar: "SOME_KEY" })).toEqual({
      packageName: "@acme/some",
      apiKeyEnvVar: "SOME_KEY",
      packageVersion: "1.0.0-rc.1",
    });
  });

  it.each([
    [[1], "/x-sdk"],
    [{ packageName: 7 }, "/x-sdk/packageName"],
    [{ packageName: "Not A Name" }, "/x-sdk/packageName"],
    [{ apiKeyEnvVar: "lower" }, "/x-sdk/apiKeyEnvVar"],
    [{ packageVersion: "1.0" }, "/x-sdk/packageVersion"],
  ])("refuses x-sdk %j at %s", (sdk, pointer) => {
    expect(() => readXSdk({ info, "x-sdk": sdk })).toThrow(expect.objectContaining({ pointer }));
  });
});

describe("the stages", () => {
  const generatorDir = fileURLToPath(new URL("../../generator/", import.meta.url));
  /** Every TypeScript file under a folder of generator/, with the generator folders it imports from. */
  const importsOf = (folder: string) =>
    fs
      .readdirSync(path.join(generatorDir, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => {
        const full = path.join(generatorDir, folder, file);
        const text = fs.readFileSync(full, "utf8");
        const targets = [...text.matchAll(/^(?:import|export)[^"]*from "(\.[^"]+)";/gm)].map((m) => path.relative(generatorDir, path.resolve(path.dirname(full), m[1]!)));
        return { file: path.join(folder, file), text, stages: new Set(targets.map((target) => target.split(path.sep)[0]!)) };
      });

  it.each([
    ["load", ["common", "load"]],
    ["model", ["common", "load", "model", "extensions"]],
    ["emit", ["common", "load", "model", "extensions", "emit"]],
    ["write", ["common", "write", "emit"]],
    ["cli", ["common", "cli", "emit", "generate.ts"]],
  ])("%s imports only from the stages before it", (folder, allowed) => {
    for (const { file, stages } of importsOf(folder)) expect([...stages].filter((stage) => !allowed.includes(stage)), file).toEqual([]);
  });

  it("reaches another stage only through its door (index.ts), but for types", () => {
    const doors = new Set(["load", "model", "emit", "write"]);
    for (const folder of ["cli", "emit", "write", "model", "extensions"]) {
      for (const { file, text } of importsOf(folder)) {
        for (const match of text.matchAll(/^import (?!type )[^"]*from "(\.[^"]+)";/gm)) {
          const target = path.relative(generatorDir, path.resolve(path.dirname(path.join(generatorDir, file)), match[1]!)).split(path.sep);
          const stage = target[0]!;
          // Inside its own stage, or an extension's side of it, a module may reach any file.
          if (!doors.has(stage) || file.startsWith(`${stage}${path.sep}`) || folder === "extensions") continue;
          expect(target.slice(1).join("/"), `${file} imports ${match[1]}`).toBe("index.ts");
        }
      }
    }
  });

  it("hands the contract only to the schema emitters: the other emitters, the extensions' included, take the model", () => {
    // The emit stage's door and the schema emitters; the extensions' model-stage sides.
    const schemaEmitters = /^emit\/(schema-types|validators|dates)\/|^emit\/index\.ts$|^extensions\/readers?\.ts$|\/(model|endpoints|pricing|roles|terminal-statuses|result-retention)\.ts$/;
    const emitters = [...importsOf("emit"), ...importsOf("extensions")].filter(({ file }) => !schemaEmitters.test(file));
    expect(emitters.map((e) => e.file)).toEqual(expect.arrayContaining(["emit/client.ts", "emit/package.ts", "extensions/model-endpoints/emit-jobs.ts"]));
    for (const { file, text, stages } of emitters) {
      expect(stages.has("load"), file).toBe(false);
      expect(text, file).not.toMatch(/LoadedContract/);
    }
  });
});

describe("x-model-endpoints pricing", () => {
  const contract = fileURLToPath(new URL("../../openapi/openapi.yaml", import.meta.url));
  const text = fs.readFileSync(contract, "utf8");
  const variant = async (from: string, to: string) => {
    expect(text).toContain(from);
    const scratch = path.join(path.dirname(contract), "..", ".tmp");
    fs.mkdirSync(scratch, { recursive: true });
    const dir = fs.mkdtempSync(path.join(scratch, "pricing-"));
    try {
      const file = path.join(dir, "openapi.yaml");
      fs.writeFileSync(file, text.replace(from, to));
      return buildModel(await loadContract(file));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("reads a rate picked by an input property, and a fixed rate over a product of properties", async () => {
    const api = buildModel(await loadContract(contract));
    const pricing = Object.fromEntries(modelEndpointsOf(api)!.endpoints.map((m) => [m.id, m.pricing]));
    expect(pricing["wan-2-6-i2v"]).toMatchObject({ unit: "second", unitsFrom: ["duration"], unitsPer: 1, rateFrom: ["size"], rates: { "1280*720": 0.1, "1920*1080": 0.15 } });
    expect(pricing["black-forest-labs-flux-1-dev"]).toMatchObject({ unit: "megapixel", unitsFrom: ["width", "height"], unitsPer: 1_000_000, rate: 0.02 });
  });

  it("reads the other forms: tokens with the cap's schema default, rates by two inputs, characters, a started clip, no estimate", async () => {
    const api = buildModel(await loadContract(contract));
    const pricing = Object.fromEntries(modelEndpointsOf(api)!.endpoints.map((m) => [m.id, m.pricing]));
    expect(pricing["granite-4-0-h-small"]).toMatchObject({ unitsPer: 1_000_000, tokens: { inputFrom: ["messages"], maxOutputFrom: ["sampling_params", "max_tokens"], maxOutputDefault: 512 }, rate: { input: 10, output: 10 } });
    expect(pricing["moonshot-kimi"]).toMatchObject({ rateFrom: ["model"], rates: { "kimi-k3": { input: 3, output: 15 } } });
    expect(pricing["p-video"]).toMatchObject({ unitsFrom: ["duration"], rateFrom: ["resolution", "draft"], unknownWhen: ["audio"] });
    expect(pricing["minimax-speech-02-hd"]).toMatchObject({ charactersFrom: "prompt", unitsPer: 1000, rate: 0.05 });
    expect(pricing["kling-v2-1-i2v-pro"]).toMatchObject({ unitsFrom: ["duration"], unitsPer: 5, round: "up", rate: 0.45 });
    expect(pricing["chatterbox-turbo"]!.unitsUnknown).toMatch(/result/);
    expect(pricing["qwen-image-t2i"]).toEqual({ currency: "USD", unit: "image", unitsPer: 1, rate: 0.02, formula: "cost = 0.02 per job (one image)" });
  });

  it.each([
    ["      rate: 0.02\n", "      rate: 0.02\n      rates: { a: 1 }\n", /x-model-endpoints\/black-forest-labs-flux-1-dev\/pricing: has both a fixed `rate` and `rates`/],
    ["      rate: 0.02\n", "", /x-model-endpoints\/black-forest-labs-flux-1-dev\/pricing: needs a fixed `rate`, or `rates`/],
    ["      unitsFrom: [/width, /height]\n", "      unitsFrom: [/width, /prompt]\n", /pricing\/unitsFrom\/1: the input property "prompt" is not a number/],
    ["      unitsPer: 1000000\n", "      unitsPer: 0\n", /pricing\/unitsPer: must be a positive number/],
    ["      unitsFrom: [/width, /height]\n", "      unitsFrom: [/width, /depth]\n", /pricing\/unitsFrom\/1: the input schema ImageInput has no property "depth"/],
    ["      rate: 0.02\n", "      rate: -1\n", /pricing\/rate: must be a non-negative number/],
    ["        maxOutputFrom: /sampling_params/max_tokens\n", "        maxOutputFrom: /sampling_params/max_words\n", /tokens\/maxOutputFrom: the input schema GraniteInput has no property "sampling_params.max_words"/],
    ["      rate: { input: 10, output: 10 }\n", "      rate: 10\n", /granite-4-0-h-small\/pricing\/rate: token pricing needs \{input, output\}/],
    ["      charactersFrom: /prompt\n", "      charactersFrom: /speed\n", /pricing\/charactersFrom: the input property "speed" is not a string/],
    ["      round: up\n", "      round: down\n", /pricing\/round: must be "up"/],
    ["      unknownWhen: [/audio]\n", "      unknownWhen: [/audio]\n      discount: 0.5\n", /p-video\/pricing\/discount: is not a pricing key/],
    ["      unitsUnknown: the length of the speech is known only from the result\n", "      unitsUnknown: ''\n", /pricing\/unitsUnknown: must say why/],
    ["      rateFrom: [/size, /duration]\n", "      rateFrom: [/size, /length]\n", /pricing\/rateFrom\/1: the input schema Sora2ProInput has no property "length"/],
  ])("refuses a pricing it cannot compute, located (%#)", async (from, to, message) => {
    await expect(variant(from, to)).rejects.toThrow(message);
  });
});

describe("x-request-limits", () => {
  const at = "/paths/~1v2~1{model_endpoint_id}~1run/post";

  it("reads each job operation's documented limits from the contract", async () => {
    const api = buildModel(await loadContract(fileURLToPath(new URL("../../openapi/openapi.yaml", import.meta.url))));
    const limits = Object.fromEntries(api.operations.filter((o) => o.requestLimits).map((o) => [o.operationId, o.requestLimits]));
    expect(limits).toEqual({
      runSync: { requests: 2000, windowSeconds: 10, concurrent: 400 },
      run: { requests: 1000, windowSeconds: 10, concurrent: 200 },
      getJobStatus: { requests: 2000, windowSeconds: 10, concurrent: 400 },
      streamJob: { requests: 2000, windowSeconds: 10, concurrent: 400 },
      cancelJob: { requests: 100, windowSeconds: 10, concurrent: 20 },
      purgeQueue: { requests: 2, windowSeconds: 10 },
    });
    expect(api.operations.find((o) => o.operationId === "listPods")!.requestLimits).toBeUndefined();
  });

  it("reads requests per window and, when given, the concurrent cap", () => {
    expect(readRequestLimits({}, at)).toBeUndefined();
    expect(readRequestLimits({ "x-request-limits": { requests: 5, windowSeconds: 0.5 } }, at)).toEqual({ requests: 5, windowSeconds: 0.5 });
    expect(describeRequestLimits({ requests: 1, windowSeconds: 10, concurrent: 1 })).toBe("1 request per 10 s, 1 at once");
  });

  it.each([
    [[1000], "", /must be an object/],
    [{ windowSeconds: 10 }, "/requests", /must be a positive integer \(requests allowed per window\)/],
    [{ requests: 1.5, windowSeconds: 10 }, "/requests", /positive integer/],
    [{ requests: 10, windowSeconds: 0 }, "/windowSeconds", /positive number of seconds/],
    [{ requests: 10, windowSeconds: "10" }, "/windowSeconds", /positive number of seconds/],
    [{ requests: 10, windowSeconds: 10, concurrent: 0 }, "/concurrent", /requests in flight at once/],
    [{ requests: 10, windowSeconds: 10, concurent: 2 }, "/concurent", /is not a request limit/],
    [{ requests: 10, windowSeconds: 10, "a/b": 2 }, "/a~1b", /is not a request limit/],
  ])("refuses %j, located at x-request-limits%s", (limits, where, message) => {
    expect(() => readRequestLimits({ "x-request-limits": limits }, at)).toThrow(expect.objectContaining({ pointer: `${at}/x-request-limits${where}`, message: expect.stringMatching(message) }));
  });
});

describe("x-result-retention-seconds", () => {
  const at = "/paths/~1v2~1{model_endpoint_id}~1run/post";

  it("reads how long the service keeps a job's results after run and runsync (SERVICE-NOTES: 30 minutes, 1 minute)", async () => {
    const api = buildModel(await loadContract(fileURLToPath(new URL("../../openapi/openapi.yaml", import.meta.url))));
    expect(modelEndpointsOf(api)!.resultRetentionSeconds).toEqual({ run: 1800, runsync: 60 });
  });

  it.each([
    [0, "run", /positive whole number of seconds/],
    [1.5, "runsync", /positive whole number of seconds/],
    ["60", "run", /positive whole number of seconds/],
    [60, "status", /only for the operation with x-model-endpoint-role "run" or "runsync"/],
    [60, undefined, /only for the operation/],
  ] as const)("refuses %j on a %s operation, located", (value, role, message) => {
    expect(() => readResultRetention({ "x-result-retention-seconds": value }, at, role)).toThrow(
      expect.objectContaining({ pointer: `${at}/x-result-retention-seconds`, message: expect.stringMatching(message) }),
    );
  });
});
