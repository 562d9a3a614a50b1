/**
 * `src/schema.ts`: the contract's types, by openapi-typescript. One change on top of its output:
 * an "open enum" (`anyOf: [{type: string, enum: [...]}, {type: string}]`, the contract's way of
 * naming known values while accepting new ones) becomes `"A" | "B" | (string & {})`, so editors
 * still offer the known values instead of collapsing the union to `string`. One change to its
 * input: a `$ref` into a parameter's schema is handed to it as one to the parameter (see
 * `refsIntoParameters`).
 */
import { createRequire } from "node:module";
import type * as OpenapiTypescript from "openapi-typescript";
import type * as Typescript from "typescript";
import { ContractError } from "../errors.ts";
import { parsePointer } from "../json-pointer.ts";
import type { LoadedContract } from "../load.ts";

/**
 * openapi-typescript and TypeScript, loaded on first use (a run whose schema types are emitted in a
 * worker never loads them in the main thread) and with `require`: their CommonJS builds load as
 * they are, whereas importing them as ES modules makes Node scan TypeScript's 9 MB for its export
 * names first (a fifth of a cold run).
 */
let libraries: { openapiTS: typeof OpenapiTypescript.default; astToString: typeof OpenapiTypescript.astToString; ts: typeof Typescript } | undefined;
function load(): NonNullable<typeof libraries> {
  if (libraries === undefined) {
    const require = createRequire(import.meta.url);
    const openapiTypescript = require("openapi-typescript") as typeof OpenapiTypescript;
    libraries = { openapiTS: openapiTypescript.default, astToString: openapiTypescript.astToString, ts: require("typescript") as typeof Typescript };
  }
  return libraries;
}

/** `src/schema.ts` of a loaded contract (without the header). */
export async function emitSchemaTypes(contract: Pick<LoadedContract, "document">): Promise<string> {
  const { openapiTS, astToString } = load();
  // openapi-typescript may annotate its input: hand it a private copy of the frozen document.
  const document = structuredClone(contract.document) as Parameters<typeof openapiTS>[0];
  refsIntoParameters(document);
  const ast = await openapiTS(document, {
    // Its own lint's findings come back as the error below; printed, they would be a second line.
    silent: true,
    // Properties with a `default` stay optional: the caller may leave them out.
    defaultNonNullable: false,
    // `type: object` with no properties accepts any object (JSON Schema), not none (`Record<string, never>`).
    emptyObjectsUnknown: true,
    alphabetize: false,
    transform: openEnumType,
  }).catch((error: unknown) => {
    throw emitterFailure(error, contract.document);
  });
  return astToString(ast);
}

/** Members that hold data, never a `$ref`. */
const DATA_MEMBERS = new Set(["example", "examples", "default", "enum", "const"]);

/**
 * openapi-typescript types a parameter (`components["parameters"]["X"]`) as its schema, so its
 * type of a `$ref` to that schema (`#/components/parameters/X/schema`) would index a `schema`
 * member that is not there: the ref loses that segment, in place, and names the same type. (A ref
 * deeper into the schema would then point at nothing, so it is left as it is.)
 */
export function refsIntoParameters(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(refsIntoParameters);
  if (typeof node !== "object" || node === null) return;
  const members = node as Record<string, unknown>;
  const ref = members["$ref"];
  if (typeof ref === "string") members["$ref"] = ref.replace(/^(#\/components\/parameters\/[^/]+)\/schema$/, "$1");
  for (const [key, value] of Object.entries(members)) if (!DATA_MEMBERS.has(key)) refsIntoParameters(value);
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
