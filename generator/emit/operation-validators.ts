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
import { pointer } from "../json-pointer.ts";
import { propertyKey, propertyKeyForValue, stringLiteral, uniqueIdentifiers } from "../escape.ts";
import type { LoadedContract } from "../load.ts";
import type { ApiModel, OperationModel } from "../model.ts";
import { schemaAliases } from "./types.ts";
import { emitValidatorModules, type ValidatorEntry } from "./validators.ts";
import { isJsonMediaType } from "../media-types.ts";
import { compareStrings } from "../compare.ts";

/** Where the composed parameter schemas live in the document handed to the emitter. */
const PARAMS_ROOT = "x-generated-operation-parameters";

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
  if (operation.requestBody && isJsonMediaType(operation.requestBody.mediaType)) {
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

export function emitOperationValidators(contract: LoadedContract, model: ApiModel, className: string): OperationValidators {
  const schemaNames = model.schemaNames;
  const operations = model.operations;
  // Per operation, its JSON success responses with a schema: the first is `XResponse`, others `XResponse<status>`.
  const jsonResponses = operations.map((o) => o.successResponses.filter((r) => r.mediaType && isJsonMediaType(r.mediaType) && r.schemaPointer));
  const extraResponses = operations.flatMap((o, index) => jsonResponses[index]!.slice(1).map((r) => ({ operation: o, response: r })));
  // Schemas take their type alias names (which already avoid the operation types `XParams`/`XResponse`).
  const aliases = schemaAliases(model, className);
  const stems = [
    ...aliases,
    ...uniqueIdentifiers(
      [
        ...operations.map((o) => `${o.typeName}Params`),
        ...operations.map((o) => `${o.typeName}Response`),
        ...extraResponses.map(({ operation, response }) => `${operation.typeName}Response${response.status}`),
      ],
      { case: "pascal", taken: aliases },
    ),
  ];
  const extraStems = new Map(extraResponses.map((extra, index) => [extra.response, stems[schemaNames.length + 2 * operations.length + index]!]));
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
    jsonResponses[index]!.forEach((json, position) => {
      const stem = position === 0 ? stems[schemaNames.length + operations.length + index]! : extraStems.get(json)!;
      entries.push({ name: stem, pointer: json.schemaPointer! });
      if (position === 0) entry.response = stem;
    });
    names.operations.set(operation.operationId, entry);
  });

  const responses = operations.flatMap((operation, index) =>
    jsonResponses[index]!.map((json, position) => ({
      operationId: operation.operationId,
      status: json.status,
      stem: position === 0 ? names.operations.get(operation.operationId)!.response! : extraStems.get(json)!,
    })),
  );
  // A success status documented without a JSON schema is listed as null, so a range (`2XX`) never claims it.
  const byOperation = new Map<string, Array<{ status: string; stem: string | undefined }>>();
  operations.forEach((operation, index) => {
    if (jsonResponses[index]!.length === 0) return;
    const validated = responses.filter((response) => response.operationId === operation.operationId);
    const others = operation.successResponses.filter((r) => !jsonResponses[index]!.includes(r)).map((r) => ({ status: r.status, stem: undefined }));
    byOperation.set(operation.operationId, [...validated, ...others].sort((a, b) => compareStrings(a.status, b.status)));
  });
  const document = { ...contract.document, [PARAMS_ROOT]: composed };
  const modules = emitValidatorModules({
    document,
    entries,
    typeImport: 'import type { components } from "./schema.js";',
    views: { responses: [...new Set(responses.map((response) => response.stem))] },
  });
  const source = modules.source;
  for (const stem of modules.withDefaults) names.withDefaults.add(stem);
  const responseSource =
    responses.length === 0
      ? undefined
      : [
          modules.views["responses"] as string,
          "/**",
          " * Per operation id and success status (`200`, `2XX`), the validator of that response's JSON body",
          " * (loaded by the client only with `validateResponses: true`).",
          " */",
          "export const RESPONSE_VALIDATORS: Readonly<Record<string, Readonly<Record<string, ((body: unknown) => ValidationIssue[]) | null>>>> = {",
          ...[...byOperation].map(
            ([operationId, list]) =>
              `  ${propertyKeyForValue(operationId)}: { ${list.map((response) => `${propertyKey(response.status)}: ${response.stem === undefined ? "null" : `validate${response.stem}`}`).join(", ")} },`,
          ),
          "};",
          "",
        ].join("\n");
  return { source, responseSource, names };
}
