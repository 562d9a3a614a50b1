/**
 * `--watch` on a split contract in a real temporary folder: a change to the file the root `$ref`s
 * regenerates the package, a change that breaks the contract prints its error and the watch goes
 * on, and SIGINT (Ctrl-C) ends it with exit code 0. Every wait is for an observable outcome (a
 * line printed, a file's contents); the deadline only stops a hung run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cli-watch-"));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  fs.rmSync(scratch, { recursive: true, force: true });
});

const ROOT = `openapi: 3.0.3
info: { title: Watched, version: 1.0.0 }
servers: [{ url: 'https://watched.example.test' }]
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: './schemas.yaml#/Thing' } } }
`;
/** Saved as editors save: a new file renamed over the old, so no run reads it half-written. */
function save(name: string, text: string): void {
  fs.writeFileSync(path.join(scratch, `.${name}.tmp`), text);
  fs.renameSync(path.join(scratch, `.${name}.tmp`), path.join(scratch, name));
}
const thing = (extra = "") => `Thing:\n  type: object\n  properties:\n    id: { type: string }\n${extra}`;

/** Resolves once `done()` holds, checking on every output and every half second; rejects on exit. */
function waitFor(what: string, done: () => boolean, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => finish(new Error(`gave up waiting for ${what}:\n${output()}`)), 100_000);
    const poll = setInterval(check, 500);
    const onExit = () => finish(new Error(`the watch ended before ${what}:\n${output()}`));
    function finish(error?: Error) {
      clearTimeout(deadline);
      clearInterval(poll);
      child?.stdout?.off("data", check);
      child?.stderr?.off("data", check);
      child?.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    }
    function check() {
      if (done()) finish();
    }
    child?.stdout?.on("data", check);
    child?.stderr?.on("data", check);
    child?.once("exit", onExit);
    check();
  });
}

describe("npm run generate -- --watch", () => {
  it("regenerates on a change to a referenced file, survives a failing run, and ends on SIGINT", { timeout: 300_000 }, async () => {
    fs.writeFileSync(path.join(scratch, "api.yaml"), ROOT);
    fs.writeFileSync(path.join(scratch, "schemas.yaml"), thing());
    child = spawn(process.execPath, [path.join(repoRoot, "generator/run.mjs"), "--spec", "api.yaml", "--out", "client", "--watch"], { cwd: scratch, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const output = () => `${stdout}\n${stderr}`;
    const count = (text: string, line: RegExp) => text.match(new RegExp(line, "gm"))?.length ?? 0;
    const schema = () => fs.readFileSync(path.join(scratch, "client/src/schema.ts"), "utf8");

    await waitFor("the first run", () => count(stdout, /^watching 2 files for changes/) === 1, output);
    expect(count(stdout, /^wrote \d+ of \d+ files to client /)).toBe(1);
    expect(schema()).not.toContain("size?:");

    save("schemas.yaml", thing("    size: { type: integer }\n"));
    await waitFor("the run after the change", () => count(stdout, /^wrote \d+ of \d+ files to client /) === 2, output);
    expect(schema()).toContain("size?: number");

    save("schemas.yaml", "Thing:\n  $ref: '#/Missing'\n");
    await waitFor("the failing run's error", () => /^error: .*Can't resolve \$ref/m.test(stderr), output);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(schema()).toContain("size?: number");

    save("schemas.yaml", thing("    weight: { type: number }\n"));
    await waitFor("the run after the fix", () => count(stdout, /^wrote \d+ of \d+ files to client /) === 3, output);
    expect(schema()).toContain("weight?: number");

    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toContain("stopped watching");
  });
});
