/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`: on numbers only. */
import { pointer } from "../../../common/json-pointer.ts";
import { code, raw, type Block } from "../../code.ts";
import type { Ctx } from "../context.ts";
import { check } from "../failures.ts";
import { divisorOf, finiteNumber } from "../keyword-values.ts";
import { messages } from "../messages.ts";
import type { SchemaObject } from "../schema-object.ts";
import { runtime } from "../runtime-helpers.ts";

/** Per bound: the operator that fails and the relation the message asks for. */
const BOUNDS: ReadonlyArray<readonly [keyword: string, failing: string, relation: string]> = [
  ["minimum", "<", ">="],
  ["maximum", ">", "<="],
  ["exclusiveMinimum", "<=", ">"],
  ["exclusiveMaximum", ">=", "<"],
];

/** The keywords whose value is a bound (the audit checks each is a finite number). */
export const BOUND_KEYWORDS: readonly string[] = BOUNDS.map(([keyword]) => keyword);

export function numberKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  for (const [keyword, failing, relation] of BOUNDS) {
    if (!(keyword in schema)) continue;
    const limit = finiteNumber(schema, keyword, at);
    check(b, ctx, code`${v} ${raw(failing)} ${limit}`, keyword, messages.bound(relation, limit), at + pointer(keyword));
  }
  if ("multipleOf" in schema) {
    const divisor = divisorOf(schema, at);
    // A remainder in binary is exact only for safe integers: beyond 2^53 (1e24) the value is read as
    // its decimal text, as for fractional divisors, and only a failing remainder pays for that.
    const decimal = code`!${runtime("decimalMultiple")}(${v}, ${divisor})`;
    const condition = Number.isSafeInteger(divisor) ? code`(${v} % ${divisor} !== 0 || !Number.isSafeInteger(${v})) && ${decimal}` : decimal;
    check(b, ctx, condition, "multipleOf", messages.multipleOf(divisor), at + "/multipleOf");
  }
}
