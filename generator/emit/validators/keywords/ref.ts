/**
 * `$ref`: a call of the target unit's function (every target is a unit, so recursive schemas work
 * and nothing is emitted twice), told the target's pointer. A `$ref` on the same value is recorded for the recursion check.
 * `$dynamicRef` is the same call, to the one target it can have (resolve.ts refuses the others).
 */
import { code, name, type Block } from "../../code.ts";
import { ISSUES, type Ctx } from "../context.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { REF_KEYWORDS, type RefKeyword } from "../resolve.ts";
import type { SchemaObject } from "../schema-object.ts";

/** Its issues are the target's. The audit follows the target too, also one no code calls. */
export const ref: KeywordDefinition = {
  keywords: ["$ref", "$dynamicRef"],
  group: "any",
  values: {
    $ref: (schema, keyword, at, audit) => audit.followRef(schema[keyword], at + "/$ref"),
    $dynamicRef: (schema, keyword, at, audit) => audit.followRef(schema[keyword], at + "/$dynamicRef", "$dynamicRef"),
  },
  messages: {},
  emit: (schema, at, ctx, b) => {
    for (const keyword of REF_KEYWORDS) if (keyword in schema) refCode(schema, keyword, at, ctx, b);
  },
};

function refCode(schema: SchemaObject, keyword: RefKeyword, at: string, ctx: Ctx, b: Block): void {
  const where = `${at}/${keyword}`;
  const target = ctx.env.refTarget(schema[keyword], where, keyword, ctx.unit.view);
  if (target.schema === true) return;
  if (ctx.sameInstance) ctx.env.recursion.add(ctx.unit, target.functions, where);
  const passes = code`${name(target.check)}(${ctx.v})`;
  if (ctx.mode === "bool") b.add(code`if (!${passes}) ${ctx.fail.statement}`);
  else b.add(code`if (!${passes}) ${name(target.collect)}(${ctx.v}, ${ctx.path}, ${ISSUES}, ${target.pointer});`);
}
