/**
 * The code of a `oneOf`/`anyOf` with a discriminator (what it selects: ../discriminator.ts). A
 * `switch` on the property sets `k` to the branch an object's value selects; each branch's code is
 * emitted once, behind a guard that skips it when another branch was selected exactly (it cannot
 * pass), so a valid object costs the switch and its own branch. An object whose value selects no
 * branch tries them all, unless none could pass ("closed"): then it fails at once.
 *
 * Issue collection runs the same branches and then keeps only the selected branch's issues,
 * followed by one naming the value and the branch; a missing or unknown value is one issue of its
 * own naming the allowed values (the branches' are dropped).
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
  /** The selected branch failed: `value` selects `branch`. */
  selected: (branch: string, property: string, value: string) => `must match ${branch} (selected by ${property} ${JSON.stringify(value)})`,
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
 * Boolean mode: the switch, then `branches` (in the order the caller emits them) each behind its
 * guard. Undefined when the discriminator changes nothing here (no exact value, not closed): the
 * caller emits its plain code.
 */
export function dispatch(d: Discriminated, at: string, ctx: Ctx, b: Block): ((branch: Branch) => Code | undefined) | undefined {
  const exact = d.cases.filter((c) => c.exact);
  if (exact.length === 0 && !d.closed) return undefined;
  const k = ctx.scope.local("k");
  const cases = new Block();
  for (const branch of new Set(exact.map((c) => c.branch))) {
    for (const c of exact) if (c.branch === branch) cases.add(code`case ${c.value}:`);
    cases.add(code`  ${k} = ${branch}; break;`);
  }
  if (d.closed) {
    const inexact = d.cases.filter((c) => !c.exact);
    for (const c of inexact) cases.add(code`case ${c.value}:`);
    if (inexact.length > 0) cases.add(raw("  break;"));
    cases.add(raw("default:"), code`  ${ctx.fail.statement}`);
  }
  if (exact.length > 0) b.add(code`let ${k} = -1;`);
  b.wrap(code`if (${typeGuard("object", ctx.v)}) {`, new Block().wrap(code`switch (${readProperty(ctx.v, d.property)}) {`, cases));
  if (exact.length === 0) return () => undefined;
  const selectable = new Set(exact.map((c) => c.branch));
  return (branch) => (selectable.has(branch.index) ? code`${k} === -1 || ${k} === ${branch.index}` : code`${k} === -1`);
}

/**
 * Collect mode: every branch's issues are recorded (those another branch's exact selection rules
 * out skipped), `c` counting the ones that pass; then the outcome settles which issues stay.
 */
export function collectDiscriminated(live: readonly Branch[], d: Discriminated, at: string, ctx: Ctx, b: Block, plain: PlainFailure): void {
  const keywordAt = `${at}/${d.keyword}`;
  const mark = ctx.scope.local("m");
  const k = ctx.scope.local("k");
  const message = ctx.scope.local("w");
  const start = ctx.scope.local("s");
  const end = ctx.scope.local("e");
  const c = ctx.scope.local("c");
  const exactness = new Set(d.cases.map((x) => x.exact));
  // Whether the selection was exact: `k !== -1` when every value's is, never when none is, else a flag.
  const exactFlag = exactness.size === 2 ? ctx.scope.local("x") : undefined;
  const allowed = discriminatedMessages.allowed(d.cases.map((x) => x.value));
  const discriminatorIssue = code`${runtime("discriminatorIssue")}(${ISSUES}, ${ctx.path}, ${ctx.v}, ${d.property}, ${allowed}, ${schemaPathArguments(ctx, `${at}/discriminator`)});`;
  const isObject = typeGuard("object", ctx.v);

  b.add(code`const ${mark} = ${ISSUES}.length;`, code`let ${k} = -1, ${message} = "", ${start} = ${mark}, ${end} = ${mark}, ${c} = 0;`);
  if (exactFlag !== undefined) b.add(code`let ${exactFlag} = false;`);
  const done = ctx.scope.local("L");
  const inner = new Block();
  const cases = new Block();
  for (const x of d.cases) {
    const text = discriminatedMessages.selected(d.names.get(x.branch) ?? `${d.keyword}/${x.branch}`, d.property, x.value);
    const flag = x.exact && exactFlag !== undefined ? code` ${exactFlag} = true;` : raw("");
    cases.add(code`case ${x.value}:`, code`  ${k} = ${x.branch}; ${message} = ${text};${flag} break;`);
  }
  if (d.closed) cases.add(raw("default:"), code`  ${discriminatorIssue}`, code`  break ${done};`);
  inner.wrap(code`if (${isObject}) {`, new Block().wrap(code`switch (${readProperty(ctx.v, d.property)}) {`, cases));

  const selectable = new Set(d.cases.filter((x) => x.exact).map((x) => x.branch));
  const selected = new Set(d.cases.map((x) => x.branch));
  for (const branch of live) {
    const n = ctx.scope.local("n");
    const run = new Block().append(ctx.env.genSame(branch.sub, branch.at, ctx)).add(code`if (${ISSUES}.length === ${n}) ${c}++;`);
    const skipped = exactFlag !== undefined ? code`!${exactFlag}` : exactness.has(true) ? code`${k} === -1` : undefined;
    const guard = skipped === undefined ? undefined : selectable.has(branch.index) ? code`${skipped} || ${k} === ${branch.index}` : skipped;
    const block = new Block().add(code`const ${n} = ${ISSUES}.length;`);
    if (guard === undefined) block.append(run);
    else block.wrap(code`if (${guard}) {`, run);
    if (selected.has(branch.index)) block.add(code`if (${k} === ${branch.index}) { ${start} = ${n}; ${end} = ${ISSUES}.length; }`);
    inner.wrap(raw("{"), block);
  }

  const passed = d.keyword === "oneOf" ? code`${c} === 1` : code`${c} !== 0`;
  const many = plain.many === undefined ? undefined : failStatement(ctx, d.keyword, plain.many(c), keywordAt);
  inner.add(code`if (${passed}) ${ISSUES}.length = ${mark};`);
  // The selected branch failed: its issues alone, then the one naming the value and the branch.
  const selectedFailed = new Block().add(
    code`${ISSUES}.length = ${end};`,
    code`${ISSUES}.splice(${mark}, ${start} - ${mark});`,
    code`${runtime("addIssue")}(${ISSUES}, ${ctx.path}, ${d.keyword}, ${message}, ${schemaPathArguments(ctx, `${keywordAt}/`)} + ${k});`,
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
