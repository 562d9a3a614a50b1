/**
 * Versions from the contract (generator/version.ts, `npm run version:contract`): pairs of contracts
 * in test/fixtures/versions (base.yaml, and one file per kind of change) classify as major, minor,
 * patch or none, each change named by its JSON pointer; the CLI on a git ref writes
 * x-sdk.packageVersion (nothing else in the file moves) and a CHANGELOG entry, idempotently; and
 * the generator takes the package's version and changelog from there.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { loadContract } from "../../generator/load.ts";
import { bumpVersion, classify, compareContracts, setPackageVersion, updateChangelog } from "../../generator/version.ts";
import { packageVersion } from "../../generator/x-sdk.ts";
import { contractPath, repoRoot } from "../support/prism.ts";
import { remove, run, scratch } from "./support.ts";

const fixtures = path.join(repoRoot, "test/fixtures/versions");
const scratchDirs: string[] = [];
afterAll(() => scratchDirs.forEach(remove));

async function compare(baseFile: string, headFile: string) {
  return compareContracts(await loadContract(path.join(fixtures, baseFile)), await loadContract(path.join(fixtures, headFile)));
}

/** Each pair: the kind, and the one change it must report (pointer and words of its message). */
const PAIRS: Array<[file: string, bump: "major" | "minor" | "patch", pointer: string, message: RegExp]> = [
  ["major-removed-operation", "major", "#/paths/~1pets/post", /removed operation `createPet`/],
  ["major-removed-property", "major", "#/components/schemas/Pet/properties/status", /removed property `status` \(output\)/],
  ["major-removed-enum-value", "major", "#/components/schemas/Pet/properties/status/enum", /removed enum value "sold"/],
  ["major-new-required-parameter", "major", "#/paths/~1pets/get/parameters/1", /new required query parameter `owner`/],
  ["major-new-required-property", "major", "#/components/schemas/NewPet/properties/birthDate", /new required property `birthDate` \(input\)/],
  ["major-narrowed-type", "major", "#/components/schemas/NewPet/properties/tag", /restricted to the values "dog", "cat", "bird" \(input\)/],
  ["major-narrowed-bounds", "major", "#/paths/~1pets/get/parameters/0/schema/maximum", /maximum changed: 100 → 50, narrower \(input\)/],
  ["major-type-changed", "major", "#/components/schemas/Pet/properties/id", /type changed from string to integer/],
  ["minor-new-operation", "minor", "#/paths/~1pets~1{id}/get", /new operation `getPet`/],
  ["minor-new-optional-property", "minor", "#/components/schemas/NewPet/properties/colour", /new optional property `colour` \(input\)/],
  ["minor-new-optional-parameter", "minor", "#/paths/~1pets/get/parameters/1", /new optional query parameter `tag`/],
  ["minor-new-enum-value-in-response", "minor", "#/components/schemas/Pet/properties/status/enum", /new enum value "pending" \(output\)/],
  ["minor-new-response-field", "minor", "#/components/schemas/Pet/properties/createdAt", /new optional property `createdAt` \(output\)/],
  ["patch-documentation", "patch", "#/paths/~1pets/get/summary", /summary of `listPets` changed/],
];

describe("classifying a contract change", () => {
  it("finds nothing between a contract and itself", async () => {
    const report = await compare("base.yaml", "base.yaml");
    expect(report).toEqual({ classification: "none", changes: [], previousVersion: "1.4.2", nextVersion: "1.4.2" });
  });

  it("covers every fixture pair", () => {
    const files = fs.readdirSync(fixtures).filter((f) => f.endsWith(".yaml") && f !== "base.yaml").map((f) => f.replace(/\.yaml$/, "")).sort();
    expect(files).toEqual(PAIRS.map(([file]) => file).sort());
  });

  it.each(PAIRS)("%s is %s", async (file, bump, pointer, message) => {
    const report = await compare("base.yaml", `${file}.yaml`);
    expect(report.classification).toBe(bump);
    expect(report.nextVersion).toBe(bumpVersion("1.4.2", bump));
    const change = report.changes.find((c) => c.pointer === pointer);
    expect(change, JSON.stringify(report.changes, null, 2)).toBeDefined();
    expect(change!.message).toMatch(message);
    expect(change!.bump).toBe(bump);
    // One change of that kind, nothing hiding beside it.
    if (bump !== "patch") expect(report.changes.filter((c) => c.bump === bump)).toHaveLength(1);
  });

  it("takes the most severe of several changes, and names each", async () => {
    // From "createPet removed" to "getPet added": createPet comes back (minor), getPet is new (minor)...
    const back = await compare("major-removed-operation.yaml", "minor-new-operation.yaml");
    expect(back.classification).toBe("minor");
    expect(back.changes.map((c) => c.message)).toEqual(expect.arrayContaining([expect.stringMatching(/new operation `createPet`/), expect.stringMatching(/new operation `getPet`/)]));
    // ...and the other way round both are removed: major.
    const forth = await compare("minor-new-operation.yaml", "major-removed-operation.yaml");
    expect(forth.classification).toBe("major");
    expect(forth.changes.filter((c) => c.bump === "major").map((c) => c.pointer).sort()).toEqual(["#/paths/~1pets/post", "#/paths/~1pets~1{id}/get"]);
    expect(classify([{ bump: "patch", pointer: "#", message: "" }, { bump: "minor", pointer: "#", message: "" }])).toBe("minor");
  });

  it("reads direction: what is minor in a response is major in a request, and the reverse", async () => {
    // Removing an enum value of a request (NewPet.size) is major too; adding one there is minor.
    const dir = scratch("versions-", false);
    scratchDirs.push(dir);
    const base = fs.readFileSync(path.join(fixtures, "base.yaml"), "utf8");
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const b = await loadContract(write("base.yaml", base));
    const wider = await loadContract(write("wider.yaml", base.replace("enum: [small, large]", "enum: [small, large, huge]").replace("maximum: 100", "maximum: 500")));
    expect(compareContracts(b, wider).classification).toBe("minor");
    const optionalOutput = await loadContract(write("optional.yaml", base.replace("required: [id, name, status]", "required: [id, name]")));
    const report = compareContracts(b, optionalOutput);
    expect(report.classification).toBe("major");
    expect(report.changes[0]!.message).toMatch(/property `status` is now optional: it may be absent \(output\)/);
  });

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

  it("keeps the changelog's older entries and replaces an entry of the same version", () => {
    const first = updateChangelog(undefined, "## 1.1.0 (2026-01-01)\n\nA.\n", "1.1.0");
    const second = updateChangelog(first, "## 2.0.0 (2026-02-01)\n\nB.\n", "2.0.0");
    expect(second.indexOf("## 2.0.0")).toBeLessThan(second.indexOf("## 1.1.0"));
    const again = updateChangelog(second, "## 2.0.0 (2026-02-02)\n\nC.\n", "2.0.0");
    expect(again).toContain("C.");
    expect(again).not.toContain("B.");
    expect(again).toContain("A.");
  });

  it("npm run version:contract -- --base HEAD --write: a major bump, written to the contract and the changelog, once", { timeout: 60_000 }, async () => {
    const repo = scratch("version-git-", false);
    scratchDirs.push(repo);
    const spec = path.join(repo, "openapi", "openapi.yaml");
    fs.mkdirSync(path.dirname(spec));
    fs.copyFileSync(path.join(fixtures, "base.yaml"), spec);
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.test", ...args], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "base");
    const head = fs.readFileSync(path.join(fixtures, "major-removed-enum-value.yaml"), "utf8");
    fs.writeFileSync(spec, head);

    const cli = () =>
      run(path.join(repoRoot, "node_modules/.bin/tsx"), [path.join(repoRoot, "generator/version.ts"), "--base", "HEAD", "--spec", spec, "--write", "--date", "2026-03-04"], { cwd: repo, timeoutMs: 60_000 });
    const result = await cli();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("major: 1.4.2 → 2.0.0");
    expect(result.stdout).toContain("#/components/schemas/Pet/properties/status/enum");

    const written = fs.readFileSync(spec, "utf8");
    expect(written).toBe(head.replace("packageVersion: 1.4.2", "packageVersion: 2.0.0"));
    const changelog = fs.readFileSync(path.join(repo, "openapi", "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain("## 2.0.0 (2026-03-04)");
    expect(changelog).toContain('- removed enum value "sold" (output) — `#/components/schemas/Pet/properties/status/enum`');

    // Again: the base has not moved, so nothing changes.
    expect((await cli()).code).toBe(0);
    expect(fs.readFileSync(spec, "utf8")).toBe(written);
    expect(fs.readFileSync(path.join(repo, "openapi", "CHANGELOG.md"), "utf8")).toBe(changelog);

    // The generator takes the version and ships the changelog.
    const { files } = await generateFiles({ spec });
    const manifest = JSON.parse(files.find((f) => f.path === "package.json")!.contents);
    expect(manifest.version).toBe("2.0.0");
    expect(manifest.files).toContain("CHANGELOG.md");
    expect(files.find((f) => f.path === "CHANGELOG.md")?.contents).toContain("## 2.0.0 (2026-03-04)");
    expect(files.find((f) => f.path === "README.md")?.contents).toContain("[CHANGELOG.md](CHANGELOG.md)");
  });

  it("refuses a base that is neither a file nor a commit", async () => {
    const result = await run(path.join(repoRoot, "node_modules/.bin/tsx"), [path.join(repoRoot, "generator/version.ts"), "--base", "no-such-ref-or-file"], { cwd: repoRoot, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("neither a file nor a git commit");
  });
});
