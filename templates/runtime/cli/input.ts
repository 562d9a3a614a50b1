/// <reference types="node" />
/** What a command reads from its user: a JSON object from a file and `KEY=VALUE` assignments. */
import { readFile } from "node:fs/promises";
import { InputError, UsageError } from "./commands.js";

/** Sets `path` (dotted) in `target` to `value`. */
function setPath(target: Record<string, unknown>, path: string, value: unknown, flag: string): void {
  const keys = path.split(".");
  if (keys.some((key) => key === "" || key === "__proto__" || key === "constructor" || key === "prototype")) {
    throw new UsageError(`${flag} ${path}: not a usable field name`);
  }
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = (typeof next === "object" && next !== null ? next : (node[key] = {})) as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/** The object of `--input FILE.json` (or an empty one), with each `--set KEY=VALUE` set in it; `what` names it in messages. */
export async function readInput(values: { input?: string | undefined; set?: string[] | undefined }, what: string): Promise<Record<string, unknown>> {
  let input: Record<string, unknown> = {};
  if (values.input !== undefined) {
    let text: string;
    try {
      text = await readFile(values.input, "utf8");
    } catch (error) {
      throw new InputError(`--input ${values.input}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
    }
    try {
      input = JSON.parse(text);
    } catch (error) {
      throw new InputError(`--input ${values.input}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof input !== "object" || input === null || Array.isArray(input)) throw new InputError(`--input ${values.input}: must hold a JSON object (${what})`);
  }
  return assign(input, values.set, "--set");
}

/** `target` with each `KEY=VALUE` of `flag` set in it: VALUE as JSON when it parses, as text otherwise. */
export function assign(target: Record<string, unknown>, assignments: readonly string[] | undefined, flag: string): Record<string, unknown> {
  for (const assignment of assignments ?? []) {
    const at = assignment.indexOf("=");
    if (at <= 0) throw new UsageError(`${flag} ${assignment}: expected KEY=VALUE`);
    const raw = assignment.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // Plain text, as typed.
    }
    setPath(target, assignment.slice(0, at), value, flag);
  }
  return target;
}
