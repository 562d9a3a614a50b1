/**
 * The corpus benchmark's quick mode (`--quick`): each job keeps one worker process
 * (bench/corpus-quick-child.ts) that measures document after document in process
 * (bench/corpus-in-process.ts), restarted every RESTART_EVERY documents so that what a process
 * keeps cannot add up. A document the worker does not answer for (out of heap, out of time,
 * crashed) is measured again the full way, a fresh process per step (bench/corpus-measure.ts), whose
 * answer is the one recorded.
 */
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childEnv, type Limits, measure } from "./corpus-measure.ts";
import type { ResultLine, ToolResult } from "./corpus-results.ts";
import { NODE_MODULES } from "./corpus-documents.ts";
import { progress, REPO_ROOT } from "./lib.ts";

const RESTART_EVERY = 100;

type Answer = { ours: ToolResult; ots: ToolResult } | { error: string };

export class QuickWorker {
  private child: ChildProcess | undefined;
  private measured = 0;

  constructor(
    private readonly scratch: string,
    private readonly limits: Limits,
  ) {}

  /** Both tools on one document in the worker, or why the worker gave no answer. */
  private ask(document: string, index: number): Promise<Answer> {
    if (this.child === undefined || this.measured >= RESTART_EVERY) {
      this.stop();
      this.child = fork(path.join(REPO_ROOT, "bench/corpus-quick-child.ts"), [], { execArgv: ["--import", "tsx"], env: childEnv(), stdio: ["ignore", "ignore", "pipe", "ipc"] });
      this.measured = 0;
    }
    const child = this.child;
    return new Promise((resolve) => {
      let stderr = "";
      const onStderr = (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4000));
      const settle = (answer: Answer, ended: boolean) => {
        clearTimeout(timer);
        child.stderr!.off("data", onStderr);
        child.off("message", onMessage);
        child.off("exit", onExit);
        if (ended) this.child = undefined;
        resolve(answer);
      };
      const onMessage = (answer: Answer) => ((this.measured += 1), settle(answer, false));
      const onExit = (code: number | null, signal: string | null) => settle({ error: /heap out of memory|Reached heap limit/.test(stderr) ? "heap exhausted" : `the worker ended (${code ?? signal})` }, true);
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        settle({ error: `timed out after ${this.limits.timeoutMs / 1000} s` }, true);
      }, this.limits.timeoutMs);
      child.stderr!.on("data", onStderr);
      child.on("message", onMessage);
      child.on("exit", onExit);
      child.send({ document, scratch: path.join(this.scratch, `quick-${index}`) });
    });
  }

  async measure(document: string, index: number, identity: Pick<ResultLine, "commit" | "machine" | "jobs">): Promise<ResultLine> {
    const answer = await this.ask(document, index);
    if ("error" in answer) {
      progress(`${document}: the quick worker gave no answer (${answer.error}); measuring it the full way`);
      return measure(document, this.scratch, index, this.limits, identity);
    }
    const sizeBytes = fs.statSync(path.join(NODE_MODULES, document)).size;
    return { document, sizeBytes, ...identity, mode: "quick", date: new Date().toISOString(), ...answer };
  }

  stop(): void {
    this.child?.kill("SIGKILL");
    this.child = undefined;
  }
}
