/** `minItems`, `maxItems`, `uniqueItems`, `prefixItems`, `items`: on arrays only. */
import { bind, code, type Block, type Code } from "../../code.ts";
import { child, type Ctx } from "../context.ts";
import { check, NO_MESSAGE } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { boolean, count, itemsOf, schemaArray } from "../keyword-values.ts";
import { plural } from "../messages.ts";
import { runtime } from "../runtime-helpers.ts";
import type { SchemaObject } from "../schema-object.ts";

const countMessages = {
  minItems: (n: number) => `must have at least ${plural(n, "item")}`,
  maxItems: (n: number) => `must have at most ${plural(n, "item")}`,
};

export const itemCounts: KeywordDefinition = {
  keywords: ["minItems", "maxItems"],
  group: "array",
  values: { minItems: count, maxItems: count },
  messages: countMessages,
  emit(schema, at, ctx, b) {
    const v = ctx.v;
    if ("minItems" in schema) {
      const n = count(schema, "minItems", at);
      if (n > 0) check(b, ctx, code`${v}.length < ${n}`, "minItems", countMessages.minItems(n), at + "/minItems");
    }
    if ("maxItems" in schema) {
      const n = count(schema, "maxItems", at);
      check(b, ctx, code`${v}.length > ${n}`, "maxItems", countMessages.maxItems(n), at + "/maxItems");
    }
  },
};

const uniqueMessages = {
  /** `d` holds the pair of equal indexes. */
  uniqueItems: (d: Code) => code`"must not have duplicate items (items " + ${d}[0] + " and " + ${d}[1] + " are equal)"`,
};

export const uniqueItems: KeywordDefinition = {
  keywords: ["uniqueItems"],
  group: "array",
  values: { uniqueItems: boolean },
  messages: uniqueMessages,
  emit(schema, at, ctx, b) {
    if (!("uniqueItems" in schema) || !boolean(schema, "uniqueItems", at)) return;
    const v = ctx.v;
    const duplicates = runtime("duplicatePair");
    if (ctx.mode === "bool") {
      check(b, ctx, code`${duplicates}(${v}) !== undefined`, "uniqueItems", NO_MESSAGE, at + "/uniqueItems");
      return;
    }
    // The message names the equal pair, so it is found once, before the check.
    const d = ctx.scope.local("d");
    b.add(code`const ${d} = ${duplicates}(${v});`);
    check(b, ctx, code`${d} !== undefined`, "uniqueItems", uniqueMessages.uniqueItems(d), at + "/uniqueItems");
  },
};

const itemsMessages = {
  /** `items: false` after `start` prefix items. */
  noMoreItems: (start: number) => (start === 0 ? "must be an empty array" : `must have at most ${plural(start, "item")}`),
};

/** `prefixItems` and `items`, which applies to the elements after the prefix. */
export const items: KeywordDefinition = {
  keywords: ["prefixItems", "items"],
  group: "array",
  values: { items: itemsOf },
  subschemas: { prefixItems: "array", items: "single" },
  messages: itemsMessages,
  emit(schema, at, ctx, b) {
    const start = "prefixItems" in schema ? prefixItems(schema, at, ctx, b) : 0;
    if ("items" in schema) itemsAfter(itemsOf(schema, "items", at), start, at, ctx, b);
  },
};

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
function itemsAfter(sub: unknown, start: number, at: string, ctx: Ctx, b: Block): void {
  const v = ctx.v;
  if (sub === false) {
    check(b, ctx, code`${v}.length > ${start}`, "items", itemsMessages.noMoreItems(start), at + "/items");
  } else if (sub !== true) {
    const i = ctx.scope.local("i");
    const x = ctx.scope.local("x");
    const inner = ctx.env.gen(sub, at + "/items", child(ctx, x, code`${ctx.path} + "/" + ${i}`));
    b.wrap(code`for (let ${i} = ${start}; ${i} < ${v}.length; ${i}++) {`, bind(x, code`${v}[${i}]`, inner));
  }
}
