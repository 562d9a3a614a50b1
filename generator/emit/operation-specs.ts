/**
 * `src/operation-specs.ts`: what each operation is (method, path, server, media type, parameter
 * styles, security, its request validator), one export per operation named after its method, so
 * an app that calls a few operations through the standalone functions bundles only their validators.
 */
import type { ApiModel, OperationModel, SecurityModel } from "../model/index.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { code, join, raw, type Code } from "./code.ts";
import { requirementLiteral } from "./client-auth.ts";
import { importStatement, mergeImports, moduleText, valueKey, type ImportSpec } from "./typescript.ts";
import type { ValidatorNames } from "./validators/index.ts";

/** `dates`: the operations (by operationId) with a date conversion in `src/dates.ts` (`--dates date`). */
export function emitOperationSpecs(api: ApiModel, validators: ValidatorNames, extensions: readonly ExtensionOutput[], dates: ReadonlySet<string> = new Set()): string {
  let usesValidators = false;
  const specs = api.operations.map((operation) => {
    const names = validators.operations.get(operation.operationId) ?? {};
    usesValidators ||= names.request !== undefined;
    const added = [
      ...extensions.flatMap((extension) => extension.operationSpecs.entries(operation)),
      ...(dates.has(operation.operationId) ? [code`dates: $dates.${raw(operation.methodName)}`] : []),
    ];
    return code`export const ${raw(operation.methodName)} = ${specLiteral(operation, api.security, names, added)} as const satisfies OperationSpec;`;
  });
  const imports: ImportSpec[] = [
    { from: "./runtime/client-core.js", typeOnly: true, names: ["OperationSpec"] },
    // Namespaces: an operation's name may be any identifier, a validator's name included.
    ...(usesValidators ? [{ from: "./validators.js", namespace: "$validators" }] : []),
    ...(dates.size > 0 ? [{ from: "./dates.js", namespace: "$dates" }] : []),
    ...extensions.flatMap((extension) => extension.operationSpecs.imports),
  ];
  return moduleText([mergeImports(imports).map(importStatement), specs]);
}

function specLiteral(operation: OperationModel, security: SecurityModel, validators: { request?: string; secretBodyFields?: string[][] }, added: readonly Code[]): Code {
  const entries: Code[] = [
    code`operationId: ${operation.operationId}`,
    code`method: ${operation.method.toUpperCase()}`,
    code`path: ${operation.path}`,
    code`server: ${operation.server}`,
    ...(operation.requestBody ? [code`requestMediaType: ${operation.requestBody.mediaType}`] : []),
    code`responseKind: ${operation.responseKind}`,
    // In lower case, as the client keys the headers it sends.
    ...(operation.idempotencyHeader !== undefined ? [code`idempotencyHeader: ${operation.idempotencyHeader.toLowerCase()}`] : []),
    ...(validators.request ? [code`validateRequest: $validators.${raw(`validate${validators.request}`)}`] : []),
    ...added,
    ...(validators.secretBodyFields ? [code`secretBodyFields: [${join(validators.secretBodyFields.map((path) => code`[${join(path.map((key) => code`${key}`), ", ")}]`), ", ")}]`] : []),
    // Only an operation whose requirement differs from the one the others share carries its own.
    ...(JSON.stringify(operation.security) === JSON.stringify(security.defaultRequirement) ? [] : [code`security: ${requirementLiteral(operation.security)}`]),
    ...styleEntries(operation),
  ];
  return code`{ ${join(entries, ", ")} }`;
}

/** Only parameters written otherwise than OpenAPI's default for their location are listed. */
function styleEntries(operation: OperationModel): Code[] {
  const entries: Code[] = [];
  const table = (key: string, rows: Code[]) => {
    if (rows.length > 0) entries.push(code`${raw(key)}: { ${join(rows, ", ")} }`);
  };
  const { parameters } = operation;
  table(
    "pathStyles",
    parameters.filter((p) => p.in === "path" && (p.style.style !== "simple" || p.style.explode)).map((p) => code`${valueKey(p.name)}: { style: ${p.style.style}, explode: ${raw(String(p.style.explode))} }`),
  );
  table(
    "queryStyles",
    parameters
      .filter((p) => p.in === "query" && (p.style.style !== "form" || !p.style.explode || p.style.allowReserved))
      .map((p) => code`${valueKey(p.name)}: { style: ${p.style.style}, explode: ${raw(String(p.style.explode))}${raw(p.style.allowReserved ? ", allowReserved: true" : "")} }`),
  );
  table("headerStyles", parameters.filter((p) => p.in === "header" && p.style.explode).map((p) => code`${valueKey(p.name)}: { explode: true }`));
  table("cookieStyles", parameters.filter((p) => p.in === "cookie" && !p.style.explode).map((p) => code`${valueKey(p.name)}: { explode: false }`));
  const content = (["path", "query", "header", "cookie"] as const).flatMap((location) => {
    const described = parameters.filter((p) => p.in === location && p.mediaType !== undefined);
    return described.length === 0 ? [] : [code`${raw(location)}: { ${join(described.map((p) => code`${valueKey(p.name)}: ${p.mediaType!}`), ", ")} }`];
  });
  table("contentParameters", content);
  return entries;
}
