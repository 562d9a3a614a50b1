/**
 * `src/validators.js` (with `validators.d.ts`): validators for every component schema, for each operation's parameters
 * (`{ path, query, header, cookie, body }`, a schema this stage composes from `$ref`s to the contract's own
 * parameter and body schemas, so issues still point into the contract) and for each JSON success
 * response. The emitting itself is `modules.ts`.
 *
 * `src/response-validators.js` (and `.d.ts`): the response validators again, from the same compilation, in a
 * module of their own that the client imports only once `validateResponses` is on (bundlers split
 * by module, so code the startup graph imports, even unused, would ship with every app).
 */
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { isObject, valueAt } from "./schema-object.ts";
import { propertyKey, propertyKeyForValue, stringLiteral, uniqueIdentifiers } from "../../common/escape.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import { emitValidatorModules, type ValidatorEntry } from "./modules.ts";
import type { EmittedModule } from "../output-file.ts";
import { mediaTypeKind } from "../../common/media-types.ts";
import { compareStrings } from "../../common/compare.ts";
import { Warnings } from "../../common/warnings.ts";
import type { UnknownFormats } from "./keyword-definition.ts";
import type { ParameterTableSpec, ParameterValue } from "./parameters.ts";
import type { ValidatorNames } from "./validator-names.ts";

export type { ValidatorNames } from "./validator-names.ts";

/** Where the composed parameter schemas live in the document handed to the emitter. */
const PARAMS_ROOT = "x-generated-operation-parameters";


function ref(at: string): { $ref: string } {
  return { $ref: `#${at}` };
}

/**
 * What a parameter's value is checked against: its schema; a `content` parameter of another media
 * type than JSON is sent as it is, a string; one of JSON without a schema takes any value.
 */
function parameterValue(parameter: OperationModel["parameters"][number]): ParameterValue {
  if (parameter.schemaPointer !== undefined) return { pointer: parameter.schemaPointer };
  // A path template variable no parameter declares is typed and sent as a string: checked as one.
  if (parameter.undeclared === true) return "string";
  return parameter.mediaType !== undefined && mediaTypeKind(parameter.mediaType) !== "json" ? "string" : "any";
}

/** The parameters of one call, `{ path: {...}, query: {...}, header: {...}, cookie: {...}, body }`, as the validators' table. */
function parameterTableSpec(operation: OperationModel): ParameterTableSpec {
  const groups: ParameterTableSpec["groups"] = [];
  for (const location of ["path", "query", "header", "cookie"] as const) {
    const present = operation.parameters.filter((p) => p.in === location);
    if (present.length === 0) continue;
    groups.push({ location, required: present.some((p) => p.required), parameters: present.map((p) => ({ name: p.name, required: p.required, value: parameterValue(p) })) });
  }
  const body = operation.requestBody;
  // Only JSON bodies are checked: form, multipart and binary bodies hold Blobs and FormData.
  // Without a schema any body is valid, but a required body is still required.
  if (!body || mediaTypeKind(body.mediaType) !== "json") return { groups };
  // A body is checked as a request sends it: its read-only properties never required.
  return { groups, body: { required: body.required, value: body.schemaPointer === undefined ? "any" : { pointer: body.schemaPointer, view: "request" } } };
}

function valueSchema(value: ParameterValue): object {
  if (value === "any") return {};
  return value === "string" ? { type: "string" } : ref(value.pointer);
}

/**
 * The same parameters as one schema: the validators check them through the table, the schema
 * gives `withDefaults…` its walk and the issues about the call's shape their pointer.
 */
function parameterSchema(spec: ParameterTableSpec): object {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const group of spec.groups) {
    properties[group.location] = {
      type: "object",
      properties: Object.fromEntries(group.parameters.map((p) => [p.name, valueSchema(p.value)])),
      required: group.parameters.filter((p) => p.required).map((p) => p.name),
    };
    if (group.required) required.push(group.location);
  }
  if (spec.body !== undefined) {
    properties["body"] = valueSchema(spec.body.value);
    if (spec.body.required) required.push("body");
  }
  return { type: "object", properties, required };
}

export interface OperationValidators {
  /** `src/validators.js` and its declarations. */
  source: EmittedModule;
  /** `src/response-validators.js` and its declarations, when an operation has a JSON success response. */
  responseSource: EmittedModule | undefined;
  /**
   * Per stem of a schema asked for standalone (`src/<folder>/<stem>.js`), a module of its own with
   * its `validateX` and `withDefaultsX`, importing nothing of `src/validators.js`.
   */
  standaloneSources: Map<string, EmittedModule>;
  names: ValidatorNames;
}

/**
 * A schema outside `components/schemas` an extension wants a validator of (a webhook's body), by
 * pointer, with the stem it would like (made unique against every other validator's).
 */
export interface ValidatedSchema {
  pointer: string;
  name: string;
}

/** Schemas whose validators an extension wants in modules of their own, in a folder of `src/`. */
export interface StandaloneValidators {
  folder: string;
  schemas: readonly string[];
}

type SuccessResponse = OperationModel["successResponses"][number];

/** Validator stems: per schema; per operation, of its parameters and of each JSON success response; per asked schema. */
interface Stems {
  schemas: string[];
  params: string[];
  responses: string[][];
  asked: string[];
}

/** One row of `RESPONSE_VALIDATORS`: a status and its validator's stem (none without a JSON schema). */
interface ResponseValidator {
  status: string;
  stem: string | undefined;
}

export function emitOperationValidators(
  contract: LoadedContract,
  api: ApiModel,
  warnings: Warnings = new Warnings(),
  unknownFormats: UnknownFormats = "warn",
  standalone: StandaloneValidators | undefined = undefined,
  asked: readonly ValidatedSchema[] = [],
): OperationValidators {
  // Per operation, its JSON success responses with a schema.
  const jsonResponses = api.operations.map((o) => o.successResponses.filter((r) => r.mediaType && mediaTypeKind(r.mediaType) === "json" && r.schemaPointer));
  const stems = validatorStems(api, jsonResponses, asked);
  const { entries, composed, names } = validatorEntries(api, stems, jsonResponses, asked);
  for (const operation of api.operations) {
    const at = operation.requestBody?.schemaPointer;
    const fields = at === undefined ? [] : secretFields(contract.document, at);
    if (fields.length > 0) names.operations.get(operation.operationId)!.secretBodyFields = fields;
  }
  const table = responseTable(api.operations, stems, jsonResponses);
  // The components' types name the as-written view where one has read-only or write-only properties.
  const markedStems = new Set(api.schemaNames.filter((schema) => api.markedSchemas.has(pointer("components", "schemas", schema))).map((schema) => names.schemas.get(schema)!));
  const typeNames = (stems: readonly string[]) => (stems.some((stem) => markedStems.has(stem)) ? "AsWritten, components" : "components");
  const modules = emitValidatorModules({
    document: { ...contract.document, [PARAMS_ROOT]: composed },
    entries,
    typeImport: `import type { ${typeNames([...markedStems])} } from "./schema.js";`,
    views: {
      responses: [...new Set(stems.responses.flat())],
      ...Object.fromEntries(
        standaloneStems(standalone, names).map((stem) => [
          `standalone:${stem}`,
          { names: [stem], withDefaults: true, typeImport: `import type { ${typeNames([stem])} } from "../schema.js";`, runtimeImport: "../runtime/validation.js", formatsImport: "../runtime/formats.js" } as const,
        ]),
      ),
    },
    warnings,
    unknownFormats,
  });
  for (const stem of modules.withDefaults) names.withDefaults.add(stem);
  const responseSource = table.size === 0 ? undefined : responseModule(modules.views["responses"]!, table);
  const standaloneSources = new Map(standaloneStems(standalone, names).map((stem) => [stem, modules.views[`standalone:${stem}`]!]));
  return { source: modules.source, responseSource, standaloneSources, names };
}

function standaloneStems(standalone: StandaloneValidators | undefined, names: ValidatorNames): string[] {
  return [...new Set((standalone?.schemas ?? []).map((schema) => names.schemas.get(schema)!))].sort(compareStrings);
}

/**
 * Paths inside a body to the strings its schema marks `format: password` (through properties,
 * `$ref`s and `allOf`/`anyOf`/`oneOf`): credentials the client keeps out of every error and log.
 */
function secretFields(document: unknown, bodyAt: string): string[][] {
  const found = new Map<string, string[]>();
  const walk = (at: string, path: string[], seen: ReadonlySet<string>): void => {
    // Deep enough for any body a person writes; a recursive schema stops at the first repeat.
    if (path.length > 16 || seen.has(at)) return;
    const schema = valueAt(document, parsePointer(at));
    if (!isObject(schema)) return;
    if (schema["format"] === "password") {
      found.set(JSON.stringify(path), path);
      return;
    }
    const next = new Set(seen).add(at);
    const ref = schema["$ref"];
    if (typeof ref === "string" && ref.startsWith("#")) walk(pointer(...parsePointer(ref)), path, next);
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) branches.forEach((_, index) => walk(`${at}${pointer(keyword, index)}`, path, next));
    }
    const properties = schema["properties"];
    if (isObject(properties)) for (const name of Object.keys(properties)) walk(`${at}${pointer("properties", name)}`, [...path, name], next);
  };
  walk(bodyAt, [], new Set());
  return [...found.values()];
}

/** The names `emitOperationValidators` gives, without emitting: tests use them to find a schema's or an operation's validator. */
export function validatorNames(api: ApiModel, asked: readonly ValidatedSchema[] = []): ValidatorNames {
  const jsonResponses = api.operations.map((o) => o.successResponses.filter((r) => r.mediaType && mediaTypeKind(r.mediaType) === "json" && r.schemaPointer));
  return validatorEntries(api, validatorStems(api, jsonResponses, asked), jsonResponses, asked).names;
}

/** The component a pointer names, if it is one of `components/schemas`: its validator is already there. */
function componentIndex(api: ApiModel, at: string): number {
  const segments = parsePointer(at);
  return segments.length === 3 && segments[0] === "components" && segments[1] === "schemas" ? api.schemaNames.indexOf(segments[2]!) : -1;
}

/**
 * Schemas take their type alias names (which already avoid the operation types `XParams` and
 * `XResponse`); an operation's first JSON response is `XResponse`, the others `XResponse<status>`.
 */
function validatorStems(api: ApiModel, jsonResponses: readonly SuccessResponse[][], asked: readonly ValidatedSchema[]): Stems {
  const operations = api.operations;
  const aliases = api.names.schemaAliases;
  const extra = operations.flatMap((o, index) => jsonResponses[index]!.slice(1).map((r) => `${o.typeName}Response${r.status}`));
  // Last, so that asking for them renames nothing else; a component asked for keeps its own stem.
  const own = [...new Set(asked.filter((schema) => componentIndex(api, schema.pointer) < 0).map((schema) => schema.pointer))];
  const ownNames = own.map((at) => asked.find((schema) => schema.pointer === at)!.name);
  const unique = uniqueIdentifiers(
    [...operations.map((o) => o.paramsType), ...operations.map((o) => o.responseType), ...extra, ...ownNames],
    { case: "pascal", taken: aliases },
  );
  let nextExtra = 2 * operations.length;
  const ownStems = new Map(own.map((at, index) => [at, unique[unique.length - own.length + index]!]));
  return {
    schemas: aliases,
    params: unique.slice(0, operations.length),
    responses: jsonResponses.map((list, index) => list.map((_, position) => unique[position === 0 ? operations.length + index : nextExtra++]!)),
    asked: asked.map((schema) => ownStems.get(schema.pointer) ?? aliases[componentIndex(api, schema.pointer)]!),
  };
}

/** The emitter's entries, the composed parameter schemas they point at, and the names for the other emitters. */
function validatorEntries(api: ApiModel, stems: Stems, jsonResponses: readonly SuccessResponse[][], asked: readonly ValidatedSchema[]) {
  const names: ValidatorNames = { schemas: new Map(), operations: new Map(), pointers: new Map(), withDefaults: new Set() };
  const entries: ValidatorEntry[] = [];
  const composed: Record<string, object> = {};
  api.schemaNames.forEach((schema, index) => {
    const stem = stems.schemas[index]!;
    names.schemas.set(schema, stem);
    const at = pointer("components", "schemas", schema);
    // A component's validator checks its schema as written; its type says so where it has read-only or write-only properties.
    const type = `components["schemas"][${stringLiteral(schema)}]`;
    entries.push({ name: stem, pointer: at, typeName: api.markedSchemas.has(at) ? `AsWritten<${type}>` : type });
  });
  api.operations.forEach((operation, index) => {
    const entry: { request?: string; response?: string } = {};
    if (operation.parameters.length > 0 || operation.requestBody) {
      const stem = stems.params[index]!;
      const parameters = parameterTableSpec(operation);
      composed[stem] = parameterSchema(parameters);
      entries.push({ name: stem, pointer: pointer(PARAMS_ROOT, stem), parameters });
      entry.request = stem;
    }
    jsonResponses[index]!.forEach((json, position) => {
      const stem = stems.responses[index]![position]!;
      // A response never needs its write-only properties.
      entries.push({ name: stem, pointer: json.schemaPointer!, view: "response" });
      if (position === 0) entry.response = stem;
    });
    names.operations.set(operation.operationId, entry);
  });
  asked.forEach((schema, index) => {
    const stem = stems.asked[index]!;
    if (names.pointers.has(schema.pointer)) return;
    names.pointers.set(schema.pointer, stem);
    if (componentIndex(api, schema.pointer) < 0) entries.push({ name: stem, pointer: schema.pointer });
  });
  return { entries, composed, names };
}

/**
 * Per operation id with a JSON success response, its success statuses in order. A success status
 * documented without a JSON schema is listed without a stem, so a range (`2XX`) never claims it.
 */
function responseTable(operations: readonly OperationModel[], stems: Stems, jsonResponses: readonly SuccessResponse[][]): Map<string, ResponseValidator[]> {
  const validated = new Map<string, ResponseValidator[]>();
  operations.forEach((operation, index) => {
    const list = validated.get(operation.operationId) ?? [];
    jsonResponses[index]!.forEach((json, position) => list.push({ status: json.status, stem: stems.responses[index]![position] }));
    validated.set(operation.operationId, list);
  });
  const table = new Map<string, ResponseValidator[]>();
  operations.forEach((operation, index) => {
    if (jsonResponses[index]!.length === 0) return;
    const others = operation.successResponses.filter((r) => !jsonResponses[index]!.includes(r)).map((r) => ({ status: r.status, stem: undefined }));
    table.set(operation.operationId, [...validated.get(operation.operationId)!, ...others].sort((a, b) => compareStrings(a.status, b.status)));
  });
  return table;
}

/** `src/response-validators.js`: the view of the response validators, then the table the client reads. */
function responseModule(view: EmittedModule, table: ReadonlyMap<string, readonly ResponseValidator[]>): EmittedModule {
  const row = (list: readonly ResponseValidator[]) =>
    list.map((response) => `${propertyKey(response.status)}: ${response.stem === undefined ? "null" : `validate${response.stem}`}`).join(", ");
  const doc = [
    "/**",
    " * Per operation id and success status (`200`, `2XX`), the validator of that response's JSON body",
    " * (loaded by the client only with `validateResponses: true`).",
    " */",
  ];
  const js = [view.js, ...doc, "export const RESPONSE_VALIDATORS = {", ...[...table].map(([operationId, list]) => `  ${propertyKeyForValue(operationId)}: { ${row(list)} },`), "};", ""];
  // The view's declarations name ValidationIssue (every `validateX` returns it), so its import is there.
  const dts = [view.dts, ...doc, "export declare const RESPONSE_VALIDATORS: Readonly<Record<string, Readonly<Record<string, ((body: unknown) => ValidationIssue[]) | null>>>>;", ""];
  return { js: js.join("\n"), dts: dts.join("\n") };
}
