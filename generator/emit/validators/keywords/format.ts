/**
 * `format`: the formats vocabulary.ts lists are checked by a runtime helper; any other is an
 * annotation (the audit tells of the unknown ones, or refuses them when the caller asks).
 */
import { ContractError } from "../../../common/errors.ts";
import { code, type Block } from "../../code.ts";
import type { Ctx } from "../context.ts";
import { check } from "../failures.ts";
import { FORMAT_CHECKERS, type FormatChecker } from "../vocabulary.ts";
import { messages } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";
import type { Warnings } from "../../../common/warnings.ts";

export function formatKeyword(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("format" in schema)) return;
  const format = schema["format"];
  const checker = formatChecker(format, at + "/format");
  if (checker === undefined) return;
  check(b, ctx, code`!${runtime(checker.helper)}(${ctx.v})`, "format", messages.format(checker.noun, format as string), at + "/format");
}

/** The runtime check of a format, or undefined for one the validators do not check. */
export function formatChecker(format: unknown, at: string): FormatChecker | undefined {
  if (typeof format !== "string") throw new ContractError(at, "format must be a string");
  return FORMAT_CHECKERS.get(format);
}

/** How a format the validators do not check (and the caller did not list as ignored) is met. */
export type UnknownFormats = "warn" | "error";

/**
 * The audit's verdict on a format: nothing for a checked or ignored one; for an unknown one, a
 * warning (it stays an annotation) or, with `unknownFormats: "error"`, a ContractError.
 */
export function auditFormat(format: unknown, at: string, ignored: ReadonlySet<string>, unknownFormats: UnknownFormats, warnings: Warnings): void {
  if (formatChecker(format, at) !== undefined || ignored.has(format as string)) return;
  const checked = [...FORMAT_CHECKERS.keys()].join(", ");
  if (unknownFormats === "error") {
    throw new ContractError(at, `format ${JSON.stringify(format)} is not checked by the validators (they check ${checked}), and unknown formats are errors here`);
  }
  warnings.add(`format:${String(format)}`, at, `format ${JSON.stringify(format)} is not checked by the validators (they check ${checked}): it is an annotation, typed as its base type`);
}
