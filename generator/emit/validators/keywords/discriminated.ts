/**
 * The code of a `oneOf`/`anyOf` with a discriminator (what it selects: ../discriminator.ts). A
 * table of the values (a module constant, shared by unions of the same cases) gives the branch an
 * object's value selects; each branch's code is emitted once, skipped when another branch was
 * selected exactly (it cannot pass), so a valid object costs one lookup and its own branch. An
 * object whose value selects no branch tries them all, unless none could pass ("closed"): then it
 * fails at once.
 *
 * Issue collection (run only on refused values) runs every branch and then keeps only the
 * selected branch's issues, followed by one naming the value and the branch; a missing or unknown
 * value is one issue of its own naming the allowed values (the branches' are dropped).
 */
import { Block, code, raw, type Code } from "../../code.ts";
import { ISSUES, type Ctx } from "../context.ts";
import type { Discriminated } from "../discriminator.ts";
import { failStatement, schemaPathArguments } from "../failures.ts";
import { truncate } from "../messages.ts";
import { readProperty } from "../property-access.ts";
import { runtime } from "../runtime-helpers.ts";
import { typeGuard } from "./type.ts";

export interface Branch {
  sub: unknown;
  at: string;
  /** Its index in the keyword's array. */
  index: number;
}

export const discriminatedMessages = {
  /** `"a"`, or `one of "a", "b"`: the values that select a branch. */
  allowed: (values: readonly string[]) => truncate(values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`),
};

/** What the plain keyword's code needs to know to settle: its messages. */
export interface PlainFailure {
  /** No branch passed. */
  none: string;
  /** `c` branches passed (oneOf only). */
  many?: (c: Code) => Code;
}

/**
 * Boolean mode: the lookup (and the refusal of a value that selects nothing, when closed); what it
 * returns says, per branch, when to skip it (the caller puts
 * that first in the branch's labeled block, so its code is not nested deeper). Undefined when the
 * discriminator changes nothing here (no exact value, not closed): the caller emits its plain code.
 */
export function dispatch(d: Discriminated, ctx: Ctx, b: Block): ((branch: Branch) => Code | undefined) | undefined {
  const exact = d.cases.filter((c) => c.exact);
  if (exact.length === 0 && !d.closed) return undefined;
  const k = ctx.scope.local("k");
  const selection = code`${runtime("selectBranch")}(${selectionTable(d, ctx)}, ${readProperty(ctx.v, d.property)})`;
  const inObject = new Block();
  if (exact.length > 0) inObject.add(code`${k} = ${selection};`);
  if (d.closed) inObject.add(code`if (${exact.length > 0 ? k : selection} === -1) ${ctx.fail.statement}`);
  if (exact.length > 0) b.add(code`let ${k} = -1;`);
  b.wrap(code`if (${typeGuard("object", ctx.v)}) {`, inObject);
  if (exact.length === 0) return () => undefined;
  const selectable = new Set(exact.map((c) => c.branch));
  return (branch) => (selectable.has(branch.index) ? code`${k} >= 0 && ${k} !== ${branch.index}` : code`${k} >= 0`);
}

/**
 * Per value, the branch it selects: its index where the selection is exact, `-2 - index` where
 * other branches may pass too (a module constant: unions of the same cases share it).
 */
function selectionTable(d: Discriminated, ctx: Ctx): Code {
  return ctx.env.constants.jsonValue(Object.fromEntries(d.cases.map((c) => [c.value, c.exact ? c.branch : -2 - c.branch])));
}

/**
 * Collect mode: every branch's issues are recorded, `c` counting the ones that pass; then the
 * outcome settles which issues stay.
 */
export function collectDiscriminated(live: readonly Branch[], d: Discriminated, at: string, ctx: Ctx, b: Block, plain: PlainFailure): void {
  const keywordAt = `${at}/${d.keyword}`;
  const mark = ctx.scope.local("m");
  const t = ctx.scope.local("t");
  const k = ctx.scope.local("k");
  const start = ctx.scope.local("s");
  const end = ctx.scope.local("e");
  const c = ctx.scope.local("c");
  const allowed = discriminatedMessages.allowed(d.cases.map((x) => x.value));
  const tag = readProperty(ctx.v, d.property);
  const discriminatorIssue = code`${runtime("discriminatorIssue")}(${ISSUES}, ${ctx.path}, ${ctx.v}, ${d.property}, ${allowed}, ${schemaPathArguments(ctx, `${at}/discriminator`)});`;
  const isObject = typeGuard("object", ctx.v);
  const done = ctx.scope.local("L");

  b.add(code`const ${mark} = ${ISSUES}.length;`, code`let ${t} = -1, ${start} = ${mark}, ${end} = ${mark}, ${c} = 0;`);
  const inner = new Block();
  const inObject = new Block().add(code`${t} = ${runtime("selectBranch")}(${selectionTable(d, ctx)}, ${tag});`);
  if (d.closed) inObject.add(code`if (${t} === -1) {`, code`  ${discriminatorIssue}`, code`  break ${done};`, raw("}"));
  inner.wrap(code`if (${isObject}) {`, inObject);
  // The selected branch, exactly or not (-1: none).
  inner.add(code`const ${k} = ${t} < -1 ? -2 - ${t} : ${t};`);

  // Every branch runs (this is the path of values already refused; one another branch rules out adds its issues and fails).
  const selected = new Set(d.cases.map((x) => x.branch));
  for (const branch of live) {
    const n = ctx.scope.local("n");
    const block = new Block().add(code`const ${n} = ${ISSUES}.length;`);
    block.append(ctx.env.genSame(branch.sub, branch.at, ctx)).add(code`if (${ISSUES}.length === ${n}) ${c}++;`);
    if (selected.has(branch.index)) block.add(code`if (${k} === ${branch.index}) { ${start} = ${n}; ${end} = ${ISSUES}.length; }`);
    inner.wrap(raw("{"), block);
  }

  const passed = d.keyword === "oneOf" ? code`${c} === 1` : code`${c} !== 0`;
  const many = plain.many === undefined ? undefined : failStatement(ctx, d.keyword, plain.many(c), keywordAt);
  // Per branch index, its name (a module constant: unions of the same branches share it).
  const count = Math.max(...live.map((branch) => branch.index)) + 1;
  const names = ctx.env.constants.jsonValue(Array.from({ length: count }, (_, index) => d.names.get(index) ?? `${d.keyword}/${index}`));
  inner.add(code`if (${passed}) ${ISSUES}.length = ${mark};`);
  // The selected branch failed: its issues alone, then the one naming the value and the branch.
  const selectedFailed = new Block().add(
    code`${ISSUES}.length = ${end};`,
    code`${ISSUES}.splice(${mark}, ${start} - ${mark});`,
    code`${runtime("selectedBranchIssue")}(${ISSUES}, ${ctx.path}, ${d.keyword}, ${names}[${k}], ${d.property}, ${tag}, ${schemaPathArguments(ctx, `${keywordAt}/`)} + ${k});`,
  );
  if (many === undefined) inner.wrap(code`else if (${k} !== -1) {`, selectedFailed);
  else {
    inner.wrap(code`else if (${k} !== -1 && ${c} === 0) {`, selectedFailed);
    inner.add(code`else if (${c} > 1) {`, code`  ${ISSUES}.length = ${mark};`, code`  ${many}`, raw("}"));
  }
  if (!d.closed) inner.add(code`else if (${isObject}) {`, code`  ${ISSUES}.length = ${mark};`, code`  ${discriminatorIssue}`, raw("}"));
  inner.add(code`else ${failStatement(ctx, d.keyword, plain.none, keywordAt)}`);
  b.labeled(done, inner);
}
