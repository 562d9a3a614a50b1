/**
 * Names the generated code takes from the contract must not collide with the runtime's: an
 * operation named like a member of the client's base class, a client class named like a runtime
 * export or a global, a schema alias named like an exported error class.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { CORE_METHOD_NAMES, packageNames, runtimeExports } from "../../generator/model/names.ts";
import { modelEndpointsReader } from "../../generator/extensions/model-endpoints/model.ts";
import { ClientCore } from "../../templates/runtime/client-core.ts";

describe("names the generator keeps for itself", () => {
  it("reserves every method of the client's base class, and then, for operations", () => {
    const members = Object.getOwnPropertyNames(ClientCore.prototype).filter((name) => name !== "constructor");
    expect(members.length).toBeGreaterThan(3);
    expect(members.filter((name) => !CORE_METHOD_NAMES.includes(name))).toEqual([]);
    expect(CORE_METHOD_NAMES).toContain("then");
  });

  it("leaves the per-model calls' names to operations unless the contract has model endpoints", async () => {
    const fixtures = path.join(import.meta.dirname, "../fixtures/contracts");
    const tmp = path.join(import.meta.dirname, "../../.tmp");
    fs.mkdirSync(tmp, { recursive: true });
    const dir = fs.mkdtempSync(path.join(tmp, "names-"));
    try {
      const spec = path.join(dir, "run-model.yaml");
      fs.writeFileSync(spec, fs.readFileSync(path.join(fixtures, "minimal.yaml"), "utf8").replace("operationId: get-status", "operationId: runModel"));
      const { api } = await generateFiles({ spec });
      expect(api.operations.map((o) => o.methodName)).toContain("runModel");
      expect(modelEndpointsReader.methodNames).toContain("runModel");
      const { api: models } = await generateFiles({ spec: path.join(fixtures, "models-run-only.yaml") });
      expect(models.extensions.map((e) => e.name)).toEqual(["model-endpoints"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("reads the runtime's exports, so schema aliases avoid them, and an extension's apart", () => {
    expect(runtimeExports()).toEqual(expect.arrayContaining(["ApiError", "NotFoundError", "ClientCore", "ApiResult", "ValidationIssue", "RateLimitState"]));
    expect(runtimeExports()).not.toContain("JobFailedError");
    expect(modelEndpointsReader.exportNames()).toEqual(expect.arrayContaining(["JobFailedError", "RateGate", "MODEL_CATALOG", "ModelInput"]));
    expect(packageNames("x", ["NotFoundError", "JobFailedError"], [], []).schemaAliases).toEqual(["NotFoundError2", "JobFailedError"]);
    expect(packageNames("x", ["NotFoundError", "JobFailedError"], [], modelEndpointsReader.exportNames()).schemaAliases).toEqual(["NotFoundError2", "JobFailedError2"]);
  });

  it("gives the client class a Client suffix when its name would shadow a runtime export or a global", () => {
    const named = (packageName: string) => packageNames(packageName, [], [], []).client;
    expect(named("gpu-cloud-client")).toBe("GpuCloudClient");
    expect(named("client-core")).toBe("ClientCoreClient");
    expect(named("api-result")).toBe("ApiResultClient");
    expect(named("@acme/promise")).toBe("PromiseClient");
    expect(named("record")).toBe("RecordClient");
    // Its core class would be the runtime's ClientCore.
    expect(named("client")).toBe("ClientClient");
    expect(named("@acme/client")).toBe("ClientClient");
  });

  it("exports the runtime's base error under the package's name, or the client class's when another export has it", async () => {
    const fixtures = path.join(import.meta.dirname, "../fixtures/contracts");
    const minimal = fs.readFileSync(path.join(fixtures, "minimal.yaml"), "utf8");
    // The fixture's one schema renamed so that its alias is the name the base error would take.
    const tmp = path.join(import.meta.dirname, "../../.tmp");
    fs.mkdirSync(tmp, { recursive: true });
    const dir = fs.mkdtempSync(path.join(tmp, "names-"));
    const withErrorSchema = path.join(dir, "acme.yaml");
    fs.writeFileSync(withErrorSchema, minimal.replaceAll("schemas/Status'", "schemas/AcmeError'").replace("    Status:\n", "    AcmeError:\n"));
    const baseErrorExport = async (spec: string, packageName: string) => {
      const { files } = await generateFiles({ spec, packageName });
      return files.find((file) => file.path === "src/index.ts")!.contents.match(/export \{ SdkError as (\w+) \} from "\.\/runtime\/error-base\.js";/)?.[1];
    };
    try {
      expect(await baseErrorExport(path.join(fixtures, "minimal.yaml"), "gpu-cloud-client")).toBe("GpuCloudError");
      // `ApiError` is a runtime export; `AcmeError` the alias of a schema.
      expect(await baseErrorExport(path.join(fixtures, "minimal.yaml"), "api-client")).toBe("ApiClientError");
      expect(await baseErrorExport(withErrorSchema, "acme-client")).toBe("AcmeClientError");
      expect(await baseErrorExport(withErrorSchema, "other-client")).toBe("OtherError");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
