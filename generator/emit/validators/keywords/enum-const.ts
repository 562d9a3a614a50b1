/**
 * `enum` and `const`: JSON equality with the listed values. Values of a type the schema's `type`
 * rules out can never match: they are left out of the comparison (TypeScript would also reject
 * comparing a narrowed string with a number).
 */
import { code, join, raw, type Block, type Code } from "../../code.ts";
import type { Ctx } from "../context.ts";
import { check, failAlways } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { enumValues, type TypeName } from "../keyword-values.ts";
import { primitiveLiteral } from "../../../common/escape.ts";
import { truncate } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import { jsonTypes } from "./type.ts";

/** Above this many primitives, a module-level Set answers instead of a chain of comparisons. */
const MAX_COMPARISONS = 6;

const enumMessages = {
  enum: (values: readonly unknown[]) =>
    values.length === 0 ? "no value is allowed (empty enum)" : `must be one of ${truncate(values.map((value) => JSON.stringify(value)).join(", "))}`,
};

export const enumKeyword: KeywordDefinition = {
  keywords: ["enum"],
  group: "any",
  values: { enum: enumValues },
  messages: enumMessages,
  emit(schema, at, ctx, b, types) {
    if (!("enum" in schema)) return;
    const values = enumValues(schema, "enum", at);
    equalityCheck(b, ctx, values.filter(possibleIn(types)), "enum", enumMessages.enum(values), at + "/enum");
  },
};

const constMessages = {
  const: (value: unknown) => `must be equal to ${truncate(JSON.stringify(value))}`,
};

export const constKeyword: KeywordDefinition = {
  keywords: ["const"],
  group: "any",
  messages: constMessages,
  emit(schema, at, ctx, b, types) {
    if (!("const" in schema)) return;
    const value = schema["const"];
    equalityCheck(b, ctx, [value].filter(possibleIn(types)), "const", constMessages.const(value), at + "/const");
  },
};

/** Whether a value can be of one of the declared types (any value without `type`). */
function possibleIn(types: ReadonlySet<TypeName> | undefined): (value: unknown) => boolean {
  return (value) => types === undefined || jsonTypes(value).some((t) => types.has(t));
}

function equalityCheck(b: Block, ctx: Ctx, values: unknown[], keyword: string, message: string, schemaPath: string): void {
  if (values.length === 0) failAlways(b, ctx, keyword, message, schemaPath);
  else check(b, ctx, notAnyOf(values, ctx), keyword, message, schemaPath);
}

/** A condition true when the value equals none of `values` (JSON equality); `values` is not empty. */
function notAnyOf(values: readonly unknown[], ctx: Ctx): Code {
  const v = ctx.v;
  const primitives = values.filter((value) => value === null || typeof value !== "object");
  const composites = values.filter((value) => value !== null && typeof value === "object");
  const parts: Code[] = [];
  if (primitives.length > MAX_COMPARISONS) {
    parts.push(code`!${ctx.env.constants.primitiveSet(primitives)}.has(${v})`);
  } else {
    // Compared as unknown: a comparison narrows `v`, and a second check on it (enum then const, two
    // allOf branches) against a value the first excluded would not compile ("no overlap").
    for (const value of primitives) parts.push(code`${v} !== ${raw(primitiveLiteral(value))}`);
  }
  for (const value of composites) parts.push(code`!${runtime("deepEqual")}(${v}, ${ctx.env.constants.jsonValue(value)})`);
  return join(parts, " && ");
}
