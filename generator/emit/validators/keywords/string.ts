/** `minLength`, `maxLength` (in code points, as JSON Schema counts) and `pattern`: on strings only. */
import { pointer } from "../../../common/json-pointer.ts";
import { code } from "../../code.ts";
import { check } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { auditPattern, checkPattern, count } from "../keyword-values.ts";
import { plural } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";

const lengthMessages = {
  minLength: (n: number) => `must be at least ${plural(n, "character")} long`,
  maxLength: (n: number) => `must be at most ${plural(n, "character")} long`,
};

export const stringLength: KeywordDefinition = {
  keywords: ["minLength", "maxLength"],
  group: "string",
  values: { minLength: count, maxLength: count },
  messages: lengthMessages,
  emit(schema, at, ctx, b) {
    const v = ctx.v;
    // `length` counts UTF-16 units, at least the code points: only a close call counts the latter.
    if ("minLength" in schema) {
      const n = count(schema, "minLength", at);
      if (n > 0) {
        const condition = n === 1 ? code`${v}.length < 1` : code`${v}.length < ${n} || (${v}.length < ${2 * n} && ${runtime("ucs2length")}(${v}) < ${n})`;
        check(b, ctx, condition, "minLength", lengthMessages.minLength(n), at + "/minLength");
      }
    }
    if ("maxLength" in schema) {
      const n = count(schema, "maxLength", at);
      check(b, ctx, code`${v}.length > ${n} && ${runtime("ucs2length")}(${v}) > ${n}`, "maxLength", lengthMessages.maxLength(n), at + "/maxLength");
    }
  },
};

const patternMessages = {
  pattern: (source: string) => `must match pattern ${JSON.stringify(source)}`,
};

export const pattern: KeywordDefinition = {
  keywords: ["pattern"],
  group: "string",
  values: { pattern: (schema, keyword, at, audit) => auditPattern(schema[keyword], at + pointer(keyword), audit.warnings) },
  messages: patternMessages,
  emit(schema, at, ctx, b) {
    if (!("pattern" in schema)) return;
    const compiled = checkPattern(schema["pattern"], at + "/pattern");
    const matches = ctx.env.constants.pattern(compiled);
    check(b, ctx, code`!${matches(ctx.v)}`, "pattern", patternMessages.pattern(compiled.source), at + "/pattern");
  },
};
