/** `src/bin.ts`: the terminal command, wiring the command's runtime to this client and its models. */
import { code, raw } from "../../emit/code.ts";
import { credentialSources } from "../../emit/client-auth.ts";
import { environmentVariables } from "../../emit/environment-variables.ts";
import { moduleText } from "../../emit/typescript.ts";
import type { ApiModel } from "../../model/types.ts";

export function emitBinModule(api: ApiModel): string {
  const client = raw(api.names.client);
  const credentials = api.security.schemes.length === 0 ? [] : [code`  credentials: ${credentialSources(api.security)},`];
  const environment = environmentVariables(api).map((v) => code`    { name: ${v.name}, description: ${v.description} },`);
  return moduleText([
    [raw('/// <reference types="node" />'), raw('import { main } from "./runtime/model-endpoints/cli.js";'), code`import { ${client} } from "./client.js";`, raw('import { MODEL_CATALOG } from "./jobs.js";'), raw('import { validateModelInput } from "./models.js";')],
    [
      raw("const controller = new AbortController();"),
      raw("// The first Ctrl-C stops waiting (the job keeps running and its id is printed); a second one exits."),
      raw('process.once("SIGINT", () => controller.abort());'),
    ],
    [
      raw("main(process.argv.slice(2), {"),
      code`  name: ${api.names.unscoped},`,
      code`  version: ${api.packageVersion},`,
      ...credentials,
      raw("  environment: ["),
      ...environment,
      raw("  ],"),
      raw("  // The client reads its key, base URLs and log level from the environment itself."),
      code`  createClient: () => new ${client}(),`,
      raw("  catalog: MODEL_CATALOG,"),
      raw("  validateInput: validateModelInput,"),
      raw("  stdout: process.stdout,"),
      raw("  stderr: process.stderr,"),
      raw("  signal: controller.signal,"),
      raw("}).then((code) => {"),
      raw("  process.exitCode = code;"),
      raw("});"),
    ],
  ]);
}
