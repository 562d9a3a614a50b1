/**
 * `unevaluatedProperties` and `unevaluatedItems` (2020-12): they apply to the members no adjacent
 * keyword evaluated, counting what in-place subschemas (`allOf`, `anyOf`, `oneOf`, `if`/`then`/
 * `else`, `dependentSchemas`, `$ref`, `$dynamicRef`) evaluated when they passed; `not` counts for nothing.
 *
 * What is known without the value (declared names, patterns, a prefix length, "everything") is
 * compiled into the loop's condition. What depends on it (a branch that passed, items `contains`
 * matched) is code that adds to a local `Set` first, each branch checked in boolean mode. `$ref`
 * targets are read in place; one met again on the same value adds nothing new (the same schema on
 * the same value evaluates the same members). Unconditional subschemas are counted without being
 * checked: when one fails, the schema around fails whatever else is evaluated.
 */
import { pointer } from "../../../common/json-pointer.ts";
import { Block, breakTo, code, join, type Code } from "../../code.ts";
import { child, type Ctx } from "../context.ts";
import { check, failStatement } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { checkPattern, schemaArray, schemaMap, type Pattern } from "../keyword-values.ts";
import { plural } from "../messages.ts";
import { readProperty } from "../property-access.ts";
import type { RefKeyword } from "../resolve.ts";
import { runtime } from "../runtime-helpers.ts";
import { isObject, type SchemaObject } from "../schema-object.ts";

type Evaluation = "properties" | "items";

/** What the adjacent keywords and in-place subschemas of a schema evaluate. */
interface Evaluated {
  all: boolean;
  /** Property names (properties only). */
  names: Set<string>;
  /** Property name patterns (properties only). */
  patterns: Pattern[];
  /** Leading items (items only). */
  prefix: number;
  /** Code adding what depends on the value to the set `e`. */
  dynamic: Block;
}

/** Where evaluated members are collected: the kind, the set's name, the `$ref` targets being read. */
interface Collection {
  kind: Evaluation;
  e: Code;
  within: Set<string>;
}

const propertyMessages = {
  unevaluatedProperty: (k: Code) => code`"must not have unevaluated property " + JSON.stringify(${k})`,
};

const itemMessages = {
  /** `unevaluatedItems: false` where the first `n` items are evaluated. */
  unevaluatedItems: (n: number) => (n === 0 ? "must be an empty array (no item is evaluated)" : `must have at most ${plural(n, "item")} (the evaluated ones)`),
  /** `i` holds the index of an item no keyword evaluated. */
  unevaluatedItem: (i: Code) => code`"must not have unevaluated item " + ${i}`,
};

export const unevaluatedProperties: KeywordDefinition = {
  keywords: ["unevaluatedProperties"],
  group: "object",
  subschemas: { unevaluatedProperties: "single" },
  messages: propertyMessages,
  emit: unevaluatedPropertiesCode,
};

export const unevaluatedItems: KeywordDefinition = {
  keywords: ["unevaluatedItems"],
  group: "array",
  subschemas: { unevaluatedItems: "single" },
  messages: itemMessages,
  emit: unevaluatedItemsCode,
};

function empty(): Evaluated {
  return { all: false, names: new Set(), patterns: [], prefix: 0, dynamic: new Block() };
}

function isEmpty(ev: Evaluated): boolean {
  return !ev.all && ev.names.size === 0 && ev.patterns.length === 0 && ev.prefix === 0 && ev.dynamic.isEmpty;
}

function unevaluatedPropertiesCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("unevaluatedProperties" in schema)) return;
  const sub = schema["unevaluatedProperties"];
  if (sub === true) return;
  const e = ctx.scope.local("e");
  const ev = empty();
  evaluatedBy(schema, at, ctx, { kind: "properties", e, within: new Set() }, false, ev);
  if (ev.all) return;
  const k = ctx.scope.local("k");
  const x = ctx.scope.local("x");
  const subAt = at + "/unevaluatedProperties";
  const unevaluated: Code[] = [...ev.names].map((name) => code`${k} !== ${name}`);
  for (const pattern of ev.patterns) unevaluated.push(code`!${ctx.env.constants.pattern(pattern)(k)}`);
  if (!ev.dynamic.isEmpty) unevaluated.push(code`!${e}.has(${k})`);
  const memberPath = code`${ctx.path} + "/" + ${runtime("escapeSegment")}(${k})`;
  const inner = new Block();
  if (sub === false) inner.add(failStatement(ctx, "unevaluatedProperties", propertyMessages.unevaluatedProperty(k), subAt));
  else inner.append(ctx.env.gen(sub, subAt, child(ctx, x, memberPath)));
  const body = new Block();
  if (unevaluated.length === 0) body.append(inner);
  else body.wrap(code`if (${join(unevaluated, " && ")}) {`, inner);
  if (body.isEmpty) return;
  if (!ev.dynamic.isEmpty) b.add(code`const ${e} = new Set();`).append(ev.dynamic);
  const loop = body.uses(x) ? new Block().add(code`const ${x} = ${ctx.v}[${k}];`).append(body) : body;
  if (loop.uses(k)) b.wrap(code`for (const ${k} in ${ctx.v}) {`, loop);
  else b.wrap(code`if (${runtime("countProperties")}(${ctx.v}) !== 0) {`, loop);
}

function unevaluatedItemsCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("unevaluatedItems" in schema)) return;
  const sub = schema["unevaluatedItems"];
  if (sub === true) return;
  const v = ctx.v;
  const e = ctx.scope.local("e");
  const ev = empty();
  evaluatedBy(schema, at, ctx, { kind: "items", e, within: new Set() }, false, ev);
  if (ev.all) return;
  const subAt = at + "/unevaluatedItems";
  if (sub === false && ev.dynamic.isEmpty) {
    check(b, ctx, code`${v}.length > ${ev.prefix}`, "unevaluatedItems", itemMessages.unevaluatedItems(ev.prefix), subAt);
    return;
  }
  const i = ctx.scope.local("i");
  const x = ctx.scope.local("x");
  const inner = new Block();
  if (sub === false) inner.add(failStatement(ctx, "unevaluatedItems", itemMessages.unevaluatedItem(i), subAt));
  else inner.append(ctx.env.gen(sub, subAt, child(ctx, x, code`${ctx.path} + "/" + ${i}`)));
  const body = new Block();
  if (ev.dynamic.isEmpty) body.append(inner);
  else body.wrap(code`if (!${e}.has(${i})) {`, inner);
  if (body.isEmpty) return;
  if (!ev.dynamic.isEmpty) b.add(code`const ${e} = new Set();`).append(ev.dynamic);
  const loop = body.uses(x) ? new Block().add(code`const ${x} = ${v}[${i}];`).append(body) : body;
  b.wrap(code`for (let ${i} = ${ev.prefix}; ${i} < ${v}.length; ${i}++) {`, loop);
}

/** Adds what `schema` (at `at`, applied to `ctx.v`) evaluates to `out`; `own`: its own `unevaluated*` counts. */
function evaluatedBy(schema: unknown, at: string, ctx: Ctx, into: Collection, own: boolean, out: Evaluated): void {
  if (!isObject(schema) || out.all) return;
  if (into.kind === "properties") {
    for (const name of Object.keys(schemaMap(schema, "properties", at))) out.names.add(name);
    for (const source of Object.keys(schemaMap(schema, "patternProperties", at))) {
      out.patterns.push(checkPattern(source, at + pointer("patternProperties", source)));
    }
    if ("additionalProperties" in schema || (own && "unevaluatedProperties" in schema)) out.all = true;
  } else {
    if ("prefixItems" in schema) out.prefix = Math.max(out.prefix, schemaArray(schema, "prefixItems", at).length);
    if ("items" in schema || (own && "unevaluatedItems" in schema)) out.all = true;
    if ("contains" in schema) contains(schema["contains"], at + "/contains", ctx, into, out);
  }
  if (out.all) return;
  if ("$ref" in schema) ref(schema["$ref"], at + "/$ref", "$ref", ctx, into, out);
  if ("$dynamicRef" in schema) ref(schema["$dynamicRef"], at + "/$dynamicRef", "$dynamicRef", ctx, into, out);
  if ("allOf" in schema) schemaArray(schema, "allOf", at).forEach((sub, index) => evaluatedBy(sub, `${at}/allOf/${index}`, ctx, into, true, out));
  for (const keyword of ["anyOf", "oneOf"]) {
    if (keyword in schema) schemaArray(schema, keyword, at).forEach((sub, index) => whenPasses(sub, `${at}/${keyword}/${index}`, ctx, into, out));
  }
  if ("if" in schema) ifThenElse(schema, at, ctx, into, out);
  if (into.kind === "properties") {
    for (const [name, sub] of Object.entries(schemaMap(schema, "dependentSchemas", at))) {
      const ev = empty();
      evaluatedBy(sub, at + pointer("dependentSchemas", name), ctx, into, true, ev);
      if (!isEmpty(ev)) out.dynamic.wrap(code`if (${readProperty(ctx.v, name)} !== undefined) {`, addAll(ev, ctx, into.kind, into.e));
    }
  }
}

/** A `$ref` (or `$dynamicRef`) target's members, read in place (once per chain: a cycle adds nothing new). */
function ref(target: unknown, at: string, keyword: RefKeyword, ctx: Ctx, into: Collection, out: Evaluated): void {
  const unit = ctx.env.refTarget(target, at, keyword, ctx.unit.view);
  if (into.within.has(unit.pointer)) return;
  into.within.add(unit.pointer);
  evaluatedBy(unit.schema, unit.pointer, ctx, into, true, out);
  into.within.delete(unit.pointer);
}

/** A branch counts only when it passes: checked in boolean mode, then its members added. */
function whenPasses(sub: unknown, at: string, ctx: Ctx, into: Collection, out: Evaluated): void {
  const ev = empty();
  evaluatedBy(sub, at, ctx, into, true, ev);
  if (isEmpty(ev)) return;
  const label = ctx.scope.local("L");
  const inner = ctx.env.genSame(sub, at, { ...ctx, mode: "bool", fail: breakTo(label) });
  out.dynamic.labeled(label, inner.append(addAll(ev, ctx, into.kind, into.e)));
}

/** `if`'s and `then`'s members when `if` passes, `else`'s when it fails. */
function ifThenElse(schema: SchemaObject, at: string, ctx: Ctx, into: Collection, out: Evaluated): void {
  const passed = empty();
  evaluatedBy(schema["if"], at + "/if", ctx, into, true, passed);
  if ("then" in schema) evaluatedBy(schema["then"], at + "/then", ctx, into, true, passed);
  const failed = empty();
  if ("else" in schema) evaluatedBy(schema["else"], at + "/else", ctx, into, true, failed);
  if (isEmpty(passed) && isEmpty(failed)) return;
  const label = ctx.scope.local("L");
  const whole = ctx.scope.local("L");
  const inner = ctx.env.genSame(schema["if"], at + "/if", { ...ctx, mode: "bool", fail: breakTo(label) }).append(addAll(passed, ctx, into.kind, into.e));
  if (isEmpty(failed)) {
    out.dynamic.labeled(label, inner);
    return;
  }
  inner.jump(breakTo(whole));
  out.dynamic.labeled(whole, new Block().labeled(label, inner).append(addAll(failed, ctx, into.kind, into.e)));
}

/** The items `contains` matches. */
function contains(sub: unknown, at: string, ctx: Ctx, into: Collection, out: Evaluated): void {
  if (sub === true) out.all = true;
  if (sub === true || sub === false) return;
  const i = ctx.scope.local("i");
  const x = ctx.scope.local("x");
  const label = ctx.scope.local("L");
  const matches = ctx.env.gen(sub, at, { ...child(ctx, x, ctx.path), mode: "bool", fail: breakTo(label) }).add(code`${into.e}.add(${i});`);
  const body = matches.uses(x) ? new Block().add(code`const ${x} = ${ctx.v}[${i}];`).labeled(label, matches) : new Block().labeled(label, matches);
  out.dynamic.wrap(code`for (let ${i} = 0; ${i} < ${ctx.v}.length; ${i}++) {`, body);
}

/** Code adding everything `ev` describes to the set `e`. */
function addAll(ev: Evaluated, ctx: Ctx, kind: Evaluation, e: Code): Block {
  const b = new Block();
  const v = ctx.v;
  if (kind === "properties") {
    const k = ctx.scope.local("k");
    if (ev.all) return b.wrap(code`for (const ${k} in ${v}) {`, new Block().add(code`${e}.add(${k});`));
    for (const name of ev.names) b.add(code`${e}.add(${name});`);
    for (const pattern of ev.patterns) {
      const matches = ctx.env.constants.pattern(pattern)(k);
      b.wrap(code`for (const ${k} in ${v}) {`, new Block().add(code`if (${matches}) ${e}.add(${k});`));
    }
  } else {
    const i = ctx.scope.local("i");
    if (ev.all) return b.wrap(code`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, new Block().add(code`${e}.add(${i});`));
    if (ev.prefix > 0) b.wrap(code`for (let ${i} = 0; ${i} < ${ev.prefix} && ${i} < ${v}.length; ${i}++) {`, new Block().add(code`${e}.add(${i});`));
  }
  return b.append(ev.dynamic);
}
