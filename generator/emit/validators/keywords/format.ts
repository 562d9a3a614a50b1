/**
 * `format`: the formats vocabulary.ts lists are checked by a runtime helper; the caller's ignored
 * formats (and OpenAPI's data-type formats) are annotations; any other is refused.
 */
import { ContractError } from "../../../errors.ts";
import { code, type Block } from "../code.ts";
import type { Ctx } from "../context.ts";
import { check } from "../failures.ts";
import { FORMAT_CHECKERS, type FormatChecker } from "../vocabulary.ts";
import { messages } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";

export function formatKeyword(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("format" in schema)) return;
  const format = schema["format"];
  const checker = formatChecker(format, at + "/format", ctx.env.ignoredFormats);
  if (checker === undefined) return;
  check(b, ctx, code`!${runtime(checker.helper)}(${ctx.v})`, "format", messages.format(checker.noun, format as string), at + "/format");
}

/** The runtime check of a format, or undefined for an ignored one; any other is refused. */
export function formatChecker(format: unknown, at: string, ignored: ReadonlySet<string>): FormatChecker | undefined {
  if (typeof format !== "string") throw new ContractError(at, "format must be a string");
  const checker = FORMAT_CHECKERS.get(format);
  if (checker !== undefined || ignored.has(format)) return checker;
  throw new ContractError(
    at,
    `format ${JSON.stringify(format)} is not supported: the validators check ${[...FORMAT_CHECKERS.keys()].join(", ")} and ignore only ${[...ignored].join(", ")} (OpenAPI's annotations); anything else would go unchecked, so generation stops`,
  );
}
