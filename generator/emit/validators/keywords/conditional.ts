/**
 * `if`/`then`/`else` and `dependentSchemas`: subschemas applied to the same value when a condition
 * holds. The `if` schema runs in boolean mode (its failures are no issues) and breaks out of its
 * labeled block when it fails.
 */
import { pointer } from "../../../common/json-pointer.ts";
import { Block, breakTo, code } from "../../code.ts";
import type { Ctx } from "../context.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { schemaMap } from "../keyword-values.ts";
import { readProperty } from "../property-access.ts";
import type { SchemaObject } from "../schema-object.ts";

/** Its issues are those of `then` or `else`. */
export const ifThenElse: KeywordDefinition = {
  keywords: ["if", "then", "else"],
  group: "any",
  subschemas: { if: "single", then: "single", else: "single" },
  messages: {},
  emit: ifThenElseCode,
};

/** Its issues are those of the subschemas. */
export const dependentSchemas: KeywordDefinition = {
  keywords: ["dependentSchemas"],
  group: "object",
  subschemas: { dependentSchemas: "map" },
  messages: {},
  emit: dependentSchemasCode,
};

function ifThenElseCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("if" in schema)) return;
  const condition = schema["if"];
  const thenSchema = "then" in schema ? schema["then"] : true;
  const elseSchema = "else" in schema ? schema["else"] : true;
  // No effect (the audit has still checked the subschemas).
  if (thenSchema === true && elseSchema === true) return;
  if (condition === true) return void b.append(ctx.env.genSame(thenSchema, at + "/then", ctx));
  if (condition === false) return void b.append(ctx.env.genSame(elseSchema, at + "/else", ctx));
  const passed = ctx.scope.local("L");
  const whole = ctx.scope.local("L");
  const inner = ctx.env.genSame(condition, at + "/if", { ...ctx, mode: "bool", fail: breakTo(passed) });
  inner.append(ctx.env.genSame(thenSchema, at + "/then", ctx));
  if (elseSchema === true) {
    b.labeled(passed, inner);
    return;
  }
  inner.jump(breakTo(whole));
  const outer = new Block().labeled(passed, inner);
  outer.append(ctx.env.genSame(elseSchema, at + "/else", ctx));
  b.labeled(whole, outer);
}

/** Each subschema applies when its property is present. */
function dependentSchemasCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("dependentSchemas" in schema)) return;
  for (const [name, sub] of Object.entries(schemaMap(schema, "dependentSchemas", at))) {
    const inner = ctx.env.genSame(sub, at + pointer("dependentSchemas", name), ctx);
    b.wrap(code`if (${readProperty(ctx.v, name)} !== undefined) {`, inner);
  }
}
