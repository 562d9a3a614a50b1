/**
 * The errors of a non-2xx answer (api-errors.ts, error-response.ts) load with the first answer that
 * needs one: an app whose calls succeed does not ship them at startup, and an error answer still
 * gets its typed error.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GpuCloudClientCore, NotFoundError, UnprocessableEntityError } from "../../generated/gpu-cloud-client/src/index.ts";
import { deleteRegistry } from "../../generated/gpu-cloud-client/src/operations.ts";
import { bundleApp } from "../support/app-bundle.ts";
import { repoRoot } from "../support/prism.ts";

const PACKAGE = path.join(repoRoot, "generated/gpu-cloud-client/src");

describe("the errors of an error answer", () => {
  it("stay out of an app's startup code, in the chunk loaded with the first error answer", async () => {
    const { startup, onDemand } = await bundleApp(`import { GpuCloudClientCore } from ${JSON.stringify(path.join(PACKAGE, "index.ts"))};
import { listPods } from ${JSON.stringify(path.join(PACKAGE, "operations.ts"))};
listPods(new GpuCloudClientCore({ apiKey: "k" })).then((r) => console.log(r.data.pods.length));`);
    expect(startup).toContain("listPods");
    for (const name of ["UnprocessableEntityError", "PermissionDeniedError"]) {
      expect(startup).not.toContain(name);
      expect(onDemand).toContain(name);
    }
  });

  it("still gives the typed error of the status", async () => {
    const answers = [new Response(JSON.stringify({ title: "Not Found", status: 404, detail: "no such credential" }), { status: 404, headers: { "content-type": "application/problem+json" } })];
    const core = new GpuCloudClientCore({ apiKey: "k", baseUrl: "https://api.example.test", maxRetries: 0, fetch: async () => answers.shift() ?? new Response(null, { status: 422 }) });
    await expect(deleteRegistry(core, { path: { id: "r-1" } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteRegistry(core, { path: { id: "r-1" } })).rejects.toBeInstanceOf(UnprocessableEntityError);
  });
});
