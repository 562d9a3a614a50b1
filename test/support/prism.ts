import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { writeMockDocument } from "../../scripts/mock-document.mjs";

export const repoRoot = path.resolve(import.meta.dirname, "../..");
export const contractPath = path.join(repoRoot, "openapi", "openapi.yaml");

export interface RunningPrism {
  baseUrl: string;
  /** Everything Prism printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** A port the OS just handed out, so parallel test files never collide. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts Prism from node_modules on a free loopback port and resolves once it listens: on `spec`,
 * or by default on what `npm run mock` serves (the contract with per-model submission paths,
 * scripts/mock-document.mjs). `stop()` kills the whole process group, so callers put it in
 * `afterAll` and it runs even when tests fail.
 */
export async function startPrism(given?: string, extraArgs: string[] = []): Promise<RunningPrism> {
  const spec = given ?? writeMockDocument(contractPath);
  const port = await freePort();
  const bin = path.join(repoRoot, "node_modules", ".bin", "prism");
  const child: ChildProcess = spawn(bin, ["mock", spec, "--host", "127.0.0.1", "--port", String(port), ...extraArgs], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The derived document's temporary folder goes with the mock, however it ends.
  if (given === undefined) void exited.then(() => fs.rmSync(path.dirname(spec), { recursive: true, force: true }));
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Prism is listening")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`Prism exited with ${code} before listening:\n${log}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, 3_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not listen within 45 s:\n${log}`)), 45_000);
    timer.unref();
  });
  try {
    await Promise.race([listening, deadline]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, output: () => log, stop };
}

/**
 * A fetch that sends whatever it is asked for to `baseUrl` (same path and query), for examples
 * written against the service's own hosts; `observe` sees each request first.
 */
export function fetchSentTo(baseUrl: string, realFetch: typeof fetch, observe?: (request: Request) => void): typeof fetch {
  return (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    observe?.(request);
    const url = new URL(request.url);
    return realFetch(new Request(baseUrl + url.pathname + url.search, request));
  }) as typeof fetch;
}
