/**
 * `contains` with `minContains`/`maxContains`: on arrays only. Matching items are counted in
 * boolean mode (a failed match breaks out of the item's block), and the loop stops as soon as the
 * answer is known.
 */
import { bind, Block, breakTo, code } from "../../code.ts";
import { child, type Ctx } from "../context.ts";
import { check, failAlways } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { count } from "../keyword-values.ts";
import { plural } from "../messages.ts";
import type { SchemaObject } from "../schema-object.ts";

const messages = {
  minContains: (min: number) => `must contain at least ${min === 1 ? "one item" : `${min} items`} matching the "contains" schema`,
  maxContains: (max: number) => `must contain at most ${plural(max, "item")} matching the "contains" schema`,
};

export const contains: KeywordDefinition = {
  keywords: ["contains", "minContains", "maxContains"],
  group: "array",
  values: { minContains: count, maxContains: count },
  subschemas: { contains: "single" },
  messages,
  emit: containsCode,
};

function containsCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("contains" in schema)) return;
  const v = ctx.v;
  const sub = schema["contains"];
  const min = "minContains" in schema ? count(schema, "minContains", at) : 1;
  const max = "maxContains" in schema ? count(schema, "maxContains", at) : undefined;
  // Without minContains, too few matches is the failure of `contains` itself.
  const minKeyword = "minContains" in schema ? "minContains" : "contains";
  const minAt = at + (minKeyword === "contains" ? "/contains" : "/minContains");
  const minMessage = messages.minContains(min);
  const maxMessage = messages.maxContains(max ?? 0);
  if (min === 0 && max === undefined) return;
  if (sub === true) {
    if (min > 0) check(b, ctx, code`${v}.length < ${min}`, minKeyword, minMessage, minAt);
    if (max !== undefined) check(b, ctx, code`${v}.length > ${max}`, "maxContains", maxMessage, at + "/maxContains");
    return;
  }
  if (sub === false) {
    if (min > 0) failAlways(b, ctx, minKeyword, minMessage, minAt);
    return;
  }
  const c = ctx.scope.local("c");
  const i = ctx.scope.local("i");
  const x = ctx.scope.local("x");
  const label = ctx.scope.local("L");
  const matches = ctx.env.gen(sub, at + "/contains", { ...child(ctx, x, ctx.path), mode: "bool", fail: breakTo(label) });
  matches.add(code`${c}++;`);
  // Stop early once the answer is known: enough matches (no maximum), or too many.
  if (max === undefined) matches.add(code`if (${c} >= ${min}) break;`);
  else matches.add(code`if (${c} > ${max}) break;`);
  const loop = new Block().labeled(label, matches);
  b.add(code`let ${c} = 0;`);
  b.wrap(code`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, bind(x, code`${v}[${i}]`, loop));
  if (min > 0) check(b, ctx, code`${c} < ${min}`, minKeyword, minMessage, minAt);
  if (max !== undefined) check(b, ctx, code`${c} > ${max}`, "maxContains", maxMessage, at + "/maxContains");
}
