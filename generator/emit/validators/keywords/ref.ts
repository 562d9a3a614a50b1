/**
 * `$ref`: a call of the target unit's function (every target is a unit, so recursive schemas work
 * and nothing is emitted twice), told the target's pointer. A `$ref` on the same value is recorded for the recursion check.
 */
import { code, name, type Block } from "../../code.ts";
import { ISSUES, type Ctx } from "../context.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import type { SchemaObject } from "../schema-object.ts";

/** Its issues are the target's. The audit follows the target too, also one no code calls. */
export const ref: KeywordDefinition = {
  keywords: ["$ref"],
  group: "any",
  values: { $ref: (schema, keyword, at, audit) => audit.followRef(schema[keyword], at + "/$ref") },
  messages: {},
  emit: refCode,
};

function refCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("$ref" in schema)) return;
  const target = ctx.env.refTarget(schema["$ref"], at + "/$ref");
  if (target.schema === true) return;
  if (ctx.sameInstance) ctx.env.recursion.add(ctx.unit, target.functions, at + "/$ref");
  const passes = code`${name(target.check)}(${ctx.v})`;
  if (ctx.mode === "bool") b.add(code`if (!${passes}) ${ctx.fail.statement}`);
  else b.add(code`if (!${passes}) ${name(target.collect)}(${ctx.v}, ${ctx.path}, ${ISSUES}, ${target.pointer});`);
}
