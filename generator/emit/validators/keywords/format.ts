/**
 * `format`: the formats vocabulary.ts lists are checked by a runtime helper; any other is an
 * annotation (the audit tells of the unknown ones, or refuses them when the caller asks).
 */
import { ContractError } from "../../../common/errors.ts";
import { code } from "../../code.ts";
import { check } from "../failures.ts";
import type { AuditScope, KeywordDefinition } from "../keyword-definition.ts";
import { FORMAT_CHECKERS, type FormatChecker } from "../vocabulary.ts";
import { runtime } from "../runtime-helpers.ts";

export type { UnknownFormats } from "../keyword-definition.ts";

const messages = {
  format: (noun: string, format: string) => `must be ${noun} (format ${JSON.stringify(format)})`,
};

export const format: KeywordDefinition = {
  keywords: ["format"],
  group: "string",
  values: { format: (schema, keyword, at, audit) => auditFormat(schema[keyword], at + "/format", audit) },
  messages,
  emit(schema, at, ctx, b) {
    if (!("format" in schema)) return;
    const name = schema["format"];
    const checker = formatChecker(name, at + "/format");
    if (checker === undefined) return;
    check(b, ctx, code`!${runtime(checker.helper)}(${ctx.v})`, "format", messages.format(checker.noun, name as string), at + "/format");
  },
};

/** The runtime check of a format, or undefined for one the validators do not check. */
function formatChecker(format: unknown, at: string): FormatChecker | undefined {
  if (typeof format !== "string") throw new ContractError(at, "format must be a string");
  return FORMAT_CHECKERS.get(format);
}

/**
 * The audit's verdict on a format: nothing for a checked or ignored one; for an unknown one, a
 * warning (it stays an annotation) or, with `unknownFormats: "error"`, a ContractError.
 */
function auditFormat(format: unknown, at: string, { ignoredFormats, unknownFormats, warnings }: AuditScope): void {
  if (formatChecker(format, at) !== undefined || ignoredFormats.has(format as string)) return;
  const checked = [...FORMAT_CHECKERS.keys()].join(", ");
  if (unknownFormats === "error") {
    throw new ContractError(at, `format ${JSON.stringify(format)} is not checked by the validators (they check ${checked}), and unknown formats are errors here`);
  }
  warnings.add(`format:${String(format)}`, at, `format ${JSON.stringify(format)} is not checked by the validators (they check ${checked}): it is an annotation, typed as its base type`);
}
