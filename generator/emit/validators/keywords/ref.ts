/**
 * `$ref`: a call of the target unit's function (every target is a unit, so recursive schemas work
 * and nothing is emitted twice), told the target's pointer. A `$ref` on the same value is recorded for the recursion check.
 */
import { code, name, type Block } from "../../code.ts";
import { ISSUES, type Ctx } from "../context.ts";

export function refKeyword(ref: unknown, at: string, ctx: Ctx, b: Block): void {
  const target = ctx.env.refTarget(ref, at);
  if (target.schema === true) return;
  if (ctx.sameInstance) ctx.env.recursion.add(ctx.unit, target.functions, at);
  const passes = code`${name(target.check)}(${ctx.v})`;
  if (ctx.mode === "bool") b.add(code`if (!${passes}) ${ctx.fail.statement}`);
  else b.add(code`if (!${passes}) ${name(target.collect)}(${ctx.v}, ${ctx.path}, ${ISSUES}, ${target.pointer});`);
}
