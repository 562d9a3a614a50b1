/**
 * The code of one (sub)schema: the keyword families that apply to one type, each behind a guard
 * of that type unless `type` settles it, then `$ref`, the applicators, the conditionals and
 * `enum`/`const`, all inside the `type` check.
 */
import { ContractError } from "../../common/errors.ts";
import { Block, code, type Code } from "../code.ts";
import type { Ctx } from "./context.ts";
import { failAlways } from "./failures.ts";
import { typeList, type TypeName } from "./keyword-values.ts";
import { ASSERTION_KEYWORDS } from "./vocabulary.ts";
import { applicators } from "./keywords/applicator.ts";
import { arrayKeywords } from "./keywords/array.ts";
import { dependentSchemas, ifThenElse } from "./keywords/conditional.ts";
import { containsKeyword } from "./keywords/contains.ts";
import { enumAndConst } from "./keywords/enum-const.ts";
import { formatKeyword } from "./keywords/format.ts";
import { numberKeywords } from "./keywords/number.ts";
import { dependentRequired, propertiesAndRequired, propertyCounts } from "./keywords/object.ts";
import { propertyLoop } from "./keywords/property-loop.ts";
import { refKeyword } from "./keywords/ref.ts";
import { stringKeywords } from "./keywords/string.ts";
import { typeCheck, typeGuard } from "./keywords/type.ts";
import { unevaluatedItems, unevaluatedProperties } from "./keywords/unevaluated.ts";
import { messages } from "./messages.ts";
import { isObject, type SchemaObject } from "./schema-object.ts";

export function schemaCode(schema: unknown, at: string, ctx: Ctx): Block {
  if (schema === true) return new Block();
  if (schema === false) {
    const b = new Block();
    failAlways(b, ctx, "false schema", messages.falseSchema, at);
    return b;
  }
  if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");
  const types = typeList(schema, at);
  const known = types === undefined ? undefined : new Set<TypeName>(types);
  const rest = new Block();
  const v = ctx.v;
  group(rest, known, ["number", "integer"], typeGuard("number", v), (g) => numberKeywords(schema, at, ctx, g));
  group(rest, known, ["string"], typeGuard("string", v), (g) => {
    stringKeywords(schema, at, ctx, g);
    formatKeyword(schema, at, ctx, g);
  });
  group(rest, known, ["array"], typeGuard("array", v), (g) => {
    arrayKeywords(schema, at, ctx, g);
    containsKeyword(schema, at, ctx, g);
    unevaluatedItems(schema, at, ctx, g);
  });
  group(rest, known, ["object"], typeGuard("object", v), (g) => objectKeywords(schema, at, ctx, g));
  if ("$ref" in schema) refKeyword(schema["$ref"], at + "/$ref", ctx, rest);
  applicators(schema, at, ctx, rest);
  ifThenElse(schema, at, ctx, rest);
  // Last: TypeScript narrows `v` after `if (v !== "a") return false;`, so nothing may follow.
  enumAndConst(schema, at, ctx, rest, known);
  return typeCheck(types, at, ctx, rest);
}

/**
 * A subschema applied to the same value (allOf, anyOf, oneOf, not, if/then/else,
 * dependentSchemas) reads it through a fresh `any` alias: TypeScript narrows `v` after
 * `if (typeof v !== "string") return false;` (or inside the `else` of a type check), and the
 * subschema's object checks would then meet `never`.
 */
export function sameValueCode(schema: unknown, at: string, ctx: Ctx): Block {
  // A plain `$ref` only passes the value to a function: nothing to narrow.
  const refOnly = isObject(schema) && Object.keys(schema).every((keyword) => keyword === "$ref" || !ASSERTION_KEYWORDS.has(keyword));
  if (typeof schema === "boolean" || refOnly) return schemaCode(schema, at, ctx);
  const alias = ctx.scope.local("v");
  const inner = schemaCode(schema, at, { ...ctx, v: alias });
  if (!inner.uses(alias)) return inner;
  return new Block().add(code`const ${alias}: any = ${ctx.v};`).append(inner);
}

function objectKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  const declared = propertiesAndRequired(schema, at, ctx, b);
  propertyLoop(schema, at, ctx, b, declared);
  propertyCounts(schema, at, ctx, b);
  dependentRequired(schema, at, ctx, b);
  dependentSchemas(schema, at, ctx, b);
  unevaluatedProperties(schema, at, ctx, b);
}

/**
 * Keywords that apply to some types only: skipped when the declared type rules them out, run
 * without a guard when it guarantees them, guarded otherwise.
 */
function group(b: Block, known: ReadonlySet<TypeName> | undefined, applies: TypeName[], guard: Code, emit: (block: Block) => void): void {
  if (known !== undefined && !applies.some((t) => known.has(t))) return;
  const g = new Block();
  emit(g);
  if (g.isEmpty) return;
  const guaranteed = known !== undefined && [...known].every((t) => applies.includes(t));
  if (guaranteed) b.append(g);
  else b.wrap(code`if (${guard}) {`, g);
}
