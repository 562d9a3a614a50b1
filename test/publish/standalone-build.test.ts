/**
 * A package generated from a contract without model endpoints is the generic core only: no job
 * helpers, no terminal command, no job runtime, no `@types/node`, no event-stream runtime or parser; and it builds on its own in a
 * fresh folder outside this workspace (`npm install && npm run build && npm test`, dependencies from the npm
 * registry), as a team that generated it would build it, and `npm test` loads both builds. Then its README is followed as written:
 * the package packed where it was generated, a new app made with `npm init -y`, the tarball and
 * TypeScript installed, the README's tsconfig.json and first program compiled and run against a
 * local fake of the service.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { expectSuccess, remove, run, scratch } from "./support.ts";

const minimal = path.join(repoRoot, "test/fixtures/contracts/minimal.yaml");
let work: string | undefined;

afterAll(() => remove(work));

describe("a package without model endpoints", () => {
  it("carries no job code and builds in a fresh folder", async () => {
    work = scratch("standalone-");
    const out = path.join(work, "client");
    const generated = await generateFiles({ spec: minimal, out });
    const paths = generated.files.map((file) => file.path);
    expect(paths.filter((file) => /jobs|model|bin\.ts|cli\.ts/.test(file))).toEqual([]);
    const source = (file: string) => generated.files.find((f) => f.path === file)!.contents;
    expect(source("src/client.ts")).not.toMatch(/runModel|ModelId|model-calls/);
    expect(source("src/operation-specs.ts")).not.toMatch(/checkParams|\$models/);
    expect(source("src/index.ts")).not.toMatch(/ServerWaitOptions|jobs|models/);
    const manifest = JSON.parse(generated.files.find((file) => file.path === "package.json")!.contents);
    expect(manifest.bin).toBeUndefined();
    expect(manifest.devDependencies).not.toHaveProperty("@types/node");
    // No event stream in the contract: no event-stream runtime, and no parser to install.
    expect(paths.filter((file) => file.includes("server-sent-events"))).toEqual([]);
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
    const readme = generated.files.find((file) => file.path === "README.md")!.contents;
    expect(readme).not.toMatch(/runAndWait|Waiting for jobs|Terminal command|MODEL_ENDPOINTS/);

    await writeOutput(out, generated.files);
    // Only the npm registry: the machine's npm installs the manifest's own dependencies.
    const env = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1" };
    expectSuccess(await run("npm", ["install", "--no-package-lock"], { cwd: out, env, timeoutMs: 300_000 }), "npm install");
    expectSuccess(await run("npm", ["run", "build"], { cwd: out, env, timeoutMs: 300_000 }), "npm run build");
    expect(fs.existsSync(path.join(out, "dist", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(out, "dist", "cjs", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(out, "dist", "index.d.ts"))).toBe(true);
    expect(expectSuccess(await run("npm", ["test"], { cwd: out, env, timeoutMs: 120_000 }), "npm test").stdout).toContain("dist/ loads as an ES module and as CommonJS");

    // The README, followed as written: only the app's folder and the service's URL are ours.
    const shell = (script: string, cwd: string) => run("sh", ["-ec", script], { cwd, env, timeoutMs: 300_000 });
    const blocks = (language: string) => [...readme.matchAll(new RegExp(`^\`\`\`${language}\n([\\s\\S]*?)\n\`\`\`$`, "gm"))].map((m) => m[1]!);
    const pack = blocks("sh").find((block) => block.startsWith("cd "))!;
    const [packHere, , , installTarball] = pack.split("\n");
    expect(packHere).toBe(`cd ${out}`);
    expectSuccess(await shell(pack.split("\n").slice(0, 2).join("\n"), work), "the README's pack steps");
    const newApp = blocks("sh").find((block) => block.includes("npm init -y"))!;
    // The package is on no registry: its tarball, as the README says, instead of its name.
    const steps = newApp.replace(/^npm install minimal-status-api-client\b.*$/m, installTarball!);
    expect(steps).not.toBe(newApp);
    expectSuccess(await shell(steps, work), "the README's new-app steps");
    const app = path.join(work, "my-app");
    expect(JSON.parse(fs.readFileSync(path.join(app, "package.json"), "utf8"))).toMatchObject({ type: "module", dependencies: { "minimal-status-api-client": expect.stringMatching(/\.tgz$/) } });
    fs.writeFileSync(path.join(app, "tsconfig.json"), blocks("json")[0]!);
    const program = blocks("ts").find((block) => block.includes("const result = await client."))!;
    fs.writeFileSync(path.join(app, "index.ts"), program);
    const compileAndRun = blocks("sh").find((block) => block.startsWith("npx tsc"))!;
    const server = http.createServer((request, response) => {
      response.writeHead(request.url === "/v1/status" ? 200 : 404, { "content-type": "application/json", "x-request-id": "req-7" });
      response.end(JSON.stringify({ status: "ok", version: "0.1.0", uptimeSeconds: 1 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const ran = expectSuccess(await run("sh", ["-ec", compileAndRun], { cwd: app, env: { ...env, [generated.api.servers[0]!.envVar]: baseUrl }, timeoutMs: 300_000 }), "npx tsc && node index.js");
      expect(ran.stdout.trim()).toBe("200 req-7");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 900_000);
});
