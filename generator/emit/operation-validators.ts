/**
 * `src/validators.ts`: validators for every component schema, for each operation's parameters
 * (`{ path, query, header, body }`, a schema this stage composes from `$ref`s to the contract's own
 * parameter and body schemas, so issues still point into the contract) and for each JSON success
 * response. The emitting itself is `emit/validators.ts`.
 *
 * `src/response-validators.ts`: the response validators again, from the same compilation, in a
 * module of their own that the client imports only once `validateResponses` is on (bundlers split
 * by module, so code the startup graph imports, even unused, would ship with every app).
 */
import { pointer } from "../errors.ts";
import { propertyKey, stringLiteral, uniqueIdentifiers } from "../escape.ts";
import type { LoadedContract } from "../load.ts";
import type { ApiModel, OperationModel } from "../model.ts";
import { emitValidatorModules, type ValidatorEntry } from "./validators.ts";

/** Where the composed parameter schemas live in the document handed to the emitter. */
const PARAMS_ROOT = "x-generated-operation-parameters";
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/i;

export interface ValidatorNames {
  /** Stem per component schema name (`validate<Stem>`, `is<Stem>`, `withDefaults<Stem>`). */
  schemas: Map<string, string>;
  /** Per operation id: stems of its parameter and response validators. */
  operations: Map<string, { request?: string; response?: string }>;
  /** Stems that have a `withDefaults…` function. */
  withDefaults: Set<string>;
}

function ref(at: string): { $ref: string } {
  return { $ref: `#${at}` };
}

/** The parameters of one call as one schema: `{ path: {...}, query: {...}, header: {...}, body }`. */
function parameterSchema(operation: OperationModel): object {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const location of ["path", "query", "header"] as const) {
    const present = operation.parameters.filter((p) => p.in === location);
    if (present.length === 0) continue;
    properties[location] = {
      type: "object",
      properties: Object.fromEntries(present.map((p) => [p.name, ref(p.schemaPointer)])),
      required: present.filter((p) => p.required).map((p) => p.name),
    };
    if (present.some((p) => p.required)) required.push(location);
  }
  // Only JSON bodies are checked: form, multipart and binary bodies hold Blobs and FormData.
  if (operation.requestBody && JSON_MEDIA.test(operation.requestBody.mediaType)) {
    properties.body = ref(operation.requestBody.schemaPointer);
    if (operation.requestBody.required) required.push("body");
  }
  return { type: "object", properties, required };
}

export interface OperationValidators {
  /** `src/validators.ts`. */
  source: string;
  /** `src/response-validators.ts`, when an operation has a JSON success response. */
  responseSource: string | undefined;
  names: ValidatorNames;
}

export function emitOperationValidators(contract: LoadedContract, model: ApiModel): OperationValidators {
  const schemaNames = model.schemaNames;
  const operations = model.operations;
  const stems = uniqueIdentifiers(
    [
      ...schemaNames,
      ...operations.map((o) => `${o.typeName}Params`),
      ...operations.map((o) => `${o.typeName}Response`),
    ],
    { case: "pascal" },
  );
  const names: ValidatorNames = { schemas: new Map(), operations: new Map(), withDefaults: new Set() };
  const entries: ValidatorEntry[] = [];
  const composed: Record<string, object> = {};

  schemaNames.forEach((schema, index) => {
    const stem = stems[index]!;
    names.schemas.set(schema, stem);
    entries.push({ name: stem, pointer: pointer("components", "schemas", schema), typeName: `components["schemas"][${stringLiteral(schema)}]` });
  });
  operations.forEach((operation, index) => {
    const entry: { request?: string; response?: string } = {};
    if (operation.parameters.length > 0 || operation.requestBody) {
      const stem = stems[schemaNames.length + index]!;
      composed[stem] = parameterSchema(operation);
      entries.push({ name: stem, pointer: pointer(PARAMS_ROOT, stem) });
      entry.request = stem;
    }
    const json = operation.successResponses.find((r) => r.mediaType && JSON_MEDIA.test(r.mediaType) && r.schemaPointer);
    if (json?.schemaPointer) {
      const stem = stems[schemaNames.length + operations.length + index]!;
      entries.push({ name: stem, pointer: json.schemaPointer });
      entry.response = stem;
    }
    names.operations.set(operation.operationId, entry);
  });

  const responses = operations.flatMap((operation) => {
    const stem = names.operations.get(operation.operationId)?.response;
    return stem === undefined ? [] : [{ operationId: operation.operationId, stem }];
  });
  const document = { ...contract.document, [PARAMS_ROOT]: composed };
  const modules = emitValidatorModules({
    document,
    entries,
    typeImport: 'import type { components } from "./schema.js";',
    views: { responses: [...new Set(responses.map((response) => response.stem))] },
  });
  const source = modules.source;
  // One pass over the module (not one per entry: a large contract has thousands).
  for (const match of source.matchAll(/^export function withDefaults([A-Za-z0-9_$]+)\b/gm)) names.withDefaults.add(match[1]!);
  const responseSource =
    responses.length === 0
      ? undefined
      : [
          modules.views["responses"] as string,
          "/** Per operation id, the validator of its successful JSON response body (loaded by the client only with `validateResponses: true`). */",
          "export const RESPONSE_VALIDATORS: Readonly<Record<string, (body: unknown) => ValidationIssue[]>> = {",
          ...responses.map((response) => `  ${propertyKey(response.operationId)}: validate${response.stem},`),
          "};",
          "",
        ].join("\n");
  return { source, responseSource, names };
}
