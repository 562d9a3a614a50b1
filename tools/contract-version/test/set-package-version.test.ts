/**
 * Writing x-sdk.packageVersion into the contract: a one-line edit, nothing else in the file moves.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { contractPath } from "../../../test/support/prism.ts";
import { setPackageVersion } from "../set-package-version.ts";

describe("writing the version", () => {
  it("changes only x-sdk.packageVersion in the real contract", () => {
    const text = fs.readFileSync(contractPath, "utf8");
    const updated = setPackageVersion(text, "9.8.7");
    const before = text.split("\n");
    const after = updated.split("\n");
    const added = after.filter((line) => !before.includes(line));
    expect(added).toEqual(["  packageVersion: 9.8.7"]);
    expect(before.filter((line) => !after.includes(line)).filter((line) => !/packageVersion/.test(line))).toEqual([]);
    expect(setPackageVersion(updated, "9.8.8").split("\n").length).toBe(after.length);
  });
});
