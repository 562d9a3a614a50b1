/**
 * `type`: the check of the declared types, wrapped around the other keywords' code, and the type
 * tests the other keyword families use to guard the keywords that apply to one type only.
 */
import { Block, code, join, type Code } from "../../code.ts";
import type { Ctx } from "../context.ts";
import { failAlways, failStatement } from "../failures.ts";
import type { WrappingDefinition } from "../keyword-definition.ts";
import { typeList, type TypeName } from "../keyword-values.ts";
import { joinWords } from "../messages.ts";

const TYPE_NOUNS: Record<TypeName, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};

const messages = {
  type: (types: readonly TypeName[]) => `must be ${joinWords(types.map((t) => TYPE_NOUNS[t]))}`,
  emptyTypeList: "no value is allowed here (empty type list)",
};

export const typeKeyword: WrappingDefinition = {
  keywords: ["type"],
  values: { type: (schema, _keyword, at) => typeList(schema, at) },
  messages,
  wrap: typeCheck,
};

/**
 * The type check of `types` (undefined: no `type` keyword) before `rest`, the code of the other
 * keywords. In collect mode `rest` runs in the `else` branch, so it never reports on a value of
 * the wrong type.
 */
function typeCheck(types: readonly TypeName[] | undefined, at: string, ctx: Ctx, rest: Block): Block {
  const b = new Block();
  if (types === undefined) return b.append(rest);
  if (types.length === 0) {
    failAlways(b, ctx, "type", messages.emptyTypeList, at + "/type");
    return b;
  }
  const failure = failStatement(ctx, "type", messages.type(types), at + "/type");
  const failed = typeFails(types, ctx.v);
  if (ctx.mode === "bool") return b.add(code`if (${failed}) ${failure}`).append(rest);
  return b.ifElse(code`if (${failed}) {`, failure, rest);
}

/** The guard of the keywords that apply to one type only (numbers: integers included). */
export function typeGuard(type: "number" | "string" | "array" | "object", v: Code): Code {
  switch (type) {
    case "number":
      return code`typeof ${v} === "number"`;
    case "string":
      return code`typeof ${v} === "string"`;
    case "array":
      return code`Array.isArray(${v})`;
    case "object":
      return code`typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
  }
}

/** The JSON Schema types a JSON value has (an integral number is both "integer" and "number"). */
export function jsonTypes(value: unknown): TypeName[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  switch (typeof value) {
    case "boolean":
      return ["boolean"];
    case "string":
      return ["string"];
    case "number":
      return Number.isInteger(value) ? ["integer", "number"] : ["number"];
    default:
      return ["object"];
  }
}

function typeTest(type: TypeName, v: Code): Code {
  switch (type) {
    case "null":
      return code`${v} === null`;
    case "boolean":
      return code`typeof ${v} === "boolean"`;
    case "string":
      return code`typeof ${v} === "string"`;
    case "number":
      return code`(typeof ${v} === "number" && isFinite(${v}))`;
    case "integer":
      return code`Number.isInteger(${v})`;
    case "array":
      return code`Array.isArray(${v})`;
    case "object":
      return code`(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`;
  }
}

/** A condition true when `v` has none of the types. */
function typeFails(types: readonly TypeName[], v: Code): Code {
  if (types.length > 1) return code`!(${join(types.map((t) => typeTest(t, v)), " || ")})`;
  switch (types[0]) {
    case "null":
      return code`${v} !== null`;
    case "boolean":
      return code`typeof ${v} !== "boolean"`;
    case "string":
      return code`typeof ${v} !== "string"`;
    case "number":
      return code`typeof ${v} !== "number" || !isFinite(${v})`;
    case "integer":
      return code`!Number.isInteger(${v})`;
    case "array":
      return code`!Array.isArray(${v})`;
    case "object":
    default:
      return code`typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})`;
  }
}
