/**
 * Command-line options of the repository's commands (`npm run generate`, `npm run version:contract`):
 * Node's strict `parseArgs` plus `-h/--help`, so that every command answers alike: a bad option is
 * its one-line reason then the usage on stderr (exit code 2), `--help` the usage on stdout (0).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

const HELP = { help: { type: "boolean", short: "h", default: false } } as const;

/** The parsed values of `options` (plus `help`), typed as `parseArgs` types them. */
export type OptionValues<O extends OptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof HELP; strict: true }>>["values"];

interface Output {
  write(text: string): unknown;
}

/**
 * `{ values }` to run with, or `{ exitCode }` when the command is done: the usage was printed
 * (help, 0) or the arguments were refused (2).
 */
export function parseCommandLine<const O extends OptionsConfig>(
  argv: string[],
  options: O,
  usage: string,
  out: Output = process.stdout,
  err: Output = process.stderr,
): { values: OptionValues<O>; exitCode?: undefined } | { exitCode: number } {
  let values: OptionValues<O>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, ...HELP }, strict: true }) as { values: OptionValues<O> });
  } catch (error) {
    err.write(`${(error as Error).message}\n${usage}\n`);
    return { exitCode: 2 };
  }
  if ((values as { help?: boolean }).help) {
    out.write(`${usage}\n`);
    return { exitCode: 0 };
  }
  return { values };
}
