/**
 * `allOf`, `anyOf`, `oneOf`, `not`: subschemas applied to the same value. In boolean mode a branch
 * that fails breaks out of its labeled block; in collect mode each branch records its issues and
 * the outcome decides which stay.
 */
import { Block, breakTo, code, raw, type Code } from "../../code.ts";
import { ISSUES, type Ctx } from "../context.ts";
import { cheapestFirst, checkCost } from "../cost.ts";
import type { Discriminated } from "../discriminator.ts";
import { check, failAlways, failStatement } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { schemaArray } from "../keyword-values.ts";
import type { SchemaObject } from "../schema-object.ts";
import { collectDiscriminated, dispatch, type Branch } from "./discriminated.ts";

/** Per branch, when to skip it (code of a condition), or undefined for never. */
type Guard = (branch: Branch) => Code | undefined;

/** Its issues are the branches'. */
export const allOf: KeywordDefinition = {
  keywords: ["allOf"],
  group: "any",
  subschemas: { allOf: "array" },
  messages: {},
  emit(schema, at, ctx, b) {
    if (!("allOf" in schema)) return;
    schemaArray(schema, "allOf", at).forEach((sub, index) => b.append(ctx.env.genSame(sub, `${at}/allOf/${index}`, ctx)));
  },
};

const anyOfMessages = {
  anyOf: "must match at least one schema in anyOf",
};

export const anyOf: KeywordDefinition = {
  keywords: ["anyOf"],
  group: "any",
  subschemas: { anyOf: "array" },
  messages: anyOfMessages,
  emit(schema, at, ctx, b) {
    if ("anyOf" in schema) anyOfCode(schemaArray(schema, "anyOf", at), at, ctx, b, discriminated(schema, "anyOf", at, ctx));
  },
};

const oneOfMessages = {
  oneOf: "must match exactly one schema in oneOf",
  /** `c` counts the matching branches. */
  oneOfMany: (c: Code) => code`"must match exactly one schema in oneOf, but matches " + ${c}`,
};

export const oneOf: KeywordDefinition = {
  keywords: ["oneOf"],
  group: "any",
  subschemas: { oneOf: "array" },
  messages: oneOfMessages,
  emit(schema, at, ctx, b) {
    if ("oneOf" in schema) oneOfCode(schemaArray(schema, "oneOf", at), at, ctx, b, discriminated(schema, "oneOf", at, ctx));
  },
};

const notMessages = {
  not: 'must not match the "not" schema',
};

export const not: KeywordDefinition = {
  keywords: ["not"],
  group: "any",
  subschemas: { not: "single" },
  messages: notMessages,
  emit(schema, at, ctx, b) {
    if ("not" in schema) notCode(schema["not"], at, ctx, b);
  },
};

/** The discriminator's selection when it is about this keyword (see ../discriminator.ts). */
function discriminated(schema: SchemaObject, keyword: "oneOf" | "anyOf", at: string, ctx: Ctx): Discriminated | undefined {
  const found = ctx.env.discriminators.of(schema, at);
  return found?.keyword === keyword ? found : undefined;
}

/** The branches that can pass (a `false` one never does), with their pointers. */
function liveBranches(branches: unknown[], at: string): Branch[] {
  return branches.map((sub, index) => ({ sub, at: `${at}/${index}`, index })).filter(({ sub }) => sub !== false);
}

function anyOfCode(branches: unknown[], at: string, ctx: Ctx, b: Block, d: Discriminated | undefined): void {
  if (branches.includes(true)) return;
  const live = liveBranches(branches, at + "/anyOf");
  if (live.length === 0) return failAlways(b, ctx, "anyOf", anyOfMessages.anyOf, at + "/anyOf");
  if (live.length === 1) {
    const only = live[0] as Branch;
    b.append(ctx.env.genSame(only.sub, only.at, ctx));
    return;
  }
  if (d !== undefined && ctx.mode === "collect") return collectDiscriminated(live, d, at, ctx, b, { none: anyOfMessages.anyOf });
  const guard = d === undefined ? undefined : dispatch(d, ctx, b);
  const done = ctx.scope.local("L");
  const outer = ctx.mode === "bool" ? anyOfCheck(live, done, at, ctx, guard) : anyOfCollect(live, done, at, ctx);
  b.labeled(done, outer);
}

/**
 * Order does not change a boolean anyOf: the cheapest branches are tried first (an open enum's
 * `{type: string}` before its `{type: string, enum: [...]}`). Each branch but the last jumps out
 * of the whole (`done`) when it passes; the last one's failure is the anyOf's. With a guard
 * (a discriminator's selection) each branch may be skipped, and the anyOf fails after them all.
 */
function anyOfCheck(live: readonly Branch[], done: Code, at: string, ctx: Ctx, guard: Guard | undefined): Block {
  const outer = new Block();
  const ordered = cheapestFirst(live, (branch) => checkCost(branch.sub, 2, ctx.env.assertionKeywords));
  ordered.forEach((branch, index) => {
    const skip = guard?.(branch);
    if (skip === undefined && index === ordered.length - 1) {
      outer.append(ctx.env.genSame(branch.sub, branch.at, ctx));
      return;
    }
    const next = ctx.scope.local("L");
    const inner = new Block();
    if (skip !== undefined) inner.add(code`if (${skip}) break ${next};`);
    inner.append(ctx.env.genSame(branch.sub, branch.at, { ...ctx, fail: breakTo(next) })).jump(breakTo(done));
    outer.labeled(next, inner);
  });
  if (ordered.some((branch) => guard?.(branch) !== undefined)) failAlways(outer, ctx, "anyOf", anyOfMessages.anyOf, at + "/anyOf");
  return outer;
}

/** Every branch records its issues; the first one to pass removes them all again and leaves (`done`). */
function anyOfCollect(live: readonly Branch[], done: Code, at: string, ctx: Ctx): Block {
  const outer = new Block();
  const mark = ctx.scope.local("m");
  outer.add(code`const ${mark} = ${ISSUES}.length;`);
  for (const { sub, at: branchAt } of live) {
    const n = ctx.scope.local("n");
    const inner = new Block().add(code`const ${n} = ${ISSUES}.length;`).append(ctx.env.genSame(sub, branchAt, ctx));
    inner.add(code`if (${ISSUES}.length === ${n}) {`, code`  ${ISSUES}.length = ${mark};`, code`  break ${done};`, raw("}"));
    outer.wrap(raw("{"), inner);
  }
  return outer.add(failStatement(ctx, "anyOf", anyOfMessages.anyOf, at + "/anyOf"));
}

function oneOfCode(branches: unknown[], at: string, ctx: Ctx, b: Block, d: Discriminated | undefined): void {
  const live = liveBranches(branches, at + "/oneOf");
  if (live.length === 0) return failAlways(b, ctx, "oneOf", oneOfMessages.oneOf, at + "/oneOf");
  if (live.length === 1) {
    const only = live[0] as Branch;
    b.append(ctx.env.genSame(only.sub, only.at, ctx));
    return;
  }
  if (d !== undefined && ctx.mode === "collect") return collectDiscriminated(live, d, at, ctx, b, { none: oneOfMessages.oneOf, many: oneOfMessages.oneOfMany });
  const guard = d === undefined ? undefined : dispatch(d, ctx, b);
  const c = ctx.scope.local("c");
  b.add(code`let ${c} = 0;`);
  if (ctx.mode === "bool") oneOfCheck(live, c, at, ctx, b, guard);
  else oneOfCollect(live, c, at, ctx, b);
}

/** Each branch that passes counts in `c`; a second match settles it. A guard (a discriminator's selection) may skip a branch. */
function oneOfCheck(live: readonly Branch[], c: Code, at: string, ctx: Ctx, b: Block, guard: Guard | undefined): void {
  live.forEach((branch, index) => {
    const label = ctx.scope.local("L");
    const skip = guard?.(branch);
    const inner = new Block();
    if (skip !== undefined) inner.add(code`if (${skip}) break ${label};`);
    inner.append(ctx.env.genSame(branch.sub, branch.at, { ...ctx, fail: breakTo(label) }));
    inner.add(index === 0 ? code`${c}++;` : code`if (++${c} > 1) ${ctx.fail.statement}`);
    b.labeled(label, inner);
  });
  check(b, ctx, code`${c} === 0`, "oneOf", oneOfMessages.oneOf, at + "/oneOf");
}

/** Every branch records its issues and counts in `c` when it adds none; they stay only if none passed. */
function oneOfCollect(live: readonly Branch[], c: Code, at: string, ctx: Ctx, b: Block): void {
  const mark = ctx.scope.local("m");
  b.add(code`const ${mark} = ${ISSUES}.length;`);
  for (const { sub, at: branchAt } of live) {
    const n = ctx.scope.local("n");
    const inner = new Block().add(code`const ${n} = ${ISSUES}.length;`).append(ctx.env.genSame(sub, branchAt, ctx));
    inner.add(code`if (${ISSUES}.length === ${n}) ${c}++;`);
    b.wrap(raw("{"), inner);
  }
  b.add(code`if (${c} !== 0) ${ISSUES}.length = ${mark};`);
  b.add(code`if (${c} === 0) ${failStatement(ctx, "oneOf", oneOfMessages.oneOf, at + "/oneOf")}`);
  b.add(code`else if (${c} > 1) ${failStatement(ctx, "oneOf", oneOfMessages.oneOfMany(c), at + "/oneOf")}`);
}

function notCode(sub: unknown, at: string, ctx: Ctx, b: Block): void {
  if (sub === false) return;
  if (sub === true) return failAlways(b, ctx, "not", notMessages.not, at + "/not");
  const label = ctx.scope.local("L");
  const inner = ctx.env.genSame(sub, at + "/not", { ...ctx, mode: "bool", fail: breakTo(label) });
  failAlways(inner, ctx, "not", notMessages.not, at + "/not");
  b.labeled(label, inner);
}
