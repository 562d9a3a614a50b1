/**
 * The configuration file: `gpu-cloud-generator.config.json` or `gpu-cloud-generator.config.mjs`
 * (its default export) in the current folder, or the file `--config` names. It holds what the
 * command line takes, under the same names (`unknownFormats` for `--unknown-formats`); the command
 * line overrides it. Relative paths in it are relative to the file's folder, so the same file works
 * from wherever the command runs.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { UsageError } from "../common/errors.ts";

export const CONFIG_FILE_NAMES = ["gpu-cloud-generator.config.json", "gpu-cloud-generator.config.mjs"] as const;

/** What a configuration file may hold: every command-line option, typed as the command line reads it. */
export interface GeneratorConfig {
  spec?: string;
  out?: string;
  name?: string;
  check?: boolean;
  strict?: boolean;
  watch?: boolean;
  unknownFormats?: "warn" | "error";
  dates?: "string" | "date";
}

type Rule = { kind: "path" } | { kind: "string" } | { kind: "boolean" } | { kind: "one of"; values: readonly string[] };

const RULES: Record<keyof GeneratorConfig, Rule> = {
  spec: { kind: "path" },
  out: { kind: "path" },
  name: { kind: "string" },
  check: { kind: "boolean" },
  strict: { kind: "boolean" },
  watch: { kind: "boolean" },
  unknownFormats: { kind: "one of", values: ["warn", "error"] },
  dates: { kind: "one of", values: ["string", "date"] },
};

/** The configuration file to read: `--config`, else the one in `cwd`, else none. */
export function findConfigFile(explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) {
    const file = path.resolve(cwd, explicit);
    if (!fs.existsSync(file)) throw new UsageError(`--config ${explicit}: no such file`);
    return file;
  }
  const found = CONFIG_FILE_NAMES.map((name) => path.join(cwd, name)).filter((file) => fs.existsSync(file));
  if (found.length > 1) throw new UsageError(`both ${CONFIG_FILE_NAMES.join(" and ")} are in ${cwd}: keep one, or name it with --config`);
  return found[0];
}

/** Reads and checks a configuration file; paths in it come back absolute. */
export async function readConfigFile(file: string): Promise<GeneratorConfig> {
  const shown = path.relative(process.cwd(), file) || file;
  let value: unknown;
  if (file.endsWith(".json")) {
    try {
      value = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      throw new UsageError(`${shown}: not valid JSON (${(error as Error).message})`);
    }
  } else if (file.endsWith(".mjs") || file.endsWith(".js")) {
    let loaded: { default?: unknown };
    try {
      loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (error) {
      throw new UsageError(`${shown}: cannot be imported (${firstLine(error)})`);
    }
    if (!("default" in loaded)) throw new UsageError(`${shown}: has no default export (export default { spec: "...", out: "..." })`);
    value = await loaded.default;
  } else {
    throw new UsageError(`${shown}: a configuration file is .json or .mjs`);
  }
  return checkConfig(value, shown, path.dirname(file));
}

/** The configuration, checked key by key: the first unknown key or wrong value is the error. */
export function checkConfig(value: unknown, shown: string, baseDir: string): GeneratorConfig {
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError(`${shown}: must hold an object of options, not ${describe(value)}`);
  const config: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(value)) {
    const rule = Object.hasOwn(RULES, key) ? RULES[key as keyof GeneratorConfig] : undefined;
    if (rule === undefined) throw new UsageError(`${shown}: unknown key "${key}" (known: ${Object.keys(RULES).join(", ")})`);
    if (option === undefined) continue;
    switch (rule.kind) {
      case "path":
      case "string":
        if (typeof option !== "string" || option === "") throw new UsageError(`${shown}: "${key}" must be a non-empty string, not ${describe(option)}`);
        config[key] = rule.kind === "path" ? path.resolve(baseDir, option) : option;
        break;
      case "boolean":
        if (typeof option !== "boolean") throw new UsageError(`${shown}: "${key}" must be true or false, not ${describe(option)}`);
        config[key] = option;
        break;
      case "one of":
        if (typeof option !== "string" || !rule.values.includes(option)) throw new UsageError(`${shown}: "${key}" must be ${rule.values.map((v) => JSON.stringify(v)).join(" or ")}, not ${describe(option)}`);
        config[key] = option;
        break;
    }
  }
  return config as GeneratorConfig;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value) ?? String(value);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
