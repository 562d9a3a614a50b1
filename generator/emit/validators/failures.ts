/**
 * How a failed check ends: in boolean mode a jump (`return false;`, `break L3;`), in collect mode
 * an `addIssue` call recording the value's JSON pointer, the keyword, the message and the
 * keyword's JSON pointer in the contract.
 */
import { code, type Block, type Code } from "./code.ts";
import { ISSUES, type Ctx } from "./context.ts";
import { runtime } from "./runtime-helpers.ts";

/** For checks emitted in boolean mode only, which records no message. */
export const NO_MESSAGE = "";

/** The statement that records a failure; `message` is a text or code of a string expression. */
export function failStatement(ctx: Ctx, keyword: string, message: string | Code, schemaPath: string): Code {
  if (ctx.mode === "bool") return ctx.fail.statement;
  return code`${runtime("addIssue")}(${ISSUES}, ${ctx.path}, ${keyword}, ${message}, ${schemaPath});`;
}

/** `if (condition) <failure>` */
export function check(b: Block, ctx: Ctx, condition: Code, keyword: string, message: string | Code, schemaPath: string): void {
  b.add(code`if (${condition}) ${failStatement(ctx, keyword, message, schemaPath)}`);
}

/** A failure whatever the value: in boolean mode the block ends in the jump. */
export function failAlways(b: Block, ctx: Ctx, keyword: string, message: string, schemaPath: string): void {
  if (ctx.mode === "bool") b.jump(ctx.fail);
  else b.add(failStatement(ctx, keyword, message, schemaPath));
}
