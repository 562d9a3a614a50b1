/// <reference types="node" />
/**
 * The pod commands of the package's terminal command (`pods`, `gpus`): a `CommandGroup` for
 * `../cli/commands.ts`, given the package's pod calls by the generated `bin.ts`. A call the contract
 * does not have is absent, and so is its command.
 */
import { parseArgs } from "node:util";
import { EXIT, InputError, UsageError, columns, positiveNumber, reportCommonError } from "../cli/commands.js";
import type { CommandEnvironment, CommandGroup } from "../cli/commands.js";
import { readInput } from "../cli/input.js";
import type { ApiResult, RequestOptions } from "../client-core.js";
import { InvalidRequestError } from "../errors.js";
import { PodCostLimitError } from "./cost.js";
import type { PodCostEstimate, PodCostSpec } from "./cost.js";
import { printPodLogs, POD_LOGS_QUIET_MS } from "./logs.js";
import type { PodLogQuery, PodLogStreamEvent, PodLogStreamOptions } from "./logs.js";
import { valueAt } from "../json-pointer.js";
import { DEFAULT_POD_WAIT_TIMEOUT_MS, PodWaitError } from "./wait.js";
import type { PodReadinessSpec, PodState, PodWaitOptions } from "./wait.js";

/** The package's pod calls, bound to its operations; each is there only when the contract has it. */
export interface PodCalls<C> {
  listPods?(client: C, options: RequestOptions): Promise<ApiResult<unknown>>;
  getPod?(client: C, id: string, options: RequestOptions): Promise<ApiResult<unknown>>;
  createPodWithinBudget?(client: C, body: Record<string, unknown>, options: RequestOptions & { maxCostPerHourUsd: number }): Promise<ApiResult<unknown> & { estimate: PodCostEstimate }>;
  waitForPod?(client: C, id: string, options: PodWaitOptions): Promise<unknown>;
  podAction?(client: C, id: string, action: string, options: RequestOptions): Promise<ApiResult<unknown>>;
  /** The GPU types with their prices (and their stock, when the catalog gives it on request). */
  listGpuTypes?(client: C, options: RequestOptions): Promise<ApiResult<unknown>>;
  /** The pod's log stream (Server-Sent Events), given only the filters of `logFilters`. */
  podLogs?(client: C, id: string, query: PodLogQuery, options: PodLogStreamOptions): AsyncIterable<PodLogStreamEvent>;
}

export interface PodCliDependencies<C> extends CommandEnvironment {
  createClient(): C;
  calls: PodCalls<C>;
  /** `x-pod-cost`: where a GPU type's price per cloud is (the gpus columns). */
  cost?: PodCostSpec | undefined;
  /** `x-pod-readiness`: where a pod's status is. */
  readiness?: PodReadinessSpec | undefined;
  /** The filters the logs operation takes (`--tail`, `--since`, `--source` each only when it is here). */
  logFilters?: ReadonlyArray<keyof PodLogQuery> | undefined;
  /** For tests: the clock and the pause of `pods wait` (default Date.now and an abortable timer). */
  now?(): number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  /** For tests: the wait before `pods logs --follow` reconnects (default the event-stream runtime's). */
  reconnectDelayMs?: number;
}

const ACTIONS = ["start", "stop", "terminate"] as const;

/** The pod commands, for the command registry; `pods` and `gpus` each only when their calls exist. */
export function podCommands<C>(deps: PodCliDependencies<C>): CommandGroup {
  const { calls } = deps;
  const hasPods = [calls.listPods, calls.getPod, calls.createPodWithinBudget, calls.waitForPod, calls.podAction, calls.podLogs].some((call) => call !== undefined);
  const hasGpus = calls.listGpuTypes !== undefined;
  return {
    commands: [...(hasPods ? ["pods"] : []), ...(hasGpus ? ["gpus"] : [])],
    usage: () => podUsage(deps),
    run: (command, args) => runPodCommand(command, args, deps),
  };
}

/** The usage lines of the pod commands the package has, and their notes. */
function podUsage<C>({ name, calls, logFilters = [] }: PodCliDependencies<C>): string {
  const filters = [logFilters.includes("tail") && "[--tail N]", logFilters.includes("since") && "[--since RFC3339]", logFilters.includes("source") && "[--source container|system]"].filter(Boolean);
  const lines = [
    calls.listPods && `  ${name} pods list [--json]`,
    calls.createPodWithinBudget && `  ${name} pods create (--input FILE.json | --set KEY=VALUE ...) --max-cost-per-hour USD [--wait] [--timeout SECONDS] [--interval SECONDS] [--json]`,
    calls.getPod && `  ${name} pods get <pod-id> [--json]`,
    calls.podAction && `  ${name} pods start <pod-id> [--json]`,
    calls.podAction && `  ${name} pods stop <pod-id> [--json]`,
    calls.podAction && `  ${name} pods terminate <pod-id> --yes [--json]`,
    calls.waitForPod && `  ${name} pods wait <pod-id> [--timeout SECONDS] [--interval SECONDS] [--json]`,
    calls.podLogs && `  ${name} pods logs <pod-id> [--follow] ${[...filters, "[--json]"].join(" ")}`,
    calls.listGpuTypes && `  ${name} gpus [--json]`,
  ];
  const notes = [
    calls.createPodWithinBudget &&
      "pods create estimates the pod's GPU cost per hour from the catalog's list price first (disk and volumes not counted), and sends nothing when it passes --max-cost-per-hour (or cannot be estimated).",
    calls.waitForPod && `pods wait waits until the pod runs with its ports reachable, or ends; it stops after --timeout seconds (${DEFAULT_POD_WAIT_TIMEOUT_MS / 1000} unless given), the pod going on.`,
    calls.podAction && "pods terminate deletes the pod and its disk; it asks for --yes.",
    calls.podLogs &&
      `pods logs prints the lines the server sends on one connection and stops when it closes it or sends nothing for ${POD_LOGS_QUIET_MS / 1000} s; with --follow it keeps following (resuming after a cut where it stopped) until Ctrl-C.`,
    calls.listGpuTypes && "gpus lists every GPU type with its price per GPU and hour on each cloud, and its stock for pods when the catalog gives it.",
    "Exit codes: 0 done, 1 pod failed, 2 bad usage or input, 3 API or network error, 4 over --max-cost-per-hour, 5 wait timed out, 130 interrupted.",
  ];
  return [...lines, "", ...notes].filter((line) => line !== undefined).join("\n");
}

async function runPodCommand<C>(command: string, args: readonly string[], deps: PodCliDependencies<C>): Promise<number> {
  const out = (text: string) => deps.stdout.write(`${text}\n`);
  const { calls, name } = deps;
  // Named once known, for the message that tells how to wait again after an interrupted wait.
  let waitingFor: string | undefined;
  try {
    // `--help` never reaches here: the registry answers it wherever it is.
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        input: { type: "string" },
        set: { type: "string", multiple: true },
        "max-cost-per-hour": { type: "string" },
        wait: { type: "boolean", default: false },
        timeout: { type: "string" },
        interval: { type: "string" },
        yes: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        follow: { type: "boolean", default: false },
        tail: { type: "string" },
        since: { type: "string" },
        source: { type: "string" },
      },
    });
    const json = (value: unknown) => out(JSON.stringify(value, null, 2));
    const request = { signal: deps.signal };
    if (command === "gpus") {
      if (positionals.length > 0) throw new UsageError(`gpus: unexpected argument ${positionals[0]}`);
      const { data } = await calls.listGpuTypes!(deps.createClient(), request);
      if (values.json) json(data);
      else out(describeGpus(listed(data), deps.cost));
      return EXIT.ok;
    }
    const [subcommand, id, ...extra] = positionals;
    const only = (flag: string, allowed: boolean) => {
      if (!allowed) throw new UsageError(`${flag}: not an option of pods ${subcommand}`);
    };
    only("--input", values.input === undefined || subcommand === "create");
    only("--set", values.set === undefined || subcommand === "create");
    only("--max-cost-per-hour", values["max-cost-per-hour"] === undefined || subcommand === "create");
    only("--wait", !values.wait || subcommand === "create");
    only("--yes", !values.yes || subcommand === "terminate");
    only("--timeout", values.timeout === undefined || subcommand === "wait" || (subcommand === "create" && values.wait));
    only("--interval", values.interval === undefined || subcommand === "wait" || (subcommand === "create" && values.wait));
    only("--follow", !values.follow || subcommand === "logs");
    for (const filter of ["tail", "since", "source"] as const) {
      only(`--${filter}`, values[filter] === undefined || (subcommand === "logs" && (deps.logFilters ?? []).includes(filter)));
    }
    const podId = (): string => {
      if (!id || extra.length > 0) throw new UsageError(`pods ${subcommand}: expected <pod-id>`);
      return id;
    };
    const waitFor = async (pod: string): Promise<number> => {
      waitingFor = pod;
      const timeoutSeconds = positiveNumber(values.timeout, "--timeout");
      const intervalSeconds = positiveNumber(values.interval, "--interval");
      const progress = progressReporter(deps.stderr);
      const ready = await calls
        .waitForPod!(deps.createClient(), pod, {
          signal: deps.signal,
          ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
          ...(intervalSeconds !== undefined ? { intervalMs: intervalSeconds * 1000 } : {}),
          ...(deps.now ? { now: deps.now } : {}),
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
          ...(values.json ? {} : { onPoll: (read: unknown, state: PodState) => progress.update(read, state, deps.readiness) }),
        })
        .finally(progress.done);
      if (values.json) json(ready);
      else out(describePod(ready, deps));
      return EXIT.ok;
    };
    const available = (call: unknown): void => {
      if (call === undefined) throw new UsageError(`pods ${subcommand}: this API has no such operation`);
    };
    switch (subcommand) {
      case undefined:
        throw new UsageError(`pods: missing a subcommand (${["list", "create", "get", ...ACTIONS, "wait", ...(calls.podLogs ? ["logs"] : [])].join(", ")})`);
      case "list": {
        available(calls.listPods);
        if (id !== undefined) throw new UsageError(`pods list: unexpected argument ${id}`);
        const { data } = await calls.listPods!(deps.createClient(), request);
        if (values.json) json(data);
        else {
          const pods = listed(data);
          out(pods.length === 0 ? "no pods" : columns(pods.map((pod) => podRow(pod, deps)), "").join("\n"));
        }
        return EXIT.ok;
      }
      case "create": {
        available(calls.createPodWithinBudget);
        if (id !== undefined) throw new UsageError(`pods create: unexpected argument ${id}`);
        // The cap is what makes creating a pod from a terminal safe: it is never implied.
        if (values["max-cost-per-hour"] === undefined) throw new UsageError("pods create: --max-cost-per-hour USD is required (the most the pod's GPUs may cost per hour at the catalog's list price)");
        const maxCostPerHourUsd = positiveNumber(values["max-cost-per-hour"], "--max-cost-per-hour")!;
        const body = await readInput(values, "the pod to create");
        const { data, estimate } = await calls.createPodWithinBudget!(deps.createClient(), body, { ...request, maxCostPerHourUsd }).catch((error: unknown) => {
          // Cut off after the create may have been sent (a timeout, Ctrl-C, a lost connection): the pod may exist and bill.
          if (!(error instanceof PodCostLimitError) && !(error instanceof InvalidRequestError)) {
            deps.stderr.write(`${name}: if the create request reached the service, the pod may exist; check with: ${name} pods list\n`);
          }
          throw error;
        });
        const created = valueAt(data, "/id");
        if (values.json && !values.wait) json({ pod: data, estimate });
        else {
          out(`${describePod(data, deps)}\nestimated: ${estimate.usdPerHour} USD per hour (${estimate.gpuCount} × ${estimate.gpuTypeId} on ${estimate.cloud} at ${estimate.usdPerGpuHour})`);
          if (!values.wait && typeof created === "string" && calls.waitForPod) out(`wait for it with: ${name} pods wait ${created}`);
        }
        if (values.wait && calls.waitForPod && typeof created === "string") return await waitFor(created);
        return EXIT.ok;
      }
      case "get": {
        available(calls.getPod);
        const { data } = await calls.getPod!(deps.createClient(), podId(), request);
        if (values.json) json(data);
        else out(describePod(data, deps));
        return EXIT.ok;
      }
      case "start":
      case "stop":
      case "terminate": {
        available(calls.podAction);
        const pod = podId();
        // Terminating deletes the pod's disk with it: it takes an explicit yes, checked before anything is sent.
        if (subcommand === "terminate" && !values.yes) throw new InputError(`pods terminate: deletes pod ${pod} and its disk; add --yes to do it`);
        const { data } = await calls.podAction!(deps.createClient(), pod, subcommand, request);
        if (values.json) json(data ?? { id: pod, action: subcommand });
        else out(data === undefined || data === null ? `${pod} ${subcommand === "terminate" ? "terminated" : subcommand}` : describePod(data, deps));
        return EXIT.ok;
      }
      case "wait": {
        available(calls.waitForPod);
        return await waitFor(podId());
      }
      case "logs": {
        available(calls.podLogs);
        const pod = podId();
        const query = logQuery(values);
        const client = deps.createClient();
        await printPodLogs({
          open: (filters, options) => calls.podLogs!(client, pod, filters, options),
          query,
          follow: values.follow,
          json: values.json,
          write: out,
          signal: deps.signal,
          sleep: deps.sleep,
          reconnectDelayMs: deps.reconnectDelayMs,
        });
        return EXIT.ok;
      }
      default:
        throw new UsageError(`pods: unknown subcommand "${subcommand}" (${["list", "create", "get", ...ACTIONS, "wait", ...(calls.podLogs ? ["logs"] : [])].join(", ")})`);
    }
  } catch (error) {
    return report(error, deps, waitingFor);
  }
}

/** The filters of `pods logs`, checked here so that a mistake is said with the flag's name. */
function logQuery(values: { tail?: string | undefined; since?: string | undefined; source?: string | undefined }): PodLogQuery {
  const query: PodLogQuery = {};
  if (values.tail !== undefined) {
    if (!/^\d+$/.test(values.tail)) throw new UsageError(`--tail ${values.tail}: expected a whole number of lines, 0 or more`);
    query.tail = Number(values.tail);
  }
  if (values.since !== undefined) {
    if (!RFC3339.test(values.since) || Number.isNaN(Date.parse(values.since))) throw new UsageError(`--since ${values.since}: expected an RFC 3339 instant such as 2026-06-01T12:00:00Z`);
    query.since = values.since;
  }
  if (values.source !== undefined) {
    if (values.source === "") throw new UsageError("--source: expected a log's name (container or system)");
    query.source = values.source;
  }
  return query;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function report<C>(error: unknown, deps: PodCliDependencies<C>, waitingFor: string | undefined): number {
  const err = (text: string) => deps.stderr.write(`${text}\n`);
  if (error instanceof PodCostLimitError) {
    // The user typed --max-cost-per-hour, not the library's option name.
    err(`${deps.name}: ${error.message.replaceAll("maxCostPerHourUsd", "--max-cost-per-hour")}`);
    return EXIT.costLimit;
  }
  if (error instanceof PodWaitError) {
    const after = error.reason === "failed" ? "" : `\nthe pod goes on; wait again with: ${deps.name} pods wait ${waitingFor ?? "<pod-id>"}`;
    err(`${deps.name}: ${error.message}${after}`);
    return error.reason === "failed" ? EXIT.jobFailed : error.reason === "timeout" ? EXIT.waitTimeout : EXIT.interrupted;
  }
  const code = reportCommonError(error, deps, () => `usage:\n${podUsage(deps)}`);
  if (code !== undefined) return code;
  err(`${deps.name}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.apiError;
}

/** The items of a list answer: the array itself, or the first array member of its object (`{pods: [...]}`). */
function listed(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (typeof data === "object" && data !== null) return Object.values(data).find(Array.isArray) ?? [];
  return [];
}

function text(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "-";
}

function podStatus<C>(pod: unknown, deps: PodCliDependencies<C>): string {
  return text(valueAt(pod, deps.readiness?.statusFrom ?? "/status"));
}

/** A pod's GPUs as `count × type`, read where the create body names them. */
function podGpus<C>(pod: unknown, deps: PodCliDependencies<C>): string {
  const type = valueAt(pod, deps.cost?.gpuTypeFrom ?? "/gpu/id");
  if (typeof type !== "string") return "-";
  const count = valueAt(pod, deps.cost?.gpuCountFrom ?? "/gpu/count");
  return `${typeof count === "number" ? count : (deps.cost?.defaultGpuCount ?? 1)} × ${type}`;
}

function podRow<C>(pod: unknown, deps: PodCliDependencies<C>): string[] {
  const cost = valueAt(pod, "/cost");
  return [text(valueAt(pod, "/id")), text(valueAt(pod, "/name")), podStatus(pod, deps), podGpus(pod, deps), typeof cost === "number" ? `${cost} USD/h` : "-"];
}

function describePod<C>(pod: unknown, deps: PodCliDependencies<C>): string {
  const cost = valueAt(pod, "/cost");
  const mappings = deps.readiness?.mappingsFrom === undefined ? undefined : valueAt(pod, deps.readiness.mappingsFrom);
  const ports = (Array.isArray(mappings) ? mappings : []).flatMap((mapping) => {
    const ip = valueAt(mapping, "/ip");
    const published = valueAt(mapping, "/public");
    const inside = valueAt(mapping, "/private");
    return typeof ip === "string" && typeof published === "number" ? [`${ip}:${published} -> ${text(inside)}`] : [];
  });
  return [
    `${text(valueAt(pod, "/id"))} ${podStatus(pod, deps)}`,
    typeof valueAt(pod, "/name") === "string" ? `name: ${text(valueAt(pod, "/name"))}` : undefined,
    podGpus(pod, deps) === "-" ? undefined : `gpus: ${podGpus(pod, deps)}`,
    typeof cost === "number" ? `cost: ${cost} USD per hour` : undefined,
    ports.length > 0 ? `ports: ${ports.join(", ")}` : undefined,
  ]
    .filter((line) => line !== undefined)
    .join("\n");
}

/** The GPU types in aligned columns: id, memory, a price per GPU and hour per cloud, stock. */
function describeGpus(types: readonly unknown[], cost: PodCostSpec | undefined): string {
  if (types.length === 0) return "no GPU types";
  const clouds = Object.entries(cost?.rates ?? {});
  const header = ["GPU TYPE", "MEMORY", ...clouds.map(([cloud]) => `${cloud} USD/h`), "STOCK"];
  const rows = types.map((type) => {
    const memory = valueAt(type, "/memory");
    return [
      text(valueAt(type, "/id")),
      typeof memory === "number" ? `${memory} GB` : "-",
      ...clouds.map(([, pointer]) => {
        const price = valueAt(type, pointer);
        return typeof price === "number" ? price.toFixed(2) : "-";
      }),
      text(valueAt(type, "/availability")),
    ];
  });
  return columns([header, ...rows], "").join("\n");
}

/** Waiting progress: one updating line on a terminal, plain lines otherwise. */
function progressReporter(stream: CommandEnvironment["stderr"]): { update(pod: unknown, state: PodState, readiness: PodReadinessSpec | undefined): void; done(): void } {
  let shown = false;
  let polls = 0;
  return {
    update(pod, state, readiness) {
      polls += 1;
      const line = `${text(valueAt(pod, "/id"))}  ${text(valueAt(pod, readiness?.statusFrom ?? "/status"))}${state === "pending" ? "" : `  ${state}`}  ${polls} read${polls === 1 ? "" : "s"}`;
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
