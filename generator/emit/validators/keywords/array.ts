/** `minItems`, `maxItems`, `uniqueItems`, `prefixItems`, `items`: on arrays only. */
import { bind, code, type Block } from "../../code.ts";
import { child, type Ctx } from "../context.ts";
import { check, NO_MESSAGE } from "../failures.ts";
import { count, itemsOf, schemaArray, uniqueItemsOf } from "../keyword-values.ts";
import { messages } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";

export function arrayKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  if ("minItems" in schema) {
    const n = count(schema, "minItems", at);
    if (n > 0) check(b, ctx, code`${v}.length < ${n}`, "minItems", messages.minItems(n), at + "/minItems");
  }
  if ("maxItems" in schema) {
    const n = count(schema, "maxItems", at);
    check(b, ctx, code`${v}.length > ${n}`, "maxItems", messages.maxItems(n), at + "/maxItems");
  }
  if ("uniqueItems" in schema && uniqueItemsOf(schema, at)) uniqueItems(at, ctx, b);
  const start = "prefixItems" in schema ? prefixItems(schema, at, ctx, b) : 0;
  if ("items" in schema) items(itemsOf(schema, at), start, at, ctx, b);
}

function uniqueItems(at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  const duplicates = runtime("duplicatePair");
  if (ctx.mode === "bool") {
    check(b, ctx, code`${duplicates}(${v}) !== undefined`, "uniqueItems", NO_MESSAGE, at + "/uniqueItems");
    return;
  }
  // The message names the equal pair, so it is found once, before the check.
  const d = ctx.scope.local("d");
  b.add(code`const ${d} = ${duplicates}(${v});`);
  check(b, ctx, code`${d} !== undefined`, "uniqueItems", messages.uniqueItems(d), at + "/uniqueItems");
}

/** The checks of the positions `prefixItems` covers; returns how many there are. */
function prefixItems(schema: SchemaObject, at: string, ctx: Ctx, b: Block): number {
  const v = ctx.v;
  const prefix = schemaArray(schema, "prefixItems", at);
  prefix.forEach((item, index) => {
    if (item === true) return;
    const x = ctx.scope.local("x");
    const inner = ctx.env.gen(item, `${at}/prefixItems/${index}`, child(ctx, x, code`${ctx.path} + ${`/${index}`}`));
    b.wrap(code`if (${v}.length > ${index}) {`, bind(x, code`${v}[${index}]`, inner));
  });
  return prefix.length;
}

/** `items` applies to the elements after the first `start` ones. */
function items(items: unknown, start: number, at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  if (items === false) {
    check(b, ctx, code`${v}.length > ${start}`, "items", messages.noMoreItems(start), at + "/items");
  } else if (items !== true) {
    const i = ctx.scope.local("i");
    const x = ctx.scope.local("x");
    const inner = ctx.env.gen(items, at + "/items", child(ctx, x, code`${ctx.path} + "/" + ${i}`));
    b.wrap(code`for (let ${i} = ${start}; ${i} < ${v}.length; ${i}++) {`, bind(x, code`${v}[${i}]`, inner));
  }
}
