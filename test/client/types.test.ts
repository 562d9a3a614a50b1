import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

describe("types of the generated client", { timeout: TYPE_CHECK_BUDGET_MS }, () => {
  const usage = "test/client/type-usage.ts";
  const wrong = "test/client/.tmp-wrong-usage.ts";
  /** Both files in one program: the package they import is checked once. */
  let diagnostics: string[];
  beforeAll(() => {
    ts.sys.writeFile(
      path.join(repoRoot, wrong),
      `import type { GpuCloudClient } from "../../generated/gpu-cloud-client/src/index.ts";\n` +
        `export const f = (c: GpuCloudClient) => c.runModel("wan-2-6-i2v", { prompt: "p", image: "i", duration: 7 });\n`,
    );
    try {
      diagnostics = typeCheck([usage, wrong].map((file) => path.join(repoRoot, file)));
    } finally {
      ts.sys.deleteFile?.(path.join(repoRoot, wrong));
    }
  }, TYPE_CHECK_BUDGET_MS);

  it("accept right inputs and reject wrong ones (every @ts-expect-error is an error)", () => {
    expect(diagnostics.filter((line) => !line.startsWith(`${wrong}:`))).toEqual([]);
  });

  it("would be caught: a wrong input without @ts-expect-error fails to compile", () => {
    expect(diagnostics.filter((line) => line.startsWith(`${wrong}:`)).join("\n")).toMatch(/Type '7' is not assignable to type '5 \| 10 \| 15/);
  });

  it("the generated package type-checks on its own under strict, without Node types", () => {
    const dir = path.join(repoRoot, "generated/gpu-cloud-client");
    const config = ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(parsed.options.strict).toBe(true);
    expect(diagnostics).toEqual([]);
  });
});
