/**
 * The kit is an entry of its own: the main entry (and the standalone operations) never bundle it,
 * and the package's manifest exports it for ESM and CommonJS with its types.
 */
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";

const PACKAGE = path.join(repoRoot, "generated/gpu-cloud-client");

it("is not reached from the main entry or the operations entry", async () => {
  for (const entry of ["src/index.ts", "src/operations.ts"]) {
    const result = await esbuild.build({ entryPoints: [path.join(PACKAGE, entry)], bundle: true, write: false, metafile: true, format: "esm", platform: "browser", logLevel: "silent" });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes("src/runtime/client-core.ts")), entry).toBe(true);
    expect(inputs.filter((input) => /src\/testing\.ts|src\/runtime\/testing\//.test(input)), entry).toEqual([]);
  }
  // The testing entry itself does reach the kit.
  const kit = await esbuild.build({ entryPoints: [path.join(PACKAGE, "src/testing.ts")], bundle: true, write: false, metafile: true, format: "esm", platform: "browser", logLevel: "silent" });
  expect(Object.keys(kit.metafile.inputs).some((input) => input.includes("src/runtime/testing/test-fetch.ts"))).toBe(true);
});

it("is exported as ./testing for import and require, with types", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE, "package.json"), "utf8"));
  expect(manifest.exports["./testing"]).toEqual({
    import: { types: "./dist/testing.d.ts", default: "./dist/testing.js" },
    require: { types: "./dist/cjs/testing.d.ts", default: "./dist/cjs/testing.js" },
  });
  expect(manifest.typesVersions["*"].testing).toEqual(["./dist/cjs/testing.d.ts"]);
});
