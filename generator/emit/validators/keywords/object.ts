/**
 * `properties` with `required` and the keywords of the loop over the object's keys
 * (`patternProperties`, `additionalProperties`, `propertyNames`: property-loop.ts), which must
 * know the declared names; `minProperties`, `maxProperties`, `dependentRequired`. On objects only.
 * A required property with a schema is checked together with it: one read of the property.
 */
import { escapeSegment, pointer } from "../../../common/json-pointer.ts";
import { Block, code, raw } from "../../code.ts";
import { child, type Ctx } from "../context.ts";
import { cheapestFirst, checkCost } from "../cost.ts";
import { check, failStatement, NO_MESSAGE } from "../failures.ts";
import type { KeywordDefinition } from "../keyword-definition.ts";
import { count, dependentRequiredOf, schemaMap, stringArray } from "../keyword-values.ts";
import { plural } from "../messages.ts";
import { readProperty } from "../property-access.ts";
import { runtime } from "../runtime-helpers.ts";
import { isObject, type SchemaObject } from "../schema-object.ts";
import { propertyLoop, propertyLoopMessages } from "./property-loop.ts";

const propertiesMessages = {
  required: (name: string) => `must have required property ${JSON.stringify(name)}`,
  ...propertyLoopMessages,
};

export const properties: KeywordDefinition = {
  keywords: ["properties", "required", "patternProperties", "additionalProperties", "propertyNames"],
  group: "object",
  values: { required: stringArray },
  subschemas: { properties: "map", patternProperties: "patternMap", additionalProperties: "single", propertyNames: "single" },
  messages: propertiesMessages,
  emit(schema, at, ctx, b) {
    propertyLoop(schema, at, ctx, b, propertiesAndRequired(schema, at, ctx, b));
  },
};

const countMessages = {
  /** `relation` is "at least" or "at most". */
  propertyCount: (relation: string, n: number) => `must have ${relation} ${plural(n, "property", "properties")}`,
};

export const propertyCounts: KeywordDefinition = {
  keywords: ["minProperties", "maxProperties"],
  group: "object",
  values: { minProperties: count, maxProperties: count },
  messages: countMessages,
  emit: propertyCountsCode,
};

const dependentRequiredMessages = {
  dependentRequired: (other: string, name: string) => `must have property ${JSON.stringify(other)} when property ${JSON.stringify(name)} is present`,
};

export const dependentRequired: KeywordDefinition = {
  keywords: ["dependentRequired"],
  group: "object",
  values: { dependentRequired: dependentRequiredOf },
  messages: dependentRequiredMessages,
  emit: dependentRequiredCode,
};

/** `required` and `properties`; returns the names `properties` declares. */
function propertiesAndRequired(schema: SchemaObject, at: string, ctx: Ctx, b: Block): string[] {
  const properties = schemaMap(schema, "properties", at);
  const required = new Set(stringArray(schema, "required", at));
  // In a request, a read-only property is never required; in a response, a write-only one.
  for (const hidden of ctx.env.hiddenRequired(schema, ctx.unit.view)) required.delete(hidden);
  for (const name of required) {
    const sub = Object.hasOwn(properties, name) ? properties[name] : true;
    if (sub !== true) continue; // checked together with the property's schema below
    check(b, ctx, code`${readProperty(ctx.v, name)} === undefined`, "required", propertiesMessages.required(name), at + "/required");
  }
  // A boolean check stops at the first failure: the cheap properties first (a format after an enum).
  const entries = Object.entries(properties);
  const ordered = ctx.mode === "bool" ? cheapestFirst(entries, ([, sub]) => checkCost(sub, 2, ctx.env.assertionKeywords)) : entries;
  for (const [name, sub] of ordered) {
    if (sub !== true) property(name, sub, required.has(name), at, ctx, b);
  }
  return Object.keys(properties);
}

function propertyCountsCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  for (const [keyword, relation] of [["minProperties", "at least"], ["maxProperties", "at most"]] as const) {
    if (!(keyword in schema)) continue;
    const n = count(schema, keyword, at);
    if (keyword === "minProperties" && n === 0) continue;
    const operator = raw(keyword === "minProperties" ? "<" : ">");
    check(b, ctx, code`${runtime("countProperties")}(${ctx.v}) ${operator} ${n}`, keyword, countMessages.propertyCount(relation, n), at + pointer(keyword));
  }
}

function dependentRequiredCode(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
  if (!("dependentRequired" in schema)) return;
  const v = ctx.v;
  for (const [name, needed] of dependentRequiredOf(schema, "dependentRequired", at)) {
    if (needed.length === 0) continue;
    const inner = new Block();
    for (const other of needed) {
      check(inner, ctx, code`${readProperty(v, other)} === undefined`, "dependentRequired", dependentRequiredMessages.dependentRequired(other, name), at + pointer("dependentRequired", name));
    }
    b.wrap(code`if (${readProperty(v, name)} !== undefined) {`, inner);
  }
}

/** One declared property: read once into a local when its schema's code uses it. */
function property(name: string, sub: unknown, required: boolean, at: string, ctx: Ctx, b: Block): void {
  const x = ctx.scope.local("x");
  const inner = ctx.env.gen(sub, at + pointer("properties", name), child(ctx, x, code`${ctx.path} + ${`/${escapeSegment(name)}`}`));
  const read = readProperty(ctx.v, name);
  const value = inner.uses(x) ? x : read;
  if (value === x) b.add(code`const ${x} = ${read};`);
  if (!required) {
    b.wrap(code`if (${value} !== undefined) {`, inner);
  } else if (ctx.mode === "bool") {
    // A type check rejects undefined too (it is no JSON type): no separate presence check.
    if (!(isObject(sub) && "type" in sub)) check(b, ctx, code`${value} === undefined`, "required", NO_MESSAGE, at + "/required");
    b.append(inner);
  } else {
    b.ifElse(code`if (${value} === undefined) {`, failStatement(ctx, "required", propertiesMessages.required(name), at + "/required"), inner);
  }
}
