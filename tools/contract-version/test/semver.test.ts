/**
 * Semver of the package: the bump a classification makes, and the version the tool starts from
 * (x-sdk.packageVersion, else info.version; read by the generator, which versions the package too).
 */
import { describe, expect, it } from "vitest";
import { packageVersion } from "../contract.ts";
import { bumpVersion } from "../semver.ts";

describe("the package version", () => {
  it("bumps semver", () => {
    expect(bumpVersion("1.4.2", "major")).toBe("2.0.0");
    expect(bumpVersion("1.4.2", "minor")).toBe("1.5.0");
    expect(bumpVersion("1.4.2", "patch")).toBe("1.4.3");
    expect(bumpVersion("1.4.2", "none")).toBe("1.4.2");
    expect(bumpVersion("2.0.0-rc.1", "minor")).toBe("2.0.0");
    expect(() => bumpVersion("v1", "minor")).toThrow(/not a semver/);
  });

  it("reads the package version from x-sdk.packageVersion, else from info.version", () => {
    expect(packageVersion({ info: { version: "2.0.0" }, "x-sdk": { packageVersion: "1.4.2" } })).toBe("1.4.2");
    expect(packageVersion({ info: { version: "2.0.0" } })).toBe("2.0.0");
    expect(packageVersion({ info: { version: "v3" } })).toBe("3.0.0");
    expect(packageVersion({ info: { version: "2024-06-01" } })).toBe("2024.0.0");
    expect(() => packageVersion({ info: { version: "1.0.0" }, "x-sdk": { packageVersion: "one" } })).toThrow(/x-sdk\/packageVersion/);
  });
});
