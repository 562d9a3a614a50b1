/// <reference types="node" />
/**
 * The package's terminal command as a registry: each extension that gives the package commands
 * contributes one `CommandGroup` (its command names, its usage, how it runs them), and `runCommands`
 * dispatches to the group that answers a command. What every group shares is here too: exit codes,
 * the two kinds of mistakes, option checks, aligned columns and the report of an API error.
 */
import { SdkError } from "../error-base.js";
import { InvalidRequestError } from "../errors.js";

/** Exit codes, as documented in the package README (a group uses the ones that apply to it). */
export const EXIT = {
  ok: 0,
  jobFailed: 1,
  usage: 2,
  apiError: 3,
  costLimit: 4,
  waitTimeout: 5,
  interrupted: 130,
} as const;

export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What every group is given: the command's name, its streams, and how a terminal user names a credential. */
export interface CommandEnvironment {
  /** The command's name (the package's `bin`), which starts every message. */
  name: string;
  /** The package's version, printed by `--version`. */
  version?: string | undefined;
  /** Per credential option the client reads from the environment: its variable and what it is called. */
  credentials?: Readonly<Record<string, { env: string; label: string }>> | undefined;
  /** Every environment variable the command (through the client) reads, for `--help`. */
  environment?: ReadonlyArray<{ name: string; description: string }> | undefined;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Aborts a wait (Ctrl-C). */
  signal?: AbortSignal | undefined;
}

/** The commands one extension contributes. */
export interface CommandGroup {
  /** The first words it answers (`run`, `pods`…). */
  commands: readonly string[];
  /** Its usage lines and notes, as `--help` prints them. */
  usage(): string;
  /** More for `--help` after every group's usage (its known models, say), if any. */
  described?(): string | undefined;
  /** Runs `command` with the words after it; resolves with the exit code. */
  run(command: string, args: readonly string[]): Promise<number>;
}

/** A mistake in how the command was called: said, then the usage. */
export class UsageError extends Error {}

/** A mistake in what the command was given (a file, an id, a missing `--yes`): said in one line, without the usage. */
export class InputError extends Error {}

/** Dispatches `argv` to the group that answers its first word; `--help`, `--version` and unknown words here. */
export async function runCommands(argv: readonly string[], env: CommandEnvironment, groups: readonly CommandGroup[]): Promise<number> {
  const [command, ...rest] = argv;
  const help = () =>
    [`  ${env.name} --help | --version`, groups.map((group) => group.usage()).join("\n\n"), ...groups.map((group) => group.described?.()), environmentHelp(env)].filter(Boolean).join("\n");
  // `--help` after a command prints the same help as before one (a value such as `--set a=--help` is not it).
  const asksHelp = rest.slice(0, rest.includes("--") ? rest.indexOf("--") : undefined).some((word) => word === "--help" || word === "-h");
  if (command === undefined || command === "help" || command === "--help" || command === "-h" || asksHelp) {
    env[command === undefined ? "stderr" : "stdout"].write(`usage:\n${help()}\n`);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "--version") {
    env.stdout.write(`${env.version ?? "unknown"}\n`);
    return EXIT.ok;
  }
  const group = groups.find((candidate) => candidate.commands.includes(command));
  if (group === undefined) {
    env.stderr.write(`${env.name}: unknown command "${command}"\n\nusage:\n${groups.map((candidate) => candidate.usage()).join("\n\n")}\n`);
    return EXIT.usage;
  }
  return group.run(command, rest);
}

function environmentHelp({ environment = [] }: CommandEnvironment): string | undefined {
  if (environment.length === 0) return undefined;
  return ["", "Environment variables (an empty one counts as unset):", ...columns(environment.map((v) => [v.name, v.description]))].join("\n");
}

/** Rows in aligned columns, each indented by two spaces (the last cell is not padded). */
export function columns(rows: ReadonlyArray<readonly string[]>, indent = "  "): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length))) ?? [];
  return rows.map((row) => `${indent}${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]! + 2))).join("")}`.trimEnd());
}

/** A positive number of `flag` (seconds, USD), or undefined when not given. */
export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} ${value}: expected a positive number`);
  return n;
}

/**
 * The exit code of the errors every group can meet (a usage or input mistake, a missing credential,
 * an API or network error), having said it on stderr; undefined for any other error.
 */
export function reportCommonError(error: unknown, env: Pick<CommandEnvironment, "name" | "credentials" | "stderr">, usageText: () => string): number | undefined {
  const { name } = env;
  const err = (text: string) => env.stderr.write(`${text}\n`);
  if (error instanceof UsageError || (error instanceof TypeError && (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))) {
    // Node's parser explains `--` at length after its first sentence: the first is what matters here.
    const text = (error as Error).message;
    const first = text.split(/\.\s/)[0] ?? text;
    // Lower case after the prefix, as the command's own messages are.
    const message = error instanceof UsageError ? text : first.charAt(0).toLowerCase() + first.slice(1);
    err(`${name}: ${message}\n\n${usageText()}`);
    return EXIT.usage;
  }
  if (error instanceof InputError) {
    err(`${name}: ${error.message}`);
    return EXIT.usage;
  }
  if (error instanceof InvalidRequestError) {
    // A missing credential is named by the variable a terminal user sets, not the option.
    const missing = error.problems.map((p) => (p.keyword === "required" ? env.credentials?.[p.path] : undefined));
    const named = missing.length > 0 && missing.every((c) => c !== undefined) ? (missing as Array<{ env: string; label: string }>) : undefined;
    const variables = named?.map((c) => c.env);
    err(`${name}: ${named ? `no ${named.map((c) => c.label).join(" and ")}: set the ${variables!.join(" and ")} environment variable${variables!.length > 1 ? "s" : ""}` : error.message}`);
    return EXIT.usage;
  }
  if (error instanceof SdkError) {
    // What the service's support asks for, when its answer had one.
    const requestId = (error as { requestId?: unknown }).requestId;
    err(`${name}: ${error.message}${typeof requestId === "string" ? ` (request id ${requestId})` : ""}`);
    return error.kind === "aborted" ? EXIT.interrupted : EXIT.apiError;
  }
  return undefined;
}
