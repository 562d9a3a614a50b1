/**
 * `npm run mock` ends Prism when it ends: killed through npm (its shell dies, the script is left
 * without a signal) or killed outright (SIGKILL, no code of it runs), the port is free afterwards;
 * a port already in use is refused in one line. Each case waits for what can be observed (a port
 * answering, then refusing), with generous deadlines for busy machines, never a fixed sleep.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";

const HOST = "127.0.0.1";
const STARTED_MS = 150_000;
const started: ChildProcess[] = [];

afterEach(() => {
  // Each was started in a process group of its own: whatever a failed case left behind ends here.
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Polls until the port is (or is no longer) accepting connections; false at the deadline. */
async function until(port: number, listening: boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if ((await accepts(port)) === listening) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

function start(command: string, args: string[], port: number): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, PORT: String(port), HOST }, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  started.push(child);
  return child;
}

describe("npm run mock", () => {
  it("ends Prism when the npm process is killed by its id", async () => {
    const port = await freePort();
    const npm = start("npm", ["run", "mock"], port);
    expect(await until(port, true, STARTED_MS)).toBe(true);
    process.kill(npm.pid!, "SIGTERM");
    expect(await until(port, false, 60_000)).toBe(true);
  }, STARTED_MS + 90_000);

  it("ends Prism when the script is killed with SIGKILL", async () => {
    const port = await freePort();
    const script = start(process.execPath, [path.join(repoRoot, "scripts/mock.mjs")], port);
    expect(await until(port, true, STARTED_MS)).toBe(true);
    process.kill(script.pid!, "SIGKILL");
    expect(await until(port, false, 60_000)).toBe(true);
  }, STARTED_MS + 90_000);

  it("refuses a port in use in one line", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, HOST, resolve));
    try {
      const { port } = taken.address() as net.AddressInfo;
      const script = start(process.execPath, [path.join(repoRoot, "scripts/mock.mjs")], port);
      let stderr = "";
      script.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
      const code = await new Promise((resolve) => script.once("exit", resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(`error: ${HOST}:${port} is in use (another \`npm run mock\`?); stop it, or choose another port: PORT=4011 npm run mock\n`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
