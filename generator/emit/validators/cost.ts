/**
 * A rough cost of checking a schema, for the orders boolean code is free to choose (it stops at
 * the first failure, so the cheap checks go first): the branches of an `anyOf`, the properties of
 * an object. Issue-collecting code keeps the contract's order, which is the order of its issues.
 */
import { isObject } from "./schema-object.ts";

/** Keywords and enum values count one each, a `pattern`, `format` or `uniqueItems` four, a `$ref` (or `$dynamicRef`) call eight; `depth` levels down. */
export function checkCost(schema: unknown, depth: number, assertions: ReadonlySet<string>): number {
  if (!isObject(schema)) return 0;
  let total = 0;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "enum" && Array.isArray(value)) total += value.length;
    else if (keyword === "$ref" || keyword === "$dynamicRef") total += 8;
    else if (keyword === "pattern" || keyword === "format" || keyword === "uniqueItems") total += 4;
    else if (assertions.has(keyword)) total += 1;
    if (depth > 0 && (isObject(value) || Array.isArray(value))) {
      for (const member of Object.values(value)) total += checkCost(member, depth - 1, assertions);
    }
  }
  return total;
}

/** `items` by their cost, cheapest first; equal costs keep their order. */
export function cheapestFirst<T>(items: readonly T[], costOf: (item: T) => number): T[] {
  return items
    .map((item, index) => ({ item, index, cost: costOf(item) }))
    .sort((a, b) => a.cost - b.cost || a.index - b.index)
    .map(({ item }) => item);
}
