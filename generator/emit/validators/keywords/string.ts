/** `minLength`, `maxLength` (in code points, as JSON Schema counts) and `pattern`: on strings only. */
import { code, type Block } from "../../code.ts";
import type { Ctx } from "../context.ts";
import { check } from "../failures.ts";
import { checkPattern, count } from "../keyword-values.ts";
import { messages } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";

export function stringKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  // `length` counts UTF-16 units, at least the code points: only a close call counts the latter.
  if ("minLength" in schema) {
    const n = count(schema, "minLength", at);
    if (n > 0) {
      const condition = n === 1 ? code`${v}.length < 1` : code`${v}.length < ${n} || (${v}.length < ${2 * n} && ${runtime("ucs2length")}(${v}) < ${n})`;
      check(b, ctx, condition, "minLength", messages.minLength(n), at + "/minLength");
    }
  }
  if ("maxLength" in schema) {
    const n = count(schema, "maxLength", at);
    check(b, ctx, code`${v}.length > ${n} && ${runtime("ucs2length")}(${v}) > ${n}`, "maxLength", messages.maxLength(n), at + "/maxLength");
  }
  if ("pattern" in schema) {
    const pattern = checkPattern(schema["pattern"], at + "/pattern");
    const matches = ctx.env.constants.pattern(pattern);
    check(b, ctx, code`!${matches(v)}`, "pattern", messages.pattern(pattern.source), at + "/pattern");
  }
}
