/**
 * The runtime is generic: the brand (class names, log prefixes) comes from the contract through
 * the generated code, so no runtime template names it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runtimeFiles, TESTING_RUNTIME_FOLDER } from "../../generator/emit/runtime.ts";
import { TEMPLATES_DIR } from "../../generator/common/paths.ts";

describe("the runtime templates", () => {
  it("name no brand", () => {
    // The core and the test kit, which every package gets.
    const files = runtimeFiles();
    const count = (folder: string) => fs.readdirSync(path.join(TEMPLATES_DIR, "runtime", folder)).filter((name) => name.endsWith(".ts")).length;
    expect(files.length).toBe(count("") + count(TESTING_RUNTIME_FOLDER));
    for (const file of files) expect(file.contents, file.path).not.toMatch(/gpu[\s_-]?cloud/i);
  });
});
