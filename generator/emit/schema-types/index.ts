/**
 * `src/schema.ts`: the contract's types, by openapi-typescript. Four changes on top of its output:
 *
 * - an "open enum" (`anyOf: [{type: string, enum: [...]}, {type: string}]`, the contract's way of
 *   naming known values while accepting new ones) becomes `"A" | "B" | (string & {})`, so editors
 *   still offer the known values instead of collapsing the union to `string`;
 * - a parameter described by JSON `content` is typed by that content's schema: openapi-typescript
 *   types it `string` (the text on the wire), but the client takes the value and writes the JSON;
 * - an array through which a schema holds itself gets a name (`recursion.ts`), so
 *   TypeScript resolves it;
 * - a member an object type declares twice (a discriminator's property it adds beside the
 *   schema's own) is declared once (`duplicate-members.ts`).
 *
 * Read-only and write-only properties (`common/read-write.ts`), in a document that has any, carry
 * its markers (`$Read<T>`, `$Write<T>`, its `readWriteMarkers` option; a property marked through a
 * `$ref` is marked where it stands, as the validators read it), and the module exports the three
 * views the other modules wrap marked types in (`read-write-views.ts`).
 * Discriminators narrow in `anyOf` too, and to the values a branch itself allows
 * (`discriminators.ts`).
 *
 * Five changes to its input: a `$ref` into a parameter's schema is handed to it as one to the
 * parameter (see `refsIntoParameters`), one deeper into an operation's schema as what it names
 * (see `refsIntoOperationSchemas`), one into any other schema's inside as one to a component made
 * of its target (see `hoistInnerRefs`), a `$dynamicRef`, which it ignores, as a `$ref` to the one
 * target it has (see `dynamicRefsAsRefs`), and operations get the operationIds the model gave
 * them, so that its `operations` has one member per name (see `uniqueOperationIds`). Its
 * `WithRequired` is declared anew (see `with-required.ts`).
 */
import { createRequire } from "node:module";
import type * as OpenapiTypescript from "openapi-typescript";
import type * as Typescript from "typescript";
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointerRef } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import { mergeDuplicateMembers } from "./duplicate-members.ts";
import { nameRecursiveArrays } from "./recursion.ts";
import { mediaTypeKind } from "../../common/media-types.ts";
import { forEachSchema, hasAnyKey } from "../../common/schema-walk.ts";
import { RefResolver } from "../validators/resolve.ts";
import { refsIntoOperationSchemas, refsIntoParameters } from "./refs.ts";
import { hoistInnerRefs } from "./inner-refs.ts";
import { widenWithRequired } from "./with-required.ts";
import { ReadWriteMarks } from "../../common/read-write.ts";
import { READ_WRITE_VIEW_DOCS, READ_WRITE_VIEWS } from "./read-write-views.ts";
import { dateFormatOf } from "../dates/date-schema.ts";
import { scanDiscriminators } from "./discriminators.ts";

/**
 * openapi-typescript and TypeScript, loaded on first use (a run whose schema types are emitted in a
 * worker never loads them in the main thread) and with `require`: their CommonJS builds load as
 * they are, whereas importing them as ES modules makes Node scan TypeScript's 9 MB for its export
 * names first (a fifth of a cold run).
 */
const require = createRequire(import.meta.url);
let libraries: { openapiTypescript: typeof OpenapiTypescript; ts: typeof Typescript } | undefined;
function load(): NonNullable<typeof libraries> {
  libraries ??= { openapiTypescript: require("openapi-typescript") as typeof OpenapiTypescript, ts: require("typescript") as typeof Typescript };
  return libraries;
}

/** An operation's operationId as the model names it (`OperationModel.operationId`), and where it is. */
export interface OperationKey {
  pointer: string;
  operationId: string;
}

/** What the generator's options change in `src/schema.ts`. */
export interface SchemaTypesOptions {
  /** `format: date-time` and `date` strings typed `Date` (`--dates date`; see `dates/plan.ts` for where they are converted). */
  dates?: boolean | undefined;
}

/** How `src/schema.ts` is emitted: `emitSchemaTypes` in this thread, or a worker's (`thread.ts`). */
export type SchemaTypesEmitter = (contract: Pick<LoadedContract, "document">, operations?: readonly OperationKey[], options?: SchemaTypesOptions) => Promise<string>;

/**
 * `src/schema.ts` of a loaded contract (without the header). The document is changed on the way
 * (see above), and openapi-typescript may annotate it: a copy of it is made, unless `owned` says
 * the caller hands over a copy of its own (the worker's, which came through `postMessage`).
 * `operations` are the model's operationIds (`uniqueOperationIds`).
 */
export async function emitSchemaTypes(
  contract: Pick<LoadedContract, "document">,
  operations: readonly OperationKey[] = [],
  { owned = false, dates = false }: SchemaTypesOptions & { owned?: boolean } = {},
): Promise<string> {
  const { openapiTypescript, ts } = load();
  const document = (owned ? contract.document : structuredClone(contract.document)) as OpenapiTypescript.OpenAPI3;
  typeJsonContentParameters(document);
  dynamicRefsAsRefs(document);
  refsIntoOperationSchemas(document);
  refsIntoParameters(document);
  hoistInnerRefs(document as never);
  uniqueOperationIds(document, operations);
  const marked = markPropertiesWhereTheyStand(document);
  let ast: Typescript.Node[];
  try {
    ast = openapiTypescript.transformSchema(document, transformContext(openapiTypescript, document, dates ? dateOrOpenEnumType : openEnumType, marked));
  } catch (error) {
    throw emitterFailure(error, contract.document);
  }
  // Its own views of the markers are not this package's (see read-write-views.ts): left out.
  const views = marked ? ast.filter((node) => !(ts.isTypeAliasDeclaration(node) && (node.name.text === "Readable" || node.name.text === "Writable"))) : ast;
  const text = widenWithRequired(openapiTypescript.astToString(nameRecursiveArrays(ts, mergeDuplicateMembers(ts, views))));
  // The printer keeps no comment of parsed text: the views' doc comments go in before their lines.
  return marked ? text.replace(/^export type (\$?\w+)<T>/gm, (line, name: string) => (Object.hasOwn(READ_WRITE_VIEW_DOCS, name) ? `/** ${READ_WRITE_VIEW_DOCS[name]} */\n${line}` : line)) : text;
}

/**
 * What `openapiTS()` hands its transform, with this generator's options. Its entry point is not
 * used: it would lint and bundle the document again with its own Redocly (a third of the time on a
 * large document), and the load stage has done both, with the findings located in the user's files.
 */
function transformContext(
  openapiTypescript: typeof OpenapiTypescript,
  document: OpenapiTypescript.OpenAPI3,
  transform: (schema: any) => Typescript.TypeNode | undefined,
  readWriteMarkers: boolean,
): OpenapiTypescript.GlobalContext {
  return {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    // Properties with a `default` stay optional: the caller may leave them out.
    defaultNonNullable: false,
    discriminators: scanDiscriminators(openapiTypescript, document),
    // `type: object` with no properties accepts any object (JSON Schema), not none (`Record<string, never>`).
    emptyObjectsUnknown: true,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    // Read by its entry point only, never by the transform.
    redoc: undefined as never,
    silent: true,
    inject: readWriteMarkers ? READ_WRITE_VIEWS : undefined,
    transform,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers,
    resolve: ($ref) => openapiTypescript.resolveRef(document, $ref, { silent: true }),
  };
}

/**
 * In place: a property marked only through its `$ref` (to a read-only or write-only schema) gets the
 * marker beside the `$ref`, where openapi-typescript looks. Whether the document marks any property.
 */
function markPropertiesWhereTheyStand(document: unknown): boolean {
  const marks = ReadWriteMarks.of(document);
  if (marks === undefined) return false;
  // After the search: the marks are read from the document as written.
  for (const [property, marker] of marks.markedThroughRefs()) property[marker] = true;
  return true;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * openapi-typescript types an operation with an operationId as a member of `operations` under that
 * name (`#` read as `/`), so two alike would be one member declared twice. In place: each operation
 * the model names takes its name (`operations`, where a repeated operationId was renamed; the first
 * name given to an operation object wins, as when two paths `$ref` one path item); then any that
 * still shares a member with an earlier one (a webhook's, `a#b` beside `a/b`) loses its
 * operationId and is typed where it stands (`paths[path][method]`, as the client refers to it).
 */
export function uniqueOperationIds(document: any, operations: readonly OperationKey[]): void {
  const named = new Set<unknown>();
  for (const { pointer: at, operationId } of operations) {
    const operation = nodeAt(document, at);
    if (typeof operation?.operationId !== "string" || named.has(operation)) continue;
    named.add(operation);
    operation.operationId = operationId;
  }
  const members = new Set<string>();
  const seen = new Set<unknown>();
  const pathItem = (item: any): void => {
    if (item === null || typeof item !== "object" || seen.has(item)) return;
    seen.add(item);
    if (typeof item.$ref === "string") return pathItem(nodeAt(document, item.$ref.replace(/^#/, "")));
    for (const method of METHODS) {
      const operation = item[method];
      if (typeof operation?.operationId !== "string") continue;
      const member = operation.operationId.replace(/#/g, "/");
      if (members.has(member)) delete operation.operationId;
      else members.add(member);
    }
  };
  // The order the model reads them in first, so its names are the ones kept.
  for (const group of [document.paths, document.components?.pathItems, document.webhooks]) for (const item of Object.values<any>(group ?? {})) pathItem(item);
}

function nodeAt(document: unknown, at: string): any {
  let node: any = document;
  for (const segment of parsePointer(at)) node = node !== null && typeof node === "object" && Object.hasOwn(node, segment) ? node[segment] : undefined;
  return node;
}

/**
 * Gives every parameter described by JSON `content` that content's schema as its `schema` (any
 * value without one), in place: in path items (of `paths`, `webhooks`, `components/pathItems` and
 * callbacks) and `components/parameters`. A `$ref`ed parameter is changed where it lives.
 */
function typeJsonContentParameters(document: any): void {
  const parameter = (node: any): void => {
    const content = node?.content;
    if (typeof node?.in !== "string" || content === null || typeof content !== "object") return;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length !== 1 || mediaTypeKind(mediaTypes[0]!) !== "json") return;
    node.schema = content[mediaTypes[0]!]?.schema ?? {};
    delete node.content;
  };
  const list = (parameters: unknown): void => {
    if (Array.isArray(parameters)) parameters.forEach(parameter);
  };
  const callbacks = (map: any): void => {
    for (const callback of Object.values<any>(map ?? {})) for (const item of Object.values<any>(callback ?? {})) pathItem(item);
  };
  function pathItem(item: any): void {
    if (item === null || typeof item !== "object") return;
    list(item.parameters);
    for (const method of METHODS) {
      list(item[method]?.parameters);
      callbacks(item[method]?.callbacks);
    }
  }
  for (const group of [document.paths, document.webhooks, document.components?.pathItems]) for (const item of Object.values<any>(group ?? {})) pathItem(item);
  callbacks(document.components?.callbacks);
  for (const node of Object.values<any>(document.components?.parameters ?? {})) parameter(node);
}

/**
 * Each `$dynamicRef` as a `$ref` to its target, in place (beside a `$ref` already there: both in an
 * `allOf`, each applying). The target is the validators' (`validators/resolve.ts`): one the dynamic
 * scope cannot change, or a ContractError; so the types and the checks agree.
 */
export function dynamicRefsAsRefs(document: unknown): void {
  if (!hasAnyKey(document, ["$dynamicRef"])) return;
  const resolver = new RefResolver(document);
  const found: [node: Record<string, unknown>, target: string][] = [];
  forEachSchema(document, (node, at) => {
    if ("$dynamicRef" in node) found.push([node, resolver.resolveDynamic(node["$dynamicRef"], `${at}/$dynamicRef`)]);
  });
  // After every target is known: the resolver reads the document as written.
  for (const [node, target] of found) {
    const ref = pointerRef(target);
    delete node["$dynamicRef"];
    if (!("$ref" in node)) node["$ref"] = ref;
    else node["allOf"] = [...(Array.isArray(node["allOf"]) ? node["allOf"] : []), { $ref: ref }];
  }
}

/**
 * What openapi-typescript threw, as a located one-line error: its Redocly findings end in
 * " at #/pointer" (cut back to a place the document has: some name a key below the node); anything
 * else is located at the document.
 */
export function emitterFailure(error: unknown, document: unknown): ContractError {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
  const located = / at #(\/\S*)?$/.exec(message);
  const reason = located ? message.slice(0, located.index) : message;
  let at = located?.[1] ?? "";
  try {
    while (at !== "" && !exists(document, parsePointer(at))) at = at.slice(0, at.lastIndexOf("/"));
  } catch {
    at = "";
  }
  return new ContractError(at, `the type emitter (openapi-typescript) cannot process the document: ${reason}`);
}

function exists(document: unknown, segments: string[]): boolean {
  let node = document;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return true;
}

function isKnownValues(schema: any): schema is { enum: string[] } {
  return schema?.type === "string" && Array.isArray(schema.enum) && schema.enum.every((v: unknown) => typeof v === "string");
}

function isAnyString(schema: any): boolean {
  return schema?.type === "string" && Object.keys(schema).every((k) => ["type", "description", "title"].includes(k));
}

export function openEnumType(schema: any): Typescript.TypeNode | undefined {
  const { ts } = load();
  const branches = schema?.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const known = branches.find(isKnownValues);
  if (!known || !branches.some(isAnyString)) return undefined;
  const f = ts.factory;
  const anyOtherString = f.createIntersectionTypeNode([f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword), f.createTypeLiteralNode([])]);
  return f.createUnionTypeNode([...known.enum.map((value) => f.createLiteralTypeNode(f.createStringLiteral(value))), anyOtherString]);
}

/** `Date` for a date string (the one test `dates/plan.ts` converts by), else `openEnumType`'s answer. */
function dateOrOpenEnumType(schema: any): Typescript.TypeNode | undefined {
  if (dateFormatOf(schema) === undefined) return openEnumType(schema);
  const { ts } = load();
  return ts.factory.createTypeReferenceNode("Date");
}
