/**
 * `src/schema.ts`: the contract's types, by openapi-typescript. One change on top of its output:
 * an "open enum" (`anyOf: [{type: string, enum: [...]}, {type: string}]`, the contract's way of
 * naming known values while accepting new ones) becomes `"A" | "B" | (string & {})`, so editors
 * still offer the known values instead of collapsing the union to `string`.
 */
import { createRequire } from "node:module";
import type * as OpenapiTypescript from "openapi-typescript";
import type * as Typescript from "typescript";
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
  const ast = await openapiTS(document, {
    // Properties with a `default` stay optional: the caller may leave them out.
    defaultNonNullable: false,
    // `type: object` with no properties accepts any object (JSON Schema), not none (`Record<string, never>`).
    emptyObjectsUnknown: true,
    alphabetize: false,
    transform: openEnumType,
  });
  return astToString(ast);
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
