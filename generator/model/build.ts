/**
 * Builds the model from the loaded contract: the package's identity, servers, operations and
 * security, the names the package exports, then each extension's part (`extensions/readers.ts`).
 */
import { Warnings } from "../common/warnings.ts";
import { EXTENSION_READERS } from "../extensions/readers.ts";
import type { LoadedContract } from "../load/index.ts";
import { warnCallbacks } from "./callbacks.ts";
import { checkDocument } from "./document-checks.ts";
import { CORE_METHOD_NAMES, packageNames } from "./names.ts";
import { readOperations } from "./operations.ts";
import { readMarkedSchemas } from "./read-write.ts";
import { readSecurity } from "./security.ts";
import { ServerRegistry } from "./servers.ts";
import type { ApiModel, ApiModelOptions } from "./types.ts";
import { readXSdk } from "./x-sdk.ts";

export function buildModel(contract: LoadedContract, options: ApiModelOptions = {}): ApiModel {
  const { document } = contract;
  const warnings = options.warnings ?? new Warnings();
  checkDocument(document);
  warnCallbacks(contract, warnings);
  const { packageName, apiKeyEnvVar, packageVersion } = readXSdk(document, options);
  // An extension the contract uses takes its names before the core names anything.
  const used = EXTENSION_READERS.filter((extension) => extension.isUsedBy(document));

  // The key's variable names the others: GPU_CLOUD_API_KEY → GPU_CLOUD_BASE_URL, GPU_CLOUD_LOG.
  const environmentPrefix = apiKeyEnvVar.replace(/_API_KEY$/, "");
  const servers = new ServerRegistry(document.servers ?? [], environmentPrefix);
  const reservedMethodNames = [...CORE_METHOD_NAMES, ...used.flatMap((extension) => extension.methodNames)];
  const { security, operations } = readSecurity(contract, readOperations(contract, servers, reservedMethodNames, warnings), {
    apiKeyEnvVar,
    takenOptions: servers.list().map((s) => s.key),
    warnings,
  });
  if (operations.length === 0) {
    // Valid (webhooks or components only), but a client without a method is rarely what was meant.
    const [at, what] = document.paths === undefined ? ["", "the document has no paths"] : ["/paths", "paths holds no operation"];
    warnings.add("document:no-operations", at, `${what}, so the client has no operations`);
  }
  const schemaNames = Object.keys(document.components?.schemas ?? {});
  const operationTypes = operations.flatMap((o) => [o.paramsType, o.responseType]);
  const { summary, contact } = document.info;
  const api: ApiModel = {
    title: document.info.title,
    version: document.info.version,
    summary: typeof summary === "string" ? summary : undefined,
    description: document.info.description,
    contact: {
      name: typeof contact?.name === "string" ? contact.name : undefined,
      url: typeof contact?.url === "string" ? contact.url : undefined,
    },
    packageName,
    packageVersion,
    apiKeyEnvVar,
    logEnvVar: `${environmentPrefix}_LOG`,
    security,
    contractHash: contract.hash,
    changelog: contract.changelog,
    servers: servers.list(),
    operations,
    schemaNames,
    markedSchemas: readMarkedSchemas(document, operations, schemaNames),
    names: packageNames(packageName, schemaNames, operationTypes, used.flatMap((extension) => extension.exportNames())),
    extensions: [],
    ...(options.dates === "date" ? { dates: "date" as const } : {}),
  };
  // Every extension checks its keys; those the contract uses add their part.
  for (const extension of EXTENSION_READERS) {
    const model = extension.read(contract, api, warnings);
    if (model !== undefined) api.extensions.push({ name: extension.name, model });
  }
  return api;
}
