/**
 * `src/bin.ts`: the terminal command. The core writes the shared part (the command's name, version,
 * credentials, environment variables, streams, Ctrl-C) and hands it to the command registry
 * (`runtime/cli/commands.ts`) with the command group of each extension that contributes one.
 */
import { code, raw, type Code } from "./code.ts";
import { credentialSources } from "./client-auth.ts";
import { environmentVariables } from "./environment-variables.ts";
import { moduleText } from "./typescript.ts";
import type { BinContribution } from "../extensions/output.ts";
import type { ApiModel } from "../model/types.ts";

/** The runtime folder the terminal command needs, copied only into a package that has one. */
export const CLI_RUNTIME_FOLDER = "cli";

export function emitBinModule(api: ApiModel, contributions: readonly BinContribution[]): string {
  const client = raw(api.names.client);
  const credentials = api.security.schemes.length === 0 ? [] : [code`  credentials: ${credentialSources(api.security)},`];
  const environment = environmentVariables(api).map((v) => code`    { name: ${v.name}, description: ${v.description} },`);
  const groups: Code[] = contributions.flatMap((contribution) => contribution.group.map((line, i, all) => raw(`  ${line.text}${i === all.length - 1 ? "," : ""}`)));
  return moduleText([
    [
      raw('/// <reference types="node" />'),
      raw('import { runCommands } from "./runtime/cli/commands.js";'),
      raw('import type { CommandEnvironment } from "./runtime/cli/commands.js";'),
      code`import { ${client} } from "./client.js";`,
      ...contributions.flatMap((contribution) => contribution.imports),
    ],
    [
      raw("const controller = new AbortController();"),
      raw("// The first Ctrl-C stops waiting (what was waited for goes on, and the command says how to wait again); a second one exits."),
      raw('process.once("SIGINT", () => controller.abort());'),
    ],
    [
      raw("const environment: CommandEnvironment = {"),
      code`  name: ${api.names.unscoped},`,
      code`  version: ${api.packageVersion},`,
      ...credentials,
      raw("  environment: ["),
      ...environment,
      raw("  ],"),
      raw("  stdout: process.stdout,"),
      raw("  stderr: process.stderr,"),
      raw("  signal: controller.signal,"),
      raw("};"),
      raw("// The client reads its key, base URLs and log level from the environment itself."),
      code`const createClient = () => new ${client}();`,
    ],
    [raw("runCommands(process.argv.slice(2), environment, ["), ...groups, raw("]).then((code) => {"), raw("  process.exitCode = code;"), raw("});")],
  ]);
}
