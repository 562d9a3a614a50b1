/**
 * `patternProperties`, `additionalProperties` and `propertyNames`: one `for…in` over the object's
 * keys for all three (on objects only).
 */
import { pointer } from "../../../common/json-pointer.ts";
import { Block, code, join, raw, type Code } from "../../code.ts";
import { child, ISSUES, type Ctx } from "../context.ts";
import { failStatement, schemaPathArguments } from "../failures.ts";
import { checkPattern, schemaMap } from "../keyword-values.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";

/** The messages of the loop's keywords (part of the `properties` definition's, object.ts). */
export const propertyLoopMessages = {
  additionalProperty: (k: Code) => code`"must not have additional property " + JSON.stringify(${k})`,
  /** The issue the property name `k`'s own issues are collapsed into. */
  propertyName: (k: Code) => code`"property name " + JSON.stringify(${k}) + " is invalid"`,
};

/** `declared`: the names `properties` lists, which `additionalProperties` does not apply to. */
export function propertyLoop(schema: SchemaObject, at: string, ctx: Ctx, b: Block, declared: readonly string[]): void {
  const patterns = Object.entries(schemaMap(schema, "patternProperties", at));
  const additional = "additionalProperties" in schema ? schema["additionalProperties"] : true;
  const names = "propertyNames" in schema ? schema["propertyNames"] : true;
  if (names === true && additional === true && patterns.every(([, sub]) => sub === true)) return;
  const k = ctx.scope.local("k");
  const x = ctx.scope.local("x");
  const memberPath = code`${ctx.path} + "/" + ${runtime("escapeSegment")}(${k})`;
  const body = new Block();

  if (names !== true) propertyNames(names, at + "/propertyNames", k, ctx, body);

  const unmatched: Code[] = declared.map((name) => code`${k} !== ${name}`);
  for (const [source, sub] of patterns) {
    const patternAt = at + pointer("patternProperties", source);
    const matches = ctx.env.constants.pattern(checkPattern(source, patternAt))(k);
    unmatched.push(code`!${matches}`);
    if (sub === true) continue;
    body.wrap(code`if (${matches}) {`, ctx.env.gen(sub, patternAt, child(ctx, x, memberPath)));
  }

  if (additional === false) {
    const statement = failStatement(ctx, "additionalProperties", propertyLoopMessages.additionalProperty(k), at + "/additionalProperties");
    if (unmatched.length > 0) body.add(code`if (${join(unmatched, " && ")}) ${statement}`);
    else if (ctx.mode === "bool") body.jump(ctx.fail);
    else body.add(statement);
  } else if (additional !== true) {
    const inner = ctx.env.gen(additional, at + "/additionalProperties", child(ctx, x, memberPath));
    if (unmatched.length === 0) body.append(inner);
    else body.wrap(code`if (${join(unmatched, " && ")}) {`, inner);
  }

  if (body.isEmpty) return;
  const loop = body.uses(x) ? new Block().add(code`const ${x} = ${ctx.v}[${k}];`).append(body) : body;
  if (loop.uses(k)) b.wrap(code`for (const ${k} in ${ctx.v}) {`, loop);
  else b.wrap(code`if (${runtime("countProperties")}(${ctx.v}) !== 0) {`, loop);
}

/** The key `k` checked against `propertyNames`; in collect mode its issues become one. */
function propertyNames(names: unknown, namesAt: string, k: Code, ctx: Ctx, body: Block): void {
  // The key goes through an `any` alias: as a string, TypeScript would reject `enum: [1]`'s comparison.
  const alias = ctx.scope.local("v");
  const checks = ctx.env.gen(names, namesAt, child(ctx, alias, ctx.path));
  const aliased = checks.uses(alias) ? new Block().add(code`const ${alias} = ${k};`).append(checks) : checks;
  if (ctx.mode === "bool") {
    body.append(aliased);
    return;
  }
  const n = ctx.scope.local("n");
  const inner = new Block().add(code`const ${n} = ${ISSUES}.length;`).append(aliased);
  inner.add(code`if (${ISSUES}.length !== ${n}) ${runtime("collapseIssues")}(${ISSUES}, ${n}, ${ctx.path}, "propertyNames", ${propertyLoopMessages.propertyName(k)}, ${schemaPathArguments(ctx, namesAt)});`);
  body.wrap(raw("{"), inner);
}
