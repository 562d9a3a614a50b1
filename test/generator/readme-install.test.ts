/**
 * The package README's install steps and Versions text: the folder is the one `--out` named, the
 * tarball is the one `npm pack` writes (a scoped name included), and the package's version is said
 * to be the API's when it is.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { repoRoot } from "../support/prism.ts";

const minimal = path.join(repoRoot, "test/fixtures/contracts/minimal.yaml");
const readmeOf = async (options: { out?: string; packageName?: string }) =>
  (await generateFiles({ spec: minimal, ...options })).files.find((file) => file.path === "README.md")!.contents;
const packBlock = (readme: string) => /```sh\n(cd [\s\S]*?)\n```/.exec(readme)![1]!;

describe("the README's install steps", () => {
  it("name the folder --out gave: relative to where the generator runs when inside it, else absolute", async () => {
    expect(packBlock(await readmeOf({ out: path.join(process.cwd(), "clients/status") }))).toBe(
      [
        "cd clients/status",
        "npm install && npm pack   # builds, then writes minimal-status-api-client-0.1.0.tgz",
        "cd path/to/your-app",
        "npm install path/to/clients/status/minimal-status-api-client-0.1.0.tgz",
      ].join("\n"),
    );
    const outside = path.join(os.tmpdir(), "team clients", "status");
    const steps = packBlock(await readmeOf({ out: outside }));
    expect(steps.split("\n")[0]).toBe(`cd '${outside}'`);
    expect(steps.split("\n")[3]).toBe(`npm install '${outside}/minimal-status-api-client-0.1.0.tgz'`);
  });

  it("name the default folder without --out, and a scoped package's tarball as npm pack writes it", async () => {
    const steps = packBlock(await readmeOf({ packageName: "@acme/status" }));
    expect(steps).toContain("cd generated/status\n");
    expect(steps).toContain("# builds, then writes acme-status-0.1.0.tgz");
  });

  it("make a new app with npm init -y an ES module before its top-level await", async () => {
    const readme = await readmeOf({});
    const app = /### A new app, step by step\n\n```sh\n([\s\S]*?)\n```/.exec(readme)![1]!;
    expect(app.split("\n").map((line) => line.replace(/\s+#.*$/, ""))).toEqual([
      "mkdir my-app && cd my-app",
      "npm init -y",
      "npm pkg set type=module",
      "npm install minimal-status-api-client",
      // The TypeScript the package is built with (the workspace's).
      `npm install --save-dev typescript@${JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).devDependencies.typescript} @types/node`,
    ]);
  });
});

describe("the README's Versions section", () => {
  it("says the package's version is the API's when both are 0.1.0", async () => {
    const versions = (await readmeOf({})).split("## Versions")[1]!;
    expect(versions).toContain("This package's version (0.1.0)");
    expect(versions).toContain("Here it is the API's version too");
    expect(versions).not.toContain("not the API's version");
  });
});
