/**
 * The workspace README's "try the package against the mock" recipe, run as written with the npm on
 * the machine, in a fresh folder. Three things differ, and only so that it can run beside other
 * tests: `/tmp` is a fresh temporary folder, the mock listens on a free port (the recipe's
 * `PORT` override) instead of 4010, and the last line waits until the mock answers (a person
 * running it sees Prism's "listening" line first).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, repoRoot } from "../support/prism.ts";
import { BUILD_TIMEOUT_MS, toolEnv } from "./support.ts";

const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const recipe = /To try the package against the mock:\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "try-recipe-"));
let group: number | undefined;

afterAll(() => {
  if (group !== undefined) {
    try {
      process.kill(-group, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the README's try-it recipe", () => {
  it("runs as written: build, pack, mock, a fresh project, one call", { timeout: 2 * BUILD_TIMEOUT_MS }, async () => {
    expect(recipe, "the README has the recipe").toBeDefined();
    const port = await freePort();
    const lines = recipe!
      .replaceAll("/tmp", scratch)
      .replace("npm run mock &", `PORT=${port} npm run mock &`)
      .replaceAll("http://127.0.0.1:4010", `http://127.0.0.1:${port}`)
      .trimEnd()
      .split("\n");
    const last = lines.pop()!;
    expect(last).toBe("npx tsx try.ts");
    const wait = `for i in $(seq 1 150); do node -e "fetch('http://127.0.0.1:${port}/v2/pods').then(() => process.exit(0), () => process.exit(1))" && break; sleep 0.2; done`;
    const script = ["set -e", ...lines, wait, last].join("\n");
    const child = spawn("bash", ["-c", script], { cwd: repoRoot, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
    group = child.pid;
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    // The mock keeps running in the background, holding the pipes: the script's end is its exit.
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/^\d+ pods from the mock$/m);
  });
});
