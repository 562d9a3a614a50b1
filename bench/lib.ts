/**
 * Helpers shared by the benchmarks: statistics, Markdown tables, number formatting, the machine
 * description and child processes. No benchmark logic here.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

export const REPO_ROOT = path.resolve(import.meta.dirname, "..");
export const GENERATED_SRC = path.join(REPO_ROOT, "generated", "gpu-cloud-client", "src");
export const CONTRACT = path.join(REPO_ROOT, "openapi", "openapi.yaml");
export const TSX_CLI = path.join(REPO_ROOT, "node_modules", "tsx", "dist", "cli.mjs");

/** Sorted copy; `quantile` expects sorted input. */
export function sorted(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** Nearest-rank quantile of sorted values (q in 0..1). */
export function quantile(sortedValues: ArrayLike<number>, q: number): number {
  if (sortedValues.length === 0) return NaN;
  const rank = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil(q * sortedValues.length) - 1));
  return sortedValues[rank] as number;
}

export function median(values: ArrayLike<number>): number {
  return quantile(sorted(values), 0.5);
}

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i] as number;
  return sum / values.length;
}

/** A Markdown table; numbers must already be formatted. Right-aligns every column but the first. */
export function markdownTable(header: string[], rows: string[][]): string {
  const align = header.map((_, i) => (i === 0 ? "---" : "---:"));
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(align), ...rows.map(line)].join("\n");
}

export function ms(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "–";
  return `${value.toFixed(digits)} ms`;
}

export function us(valueMs: number, digits = 0): string {
  if (!Number.isFinite(valueMs)) return "–";
  return `${(valueMs * 1000).toFixed(digits)} µs`;
}

export function ratio(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return "–";
  return `${value.toFixed(digits)}×`;
}

export function percent(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return "–";
  return `${value >= 0 ? "+" : ""}${(value * 100).toFixed(digits)} %`;
}

export function bytes(value: number): string {
  const sign = value < 0 ? "−" : "";
  const abs = Math.abs(value);
  if (abs < 1024) return `${sign}${abs.toFixed(0)} B`;
  if (abs < 1024 * 1024) return `${sign}${(abs / 1024).toFixed(1)} KiB`;
  return `${sign}${(abs / 1024 / 1024).toFixed(2)} MiB`;
}

export function integer(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

export function machineDescription(): { cpu: string; cores: number; node: string; memory: string; os: string } {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    node: process.version,
    memory: bytes(os.totalmem()),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** Progress for the person watching; stdout stays for the report. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export interface ChildResult {
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  /** Killed because it ran past `timeoutMs`. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** Runs a process to completion, timing it from spawn to exit. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; echoStderr?: boolean; timeoutMs?: number } = {},
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (options.echoStderr) process.stderr.write(chunk);
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, wallMs: performance.now() - started });
    });
  });
}

/** `node [flags] --import tsx script args…`: TypeScript without a build step. */
export function runTsNode(script: string, args: string[] = [], nodeFlags: string[] = [], options: Parameters<typeof runProcess>[2] = {}) {
  return runProcess(process.execPath, [...nodeFlags, "--import", "tsx", path.resolve(REPO_ROOT, script), ...args], options);
}

/** The last line of stdout that parses as JSON: how child benchmarks hand back their numbers. */
export function lastJsonLine<T>(stdout: string): T {
  const lines = stdout.trim().split("\n").reverse();
  for (const line of lines) {
    if (line.startsWith("{")) {
      try {
        return JSON.parse(line) as T;
      } catch {
        // keep looking
      }
    }
  }
  throw new Error(`no JSON result in output:\n${stdout.slice(-2000)}`);
}

/** True when the module is the process's entry point (so a part can run alone or from run.ts). */
export function isMain(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  return path.resolve(entry) === new URL(importMetaUrl).pathname;
}
