import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";

const run = promisify(execFile);
const redocly = path.join(repoRoot, "node_modules", ".bin", "redocly");
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lint-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Lints a contract with the project's rules; returns the problems Redocly reports as JSON. */
async function lint(contract: string): Promise<Array<{ ruleId: string; severity: string }>> {
  const dir = fs.mkdtempSync(path.join(scratch, "c-"));
  fs.writeFileSync(path.join(dir, "openapi.yaml"), contract);
  fs.copyFileSync(path.join(repoRoot, "openapi/redocly.yaml"), path.join(dir, "redocly.yaml"));
  fs.copyFileSync(path.join(repoRoot, "openapi/.redocly.lint-ignore.yaml"), path.join(dir, ".redocly.lint-ignore.yaml"));
  const result = await run(redocly, ["lint", "--config", path.join(dir, "redocly.yaml"), "--format", "json"], { cwd: dir, env }).catch((e) => e);
  const json = String(result.stdout);
  return JSON.parse(json.slice(json.indexOf("{"))).problems.filter((p: any) => !p.ignored);
}

const contract = fs.readFileSync(path.join(repoRoot, "openapi/openapi.yaml"), "utf8");

describe("npm run lint:contract", () => {
  it("finds no error and no warning in the contract", async () => {
    expect(await lint(contract)).toEqual([]);
  });

  it("catches a management error response that is not problem+json", async () => {
    const broken = contract.replace(
      /(  NotFound:\n(?:.*\n)*?      content:\n        )application\/problem\+json:/,
      "$1application/json:",
    );
    expect(broken).not.toBe(contract);
    const rules = (await lint(broken)).map((p) => p.ruleId);
    expect(rules).toContain("rule/management-errors-are-problem-json");
  });

  it("holds the network volumes' own errors to problem+json too", async () => {
    const broken = contract.replace(
      /(      description: The body is malformed, or its `size` is below[^\n]*\n(?:.*\n)*?          content:\n            )application\/problem\+json:/,
      "$1application/json:",
    );
    expect(broken).not.toBe(contract);
    const rules = (await lint(broken)).map((p) => p.ruleId);
    expect(rules).toContain("rule/management-errors-are-problem-json");
  });

  it("catches an example that does not match its schema", async () => {
    const broken = contract.replaceAll("duration: 10\n", "duration: 7\n");
    expect(broken).not.toBe(contract);
    expect((await lint(broken)).map((p) => p.ruleId)).toContain("no-invalid-schema-examples");
  });

  it("catches a success response without the rate-limit headers", async () => {
    const broken = contract.replace(
      /(  \/v2\/templates:\n(?:.*\n)*?          headers:\n)            RateLimit:\n              \$ref: '#\/components\/headers\/RateLimit'\n/,
      "$1",
    );
    expect(broken).not.toBe(contract);
    expect((await lint(broken)).map((p) => p.ruleId)).toContain("response-contains-header");
  });

  it("catches a path item without its server, and asks none of a webhook", async () => {
    const broken = contract.replace(/(\npaths:\n  \/v2\/pods:\n)    servers:\n(?: {6}.*\n)+/, "$1");
    expect(broken).not.toBe(contract);
    expect((await lint(broken)).map((p) => p.ruleId)).toContain("rule/path-item-declares-its-server");
    expect(contract).toMatch(/\nwebhooks:\n  jobResult:\n    post:\n/);
  });
});
