/**
 * The runtime is generic: the brand (class names, log prefixes) comes from the contract through
 * the generated code, so no runtime template names it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeFiles } from "../../generator/emit/runtime.ts";
import { TEMPLATES_DIR } from "../../generator/common/paths.ts";

describe("the runtime templates", () => {
  it("name no brand", () => {
    const files = runtimeFiles();
    expect(files.length).toBe(fs.readdirSync(path.join(TEMPLATES_DIR, "runtime")).filter((name) => name.endsWith(".ts")).length);
    for (const file of files) expect(file.contents, file.path).not.toMatch(/gpu[\s_-]?cloud/i);
  });
});
