/**
 * The command (`npm run version:contract`) on a git ref writes x-sdk.packageVersion (nothing else
 * in the file moves) and a CHANGELOG entry, idempotently, and the generator takes the package's
 * version and changelog from there; a base that is neither a file nor a commit is refused.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../../generator/generate.ts";
import { remove, run, scratch } from "../../../test/publish/support.ts";
import { repoRoot } from "../../../test/support/prism.ts";

const fixtures = path.join(import.meta.dirname, "fixtures");
const command = path.join(import.meta.dirname, "..", "command.ts");
const scratchDirs: string[] = [];
afterAll(() => scratchDirs.forEach(remove));

describe("npm run version:contract", () => {
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
      run(path.join(repoRoot, "node_modules/.bin/tsx"), [command, "--base", "HEAD", "--spec", spec, "--write", "--date", "2026-03-04"], { cwd: repo, timeoutMs: 60_000 });
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
    const result = await run(path.join(repoRoot, "node_modules/.bin/tsx"), [command, "--base", "no-such-ref-or-file"], { cwd: repoRoot, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("neither a file nor a git commit");
  });
});
