/**
 * `src/schema.ts`: the contract's types, by openapi-typescript. One change on top of its output:
 * an "open enum" (`anyOf: [{type: string, enum: [...]}, {type: string}]`, the contract's way of
 * naming known values while accepting new ones) becomes `"A" | "B" | (string & {})`, so editors
 * still offer the known values instead of collapsing the union to `string`.
 */
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import type { LoadedContract } from "../load.ts";

export async function emitSchemaTypes(contract: LoadedContract): Promise<string> {
  // openapi-typescript may annotate its input: hand it a private copy of the frozen document.
  const document = structuredClone(contract.document) as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(document, {
    // Properties with a `default` stay optional: the caller may leave them out.
    defaultNonNullable: false,
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

export function openEnumType(schema: any): ts.TypeNode | undefined {
  const branches = schema?.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const known = branches.find(isKnownValues);
  if (!known || !branches.some(isAnyString)) return undefined;
  const f = ts.factory;
  const anyOtherString = f.createIntersectionTypeNode([f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword), f.createTypeLiteralNode([])]);
  return f.createUnionTypeNode([...known.enum.map((value) => f.createLiteralTypeNode(f.createStringLiteral(value))), anyOtherString]);
}
