/** `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`: on numbers only. */
import { pointer } from "../../../common/json-pointer.ts";
import { code, raw } from "../../code.ts";
import { check } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { divisorOf, finiteNumber } from "../keyword-values.ts";
import { runtime } from "../runtime-helpers.ts";

/** Per bound: the operator that fails and the relation the message asks for. */
const BOUNDS: ReadonlyArray<readonly [keyword: string, failing: string, relation: string]> = [
  ["minimum", "<", ">="],
  ["maximum", ">", "<="],
  ["exclusiveMinimum", "<=", ">"],
  ["exclusiveMaximum", ">=", "<"],
];

const boundMessages = {
  /** `relation` is ">=", "<=", ">" or "<". */
  bound: (relation: string, limit: number) => `must be ${relation} ${String(limit)}`,
};

export const bounds: KeywordDefinition = {
  keywords: BOUNDS.map(([keyword]) => keyword),
  group: "number",
  values: Object.fromEntries(BOUNDS.map(([keyword]) => [keyword, finiteNumber])),
  messages: boundMessages,
  emit(schema, at, ctx, b) {
    const v = ctx.v;
    for (const [keyword, failing, relation] of BOUNDS) {
      if (!(keyword in schema)) continue;
      const limit = finiteNumber(schema, keyword, at);
      check(b, ctx, code`${v} ${raw(failing)} ${limit}`, keyword, boundMessages.bound(relation, limit), at + pointer(keyword));
    }
  },
};

const multipleOfMessages = {
  multipleOf: (divisor: number) => `must be a multiple of ${String(divisor)}`,
};

export const multipleOf: KeywordDefinition = {
  keywords: ["multipleOf"],
  group: "number",
  values: { multipleOf: divisorOf },
  messages: multipleOfMessages,
  emit(schema, at, ctx, b) {
    if (!("multipleOf" in schema)) return;
    const v = ctx.v;
    const divisor = divisorOf(schema, "multipleOf", at);
    // A remainder in binary is exact only for safe integers: beyond 2^53 (1e24) the value is read as
    // its decimal text, as for fractional divisors, and only a failing remainder pays for that.
    const decimal = code`!${runtime("decimalMultiple")}(${v}, ${divisor})`;
    const condition = Number.isSafeInteger(divisor) ? code`(${v} % ${divisor} !== 0 || !Number.isSafeInteger(${v})) && ${decimal}` : decimal;
    check(b, ctx, condition, "multipleOf", multipleOfMessages.multipleOf(divisor), at + "/multipleOf");
  },
};
