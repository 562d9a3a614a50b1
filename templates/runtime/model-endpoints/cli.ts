/// <reference types="node" />
/**
 * The model commands of the package's terminal command (Node only; never imported by the client, so
 * browser bundles stay free of it): a `CommandGroup` for `../cli/commands.ts`. `main` takes its
 * streams and environment as arguments so tests can drive it.
 */
import { parseArgs } from "node:util";
import { EXIT, InputError, UsageError, columns, positiveNumber, reportCommonError, runCommands } from "../cli/commands.js";
import type { CommandEnvironment, CommandGroup } from "../cli/commands.js";
import { assign, readInput } from "../cli/input.js";
import { CostLimitError, costEstimate, formatUsd } from "./cost.js";
import { streamJob } from "./stream.js";
import { runAndWait } from "./submit.js";
import { OUTPUT_URL_FIELDS } from "./types.js";
import type { JobClient, JobLike, ModelCatalog } from "./types.js";
import { JobFailedError, JobWaitError, waitForJob } from "./wait.js";
import type { JobResult, WaitProgress } from "./wait.js";

export { EXIT } from "../cli/commands.js";

/** The commands this group answers. */
const MODEL_COMMANDS = ["run", "status", "wait", "estimate", "cancel", "retry", "stream", "health", "purge-queue"] as const;

export interface CliDependencies extends CommandEnvironment {
  createClient(): JobClient;
  catalog: ModelCatalog;
  /** Problems of an input for a known model, each with its field path (empty when valid). */
  validateInput?(model: string, input: unknown): Array<{ path: string; message: string; keyword?: string }>;
}

/** The model commands, for the command registry. */
export function modelCommands(deps: CliDependencies): CommandGroup {
  return {
    commands: MODEL_COMMANDS,
    usage: () => commandUsage(deps.name),
    described: () => modelsHelp(deps.catalog),
    run: (command, args) => runModelCommand(command, args, deps),
  };
}

/** The model commands alone, as a whole terminal command. */
export function main(argv: readonly string[], deps: CliDependencies): Promise<number> {
  return runCommands(argv, deps, [modelCommands(deps)]);
}

/** The usage lines and notes of the model commands. */
function commandUsage(name: string): string {
  return `  ${name} run <model> (--input FILE.json | --set KEY=VALUE ...) [--job-option KEY=VALUE ...] [--wait] [--sync] [--cancel-on-abort] [--max-cost USD] [--timeout SECONDS] [--interval SECONDS] [--json]
  ${name} status <model> <job-id> [--json]
  ${name} wait <model> <job-id> [--timeout SECONDS] [--interval SECONDS] [--json]
  ${name} cancel <model> <job-id> [--json]
  ${name} retry <model> <job-id> [--wait] [--timeout SECONDS] [--interval SECONDS] [--json]
  ${name} stream <model> <job-id> [--timeout SECONDS] [--interval SECONDS] [--json]
  ${name} health <model> [--json]
  ${name} purge-queue <model> --yes [--json]
  ${name} estimate <model> (--input FILE.json | --set KEY=VALUE ...) [--json]
Every command that takes <model> also takes --any-model: a model id the package does not list (an endpoint of your own) is refused without it.

VALUE is read as JSON when it parses (5, true, "text", [1,2]) and as text otherwise; KEY may be dotted (a.b=1).
--set fills the model's input; --job-option the request's other members (webhook=URL, policy.ttl=60000).
A wait ends after --timeout seconds (1800 unless given); the job keeps running, and the command prints how to wait again.
With --cancel-on-abort, a wait that ends before the job (Ctrl-C or --timeout) cancels the job too, so it stops billing.
purge-queue removes every job of the model's endpoint that is still queued (yours included); it asks for --yes.
Exit codes: 0 done, 1 job failed, 2 bad usage or input, 3 API or network error, 4 over --max-cost, 5 wait timed out, 130 interrupted.`;
}

/** The usage of the model commands, with the known models. */
export function usage(name: string, deps?: Pick<CliDependencies, "catalog">): string {
  return `usage:\n  ${name} --help | --version\n${commandUsage(name)}${deps === undefined ? "" : `\n${modelsHelp(deps.catalog)}`}`;
}

/** The known models, in aligned columns. */
function modelsHelp(catalog: ModelCatalog): string {
  const models = columns(Object.entries(catalog.endpoints).map(([id, info]) => [id, info.kind, info.pricing === undefined ? "no published price" : info.pricing.unitsUnknown === undefined ? "priced" : "priced, not estimable"]));
  return ["", "Known models (id, kind, pricing; estimate needs a price):", ...models].join("\n");
}

/** Shows waiting progress: one updating line on a terminal, plain lines otherwise. */
function progressReporter(stream: CliDependencies["stderr"]): { update(p: WaitProgress): void; done(): void } {
  let shown = false;
  return {
    update({ job, polls, elapsedMs }) {
      const line = `${job.id}  ${job.status}  ${(elapsedMs / 1000).toFixed(1)} s  ${polls} poll${polls === 1 ? "" : "s"}`;
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${line}`);
        shown = true;
      } else {
        stream.write(`${line}\n`);
      }
    },
    done() {
      if (shown) stream.write("\n");
    },
  };
}

function describeResult(result: JobResult): string {
  return [
    `${result.id} ${result.status}`,
    result.url ? `url: ${result.url}` : undefined,
    result.expiresAt ? `works until at least: ${result.expiresAt.toISOString()}` : undefined,
    result.costUsd !== undefined ? `cost: ${formatUsd(result.costUsd)}` : undefined,
  ]
    .filter(Boolean)
    .join("\n");
}

async function runModelCommand(command: string, rest: readonly string[], deps: CliDependencies): Promise<number> {
  const out = (text: string) => deps.stdout.write(`${text}\n`);
  const err = (text: string) => deps.stderr.write(`${text}\n`);
  // Named once known, for the message that tells how to resume an interrupted wait.
  let model: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: "boolean", short: "h", default: false },
        input: { type: "string" },
        set: { type: "string", multiple: true },
        "job-option": { type: "string", multiple: true },
        wait: { type: "boolean", default: false },
        sync: { type: "boolean", default: false },
        "cancel-on-abort": { type: "boolean", default: false },
        "max-cost": { type: "string" },
        timeout: { type: "string" },
        interval: { type: "string" },
        json: { type: "boolean", default: false },
        yes: { type: "boolean", default: false },
        "any-model": { type: "boolean", default: false },
      },
    });
    if (values.help) {
      out(usage(deps.name, deps));
      return EXIT.ok;
    }
    if (values["job-option"] !== undefined && command !== "run") throw new UsageError("--job-option: only with run (it goes with the job's submission)");
    if (values["cancel-on-abort"] && (command !== "run" || (!values.wait && !values.sync))) {
      throw new UsageError("--cancel-on-abort: only with --wait or --sync of run (without them the command does not wait)");
    }
    const [modelArgument, jobId, ...extra] = positionals;
    if (!modelArgument) throw new UsageError(`${command}: missing <model>`);
    model = modelArgument;
    if (!values["any-model"] && !Object.hasOwn(deps.catalog.endpoints, model)) {
      throw new InputError(`unknown model ${JSON.stringify(model)}; known models: ${Object.keys(deps.catalog.endpoints).join(", ")} (add --any-model to send it anyway)`);
    }
    const timeoutSeconds = positiveNumber(values.timeout, "--timeout");
    const maxCost = positiveNumber(values["max-cost"], "--max-cost");
    const intervalSeconds = positiveNumber(values.interval, "--interval");
    const progress = progressReporter(deps.stderr);
    const waitOptions = {
      signal: deps.signal,
      onProgress: values.json ? undefined : progress.update,
      ...(timeoutSeconds ? { timeoutMs: timeoutSeconds * 1000 } : {}),
      ...(intervalSeconds ? { intervalMs: intervalSeconds * 1000 } : {}),
    };
    const printResult = (result: JobResult) => out(values.json ? JSON.stringify(result, null, 2) : describeResult(result));
    const notAJob = () => {
      err(`${deps.name}: the service answered with a body that is not a job (no string id and status)`);
      return EXIT.apiError;
    };

    switch (command) {
      case "estimate":
      case "run": {
        if (jobId !== undefined) throw new UsageError(`${command}: unexpected argument ${jobId}`);
        const input = await readInput(values, "the model's input");
        // An estimate needs only the priced fields: missing required ones are fine there.
        const problems = (deps.validateInput?.(model, input) ?? []).filter((p) => command === "run" || p.keyword !== "required");
        if (problems.length > 0) {
          for (const problem of problems) err(`${deps.name}: input${problem.path ? problem.path.replace(/\//g, ".") : ""}: ${problem.message}`);
          return EXIT.usage;
        }
        if (command === "estimate") {
          const estimate = costEstimate(deps.catalog, model, input);
          if (values.json) out(JSON.stringify({ model, estimateUsd: "usd" in estimate ? estimate.usd : null, ...("reason" in estimate ? { reason: estimate.reason } : {}) }));
          else out("usd" in estimate ? `${model}: ${formatUsd(estimate.usd)}` : `${model}: cost cannot be estimated (${estimate.reason})`);
          return EXIT.ok;
        }
        const jobOptions = values["job-option"] === undefined ? undefined : assign({}, values["job-option"], "--job-option");
        const client = deps.createClient();
        if (!values.wait && !values.sync) {
          if (maxCost !== undefined) estimateOrRefuse(deps.catalog, model, input, maxCost);
          const { data } = await client.runModel(model, input as never, { signal: deps.signal, jobOptions });
          out(values.json ? JSON.stringify(data, null, 2) : `${data.id} ${data.status}\nfollow it with: ${deps.name} wait ${model} ${data.id}`);
          return EXIT.ok;
        }
        const result = await runAndWait(client, deps.catalog, model, input, { ...waitOptions, sync: values.sync, maxCostUsd: maxCost, cancelOnAbort: values["cancel-on-abort"], jobOptions }).finally(progress.done);
        printResult(result);
        return EXIT.ok;
      }
      case "status": {
        const id = jobIdArgument(command, jobId, extra);
        const { data } = await deps.createClient().getModelJob(model, id, { signal: deps.signal });
        if (!isJob(data)) return notAJob();
        out(values.json ? JSON.stringify(data, null, 2) : describeJob(data));
        return EXIT.ok;
      }
      case "wait": {
        const id = jobIdArgument(command, jobId, extra);
        const result = await waitForJob(deps.createClient(), deps.catalog, model, id, waitOptions).finally(progress.done);
        printResult(result);
        return EXIT.ok;
      }
      case "cancel": {
        const id = jobIdArgument(command, jobId, extra);
        const client = deps.createClient();
        if (client.cancelModelJob === undefined) throw new UsageError("cancel: this API has no cancel operation");
        const { data } = await client.cancelModelJob(model, id, { signal: deps.signal });
        if (!isJob(data)) return notAJob();
        out(values.json ? JSON.stringify(data, null, 2) : describeJob(data));
        return EXIT.ok;
      }
      case "retry": {
        const id = jobIdArgument(command, jobId, extra);
        const client = deps.createClient();
        if (client.retryModelJob === undefined) throw new UsageError("retry: this API has no retry operation");
        const { data } = await client.retryModelJob(model, id, { signal: deps.signal });
        if (!isJob(data)) return notAJob();
        if (!values.wait) {
          out(values.json ? JSON.stringify(data, null, 2) : `${describeJob(data)}\nfollow it with: ${deps.name} wait ${model} ${data.id}`);
          return EXIT.ok;
        }
        const result = await waitForJob(client, deps.catalog, model, id, waitOptions).finally(progress.done);
        printResult(result);
        return EXIT.ok;
      }
      case "stream": {
        const id = jobIdArgument(command, jobId, extra);
        const client = deps.createClient();
        if (client.streamModelJob === undefined) throw new UsageError("stream: this API has no stream operation");
        // One line per chunk, as JSON: output that a pipe can read as it comes.
        const chunks = streamJob(client, deps.catalog, model, id, waitOptions);
        let next = await chunks.next();
        for (; !next.done; next = await chunks.next()) out(JSON.stringify(values.json ? next.value : next.value.output));
        err(`${deps.name}: ${id} ${next.value}`);
        return deps.catalog.terminalStatuses[next.value] === "failure" ? EXIT.jobFailed : EXIT.ok;
      }
      case "health": {
        if (jobId !== undefined) throw new UsageError(`${command}: unexpected argument ${jobId}`);
        const client = deps.createClient();
        if (client.getModelHealth === undefined) throw new UsageError("health: this API has no health operation");
        const { data } = await client.getModelHealth(model, { signal: deps.signal });
        out(values.json ? JSON.stringify(data, null, 2) : describeCounts(data));
        return EXIT.ok;
      }
      case "purge-queue": {
        if (jobId !== undefined) throw new UsageError(`${command}: unexpected argument ${jobId}`);
        // Queued jobs are work someone asked for: removing them all takes an explicit yes.
        if (!values.yes) throw new InputError(`purge-queue: removes every queued job of ${model}'s endpoint; add --yes to do it`);
        const client = deps.createClient();
        if (client.purgeModelQueue === undefined) throw new UsageError("purge-queue: this API has no purge-queue operation");
        const { data } = await client.purgeModelQueue(model, { signal: deps.signal });
        const removed = (data as { removed?: unknown } | undefined)?.removed;
        out(values.json ? JSON.stringify(data, null, 2) : typeof removed === "number" ? `${model}: removed ${removed} queued job${removed === 1 ? "" : "s"}` : JSON.stringify(data));
        return EXIT.ok;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    return report(error, err, deps, model);
  }
}

/** An answer of counts by group (`{ jobs: { inQueue: 2 }, workers: {...} }`), one line per group. */
function describeCounts(data: unknown): string {
  if (typeof data !== "object" || data === null) return JSON.stringify(data);
  return Object.entries(data)
    .map(([group, counts]) =>
      typeof counts === "object" && counts !== null
        ? `${group}: ${Object.entries(counts).map(([name, count]) => `${name} ${JSON.stringify(count)}`).join(", ")}`
        : `${group}: ${JSON.stringify(counts)}`,
    )
    .join("\n");
}

/** The `<job-id>` of a command that acts on a job, refused when missing or followed by more. */
function jobIdArgument(command: string, jobId: string | undefined, extra: readonly string[]): string {
  if (!jobId || extra.length > 0) throw new UsageError(`${command}: expected <model> <job-id>`);
  return jobId;
}

function isJob(value: unknown): value is JobLike {
  return typeof value === "object" && value !== null && typeof (value as JobLike).id === "string" && typeof (value as JobLike).status === "string";
}

function estimateOrRefuse(catalog: ModelCatalog, model: string, input: unknown, maxCost: number): void {
  const estimate = costEstimate(catalog, model, input);
  if (!("usd" in estimate)) throw new CostLimitError(model, undefined, maxCost, 1, estimate.reason);
  if (estimate.usd > maxCost) throw new CostLimitError(model, estimate.usd, maxCost);
}

function describeJob(job: JobLike): string {
  const output = job.output as Record<string, unknown> | undefined;
  const url = output && OUTPUT_URL_FIELDS.map((k) => output[k]).find((v) => typeof v === "string");
  return [`${job.id} ${job.status}`, url ? `url: ${url}` : undefined, typeof output?.cost === "number" ? `cost: ${formatUsd(output.cost)}` : undefined, job.error ? `error: ${job.error}` : undefined]
    .filter(Boolean)
    .join("\n");
}

function report(error: unknown, err: (text: string) => unknown, deps: CliDependencies, model: string | undefined): number {
  const { name } = deps;
  if (error instanceof CostLimitError) {
    // The user typed --max-cost, not the library's option name.
    err(`${name}: ${error.message.replace("maxCostUsd", "--max-cost")}`);
    return EXIT.costLimit;
  }
  if (error instanceof JobFailedError) {
    err(`${name}: ${error.message}`);
    return EXIT.jobFailed;
  }
  if (error instanceof JobWaitError) {
    const cancelled = error.cancellation?.cancelled.includes(error.jobId) === true;
    const ended = error.cancellation?.ended.some((e) => e.jobId === error.jobId) === true;
    const after = cancelled
      ? "the job was cancelled: it stops billing"
      : ended
        ? `the job had already ended; see it with: ${name} status ${model ?? "<model>"} ${error.jobId}`
        : `the job keeps running; follow it with: ${name} wait ${model ?? "<model>"} ${error.jobId}`;
    err(`${name}: ${error.message}\n${after}`);
    return error.kind === "timeout" ? EXIT.waitTimeout : EXIT.interrupted;
  }
  const code = reportCommonError(error, deps, () => usage(name));
  if (code !== undefined) return code;
  err(`${name}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.apiError;
}
