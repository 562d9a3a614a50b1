/**
 * How a failed check ends: in boolean mode a jump (`return false;`, `break L3;`), in collect mode
 * an `addIssue` call recording the value's JSON pointer, the keyword, the message and the
 * keyword's JSON pointer in the contract.
 */
import { code, type Block, type Code } from "../code.ts";
import { ISSUES, SCHEMA_AT, type Ctx } from "./context.ts";
import { runtime } from "./runtime-helpers.ts";

/** For checks emitted in boolean mode only, which records no message. */
export const NO_MESSAGE = "";

/** The statement that records a failure; `message` is a text or code of a string expression. */
export function failStatement(ctx: Ctx, keyword: string, message: string | Code, schemaPath: string): Code {
  if (ctx.mode === "bool") return ctx.fail.statement;
  return code`${runtime("addIssue")}(${ISSUES}, ${ctx.path}, ${keyword}, ${message}, ${schemaPathArguments(ctx, schemaPath)});`;
}

/**
 * A keyword's pointer as the two arguments the runtime joins: the unit's place (its parameter,
 * so units of schemas written alike can share one function) and the rest, below the unit. A
 * pointer elsewhere (a `$ref` target's members read in place) is written out whole.
 */
export function schemaPathArguments(ctx: Ctx, schemaPath: string): Code {
  const base = ctx.unit.pointer;
  if (schemaPath.startsWith(base) && (schemaPath.length === base.length || schemaPath[base.length] === "/")) {
    return code`${SCHEMA_AT}, ${schemaPath.slice(base.length)}`;
  }
  return code`"", ${schemaPath}`;
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
