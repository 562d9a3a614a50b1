/**
 * `npm run generate [-- --spec FILE] [--out DIR] [--check] [--name PACKAGE] [--dates string|date]`
 *
 * Writes the client package generated from the contract, atomically. With `--check` it writes
 * nothing and exits 1 listing every file that would change: CI's drift check.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { parseCommandLine } from "./args.ts";
import { schemaTypesThread, type SchemaTypesThread, type UnknownFormats } from "../emit/index.ts";
import { ContractError, EmitterError, UsageError } from "../common/errors.ts";
import { check, generate, type DatesOption } from "../generate.ts";

export interface CliExtras {
  /** A worker started from the built `schema-types-worker` (generator/run.mjs): `src/schema.ts` is emitted there. */
  schemaTypesWorker?: Worker;
  /** Errors the worker reported before the CLI listened to it. */
  schemaTypesWorkerErrors?: unknown[];
}

const USAGE = `usage: npm run generate -- [--spec openapi/openapi.yaml] [--out generated/<package>] [--name <package>] [--check] [--strict] [--unknown-formats warn|error] [--dates string|date]`;

/** Runs the command; resolves with the exit code. */
export async function runCli(argv: string[], extras: CliExtras = {}): Promise<number> {
  const thread = extras.schemaTypesWorker === undefined ? undefined : schemaTypesThread(extras.schemaTypesWorker, extras.schemaTypesWorkerErrors);
  try {
    return await main(argv, thread);
  } catch (error) {
    // A contract problem or a refused --out is the user's to fix: its message, not a stack trace.
    if (error instanceof ContractError || error instanceof UsageError || error instanceof EmitterError) process.stderr.write(`error: ${error.message}\n`);
    else process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    await thread?.close();
  }
}

async function main(argv: string[], thread: SchemaTypesThread | undefined): Promise<number> {
  const args = parseCommandLine(
    argv,
    {
      spec: { type: "string", default: "openapi/openapi.yaml" },
      out: { type: "string" },
      name: { type: "string" },
      check: { type: "boolean", default: false },
      strict: { type: "boolean", default: false },
      "unknown-formats": { type: "string", default: "warn" },
      dates: { type: "string", default: "string" },
    },
    USAGE,
  );
  if (args.exitCode !== undefined) return args.exitCode;
  const { values } = args;
  const unknownFormats = unknownFormatsOption(values["unknown-formats"]);
  const dates = datesOption(values.dates);
  const options = { spec: values.spec, out: values.out, packageName: values.name, emitSchemaTypes: thread?.emit, strict: values.strict, unknownFormats, dates };
  const warn = (lines: string[]) => {
    for (const line of lines) process.stderr.write(`warning: ${line}\n`);
  };
  const relative = (p: string) => path.relative(process.cwd(), p) || ".";

  if (values.check) {
    const result = await check(options);
    warn(result.warnings);
    const lines = [
      ...result.changed.map((f) => `  changed: ${f}`),
      ...result.added.map((f) => `  missing: ${f}`),
      ...result.removed.map((f) => `  not generated: ${f}`),
    ];
    if (lines.length === 0) {
      process.stdout.write(`${relative(result.outDir)} matches ${values.spec}\n`);
      return 0;
    }
    process.stderr.write(`${relative(result.outDir)} differs from what ${values.spec} generates (run \`npm run generate\`):\n${lines.join("\n")}\n`);
    return 1;
  }

  const result = await generate(options);
  warn(result.warnings);
  const t = result.timings;
  process.stdout.write(
    `wrote ${result.files.length} files to ${relative(result.outDir)} ` +
      `(load ${t.load.toFixed(0)} ms, model ${t.model.toFixed(0)} ms, emit ${t.emit.toFixed(0)} ms, write ${t.write.toFixed(0)} ms)\n`,
  );
  for (const line of result.notes) process.stdout.write(`${line}\n`);
  return 0;
}

// Run directly (`tsx generator/cli/index.ts`); generator/run.mjs imports the built module and calls runCli.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}

function unknownFormatsOption(value: string | undefined): UnknownFormats {
  if (value === undefined || value === "warn" || value === "error") return value ?? "warn";
  throw new UsageError(`--unknown-formats must be warn or error, not ${JSON.stringify(value)}\n${USAGE}`);
}

function datesOption(value: string | undefined): DatesOption {
  if (value === undefined || value === "string" || value === "date") return value ?? "string";
  throw new UsageError(`--dates must be string or date, not ${JSON.stringify(value)}\n${USAGE}`);
}
