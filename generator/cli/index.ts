/**
 * `npm run generate [-- --spec FILE] [--out DIR] [--check] [--watch] [--config FILE] [--name PACKAGE] [--dates string|date]`,
 * and `gpu-cloud-generator` (the generator's own package, scripts/build-generator.mjs) with the same options.
 *
 * Writes the client package generated from the contract, atomically. With `--check` it writes
 * nothing and exits 1 listing every file that would change: CI's drift check. With `--watch` it
 * generates again whenever the contract or a file it references changes. Options may also come
 * from a configuration file (config.ts); the command line overrides it.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { parseCommandLine } from "./args.ts";
import { findConfigFile, readConfigFile, type GeneratorConfig } from "./config.ts";
import { errorText } from "./report.ts";
import { watchContract } from "./watch.ts";
import { schemaTypesThread, type SchemaTypesThread, type UnknownFormats } from "../emit/index.ts";
import { UsageError } from "../common/errors.ts";
import { check, generate, type DatesOption, type GenerateOptions } from "../generate.ts";

export interface CliExtras {
  /** A worker started from the built `schema-types-worker` (generator/run.mjs): `src/schema.ts` is emitted there. */
  schemaTypesWorker?: Worker;
  /** Errors the worker reported before the CLI listened to it. */
  schemaTypesWorkerErrors?: unknown[];
  /**
   * Run as the installed `gpu-cloud-generator`, outside this workspace: `--spec` and `--out` have
   * no workspace defaults, and messages name that command.
   */
  standalone?: boolean;
}

const OPTIONS_TEXT = `[--config FILE] [--check] [--watch] [--strict] [--unknown-formats warn|error] [--dates string|date]`;
const WORKSPACE_USAGE = `usage: npm run generate -- [--spec openapi/openapi.yaml] [--out generated/<package>] [--name <package>] ${OPTIONS_TEXT}`;
export const STANDALONE_USAGE = `usage: gpu-cloud-generator --spec <contract> --out <folder> [--name <package>] ${OPTIONS_TEXT}
       gpu-cloud-generator version-contract --base <git ref | file> [--spec <contract>] [--write] [--json]`;

/** Runs the command; resolves with the exit code. */
export async function runCli(argv: string[], extras: CliExtras = {}): Promise<number> {
  const thread = extras.schemaTypesWorker === undefined ? undefined : schemaTypesThread(extras.schemaTypesWorker, extras.schemaTypesWorkerErrors);
  try {
    return await main(argv, thread, extras.standalone === true);
  } catch (error) {
    process.stderr.write(errorText(error));
    return 1;
  } finally {
    await thread?.close();
  }
}

async function main(argv: string[], thread: SchemaTypesThread | undefined, standalone: boolean): Promise<number> {
  const usage = standalone ? STANDALONE_USAGE : WORKSPACE_USAGE;
  const rerun = standalone ? "gpu-cloud-generator" : "npm run generate";
  // No defaults here: a value given on the command line is what overrides the configuration file.
  const args = parseCommandLine(
    argv,
    {
      config: { type: "string" },
      spec: { type: "string" },
      out: { type: "string" },
      name: { type: "string" },
      check: { type: "boolean" },
      watch: { type: "boolean" },
      strict: { type: "boolean" },
      "unknown-formats": { type: "string" },
      dates: { type: "string" },
    },
    usage,
  );
  if (args.exitCode !== undefined) return args.exitCode;
  const { values } = args;
  const configFile = findConfigFile(values.config);
  const config: GeneratorConfig = configFile === undefined ? {} : await readConfigFile(configFile);
  const spec = values.spec ?? config.spec ?? (standalone ? undefined : "openapi/openapi.yaml");
  const out = values.out ?? config.out;
  if (spec === undefined) throw new UsageError(`--spec is required (or "spec" in gpu-cloud-generator.config.json)\n${usage}`);
  if (out === undefined && standalone) throw new UsageError(`--out is required (or "out" in gpu-cloud-generator.config.json)\n${usage}`);
  const unknownFormats = unknownFormatsOption(values["unknown-formats"] ?? config.unknownFormats, usage);
  const dates = datesOption(values.dates ?? config.dates, usage);
  const checkOnly = values.check ?? config.check ?? false;
  const watch = values.watch ?? config.watch ?? false;
  if (checkOnly && watch) throw new UsageError(`--check and --watch do not go together: --check compares once, for CI\n${usage}`);
  const options: GenerateOptions = {
    spec,
    out,
    packageName: values.name ?? config.name,
    strict: values.strict ?? config.strict ?? false,
    unknownFormats,
    dates,
  };
  const shownSpec = path.relative(process.cwd(), path.resolve(spec)) || spec;
  const warn = (lines: string[]) => {
    for (const line of lines) process.stderr.write(`warning: ${line}\n`);
  };
  const relative = (p: string) => path.relative(process.cwd(), p) || ".";

  if (checkOnly) {
    const result = await check({ ...options, emitSchemaTypes: thread?.emit });
    warn(result.warnings);
    const lines = [
      ...result.changed.map((f) => `  changed: ${f}`),
      ...result.added.map((f) => `  missing: ${f}`),
      ...result.removed.map((f) => `  not generated: ${f}`),
    ];
    if (lines.length === 0) {
      process.stdout.write(`${relative(result.outDir)} matches ${shownSpec}\n`);
      return 0;
    }
    process.stderr.write(`${relative(result.outDir)} differs from what ${shownSpec} generates (run \`${rerun}\`):\n${lines.join("\n")}\n`);
    return 1;
  }

  // The worker emits once: a watch's later runs emit in this thread (the same text).
  let worker = thread?.emit;
  const generateOnce = async () => {
    const emitSchemaTypes = worker;
    worker = undefined;
    const result = await generate({ ...options, emitSchemaTypes });
    warn(result.warnings);
    const t = result.timings;
    process.stdout.write(
      // Files whose text is already right are not rewritten (regeneration in place): both counts.
      `wrote ${result.written.length} of ${result.files.length} files to ${relative(result.outDir)}${result.removed.length > 0 ? `, removed ${result.removed.length}` : ""} ` +
        `(load ${t.load.toFixed(0)} ms, model ${t.model.toFixed(0)} ms, emit ${t.emit.toFixed(0)} ms, write ${t.write.toFixed(0)} ms)\n`,
    );
    for (const line of result.notes) process.stdout.write(`${line}\n`);
    // The changelog beside the contract goes into the package too.
    const changelog = path.join(path.dirname(result.contract.sourcePath), "CHANGELOG.md");
    return [...result.contract.files, ...(fs.existsSync(changelog) ? [changelog] : [])];
  };
  if (watch) return watchContract(spec, generateOnce);
  await generateOnce();
  return 0;
}

// Run directly (`tsx generator/cli/index.ts`); generator/run.mjs imports the built module and calls runCli.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}

function unknownFormatsOption(value: string | undefined, usage: string): UnknownFormats {
  if (value === undefined || value === "warn" || value === "error") return value ?? "warn";
  throw new UsageError(`--unknown-formats must be warn or error, not ${JSON.stringify(value)}\n${usage}`);
}

function datesOption(value: string | undefined, usage: string): DatesOption {
  if (value === undefined || value === "string" || value === "date") return value ?? "string";
  throw new UsageError(`--dates must be string or date, not ${JSON.stringify(value)}\n${usage}`);
}
