/**
 * Every message a validation issue carries, in one place: plain texts for people (the contract's
 * values quoted as JSON), and the few that depend on the value as code of a string expression.
 */
import { code, type Code } from "../code.ts";
import type { TypeName } from "./keyword-values.ts";

const TYPE_NOUNS: Record<TypeName, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};

export const messages = {
  falseSchema: "no value is allowed here",
  emptyTypeList: "no value is allowed here (empty type list)",
  type: (types: readonly TypeName[]) => `must be ${joinWords(types.map((t) => TYPE_NOUNS[t]))}`,

  enum: (values: readonly unknown[]) =>
    values.length === 0 ? "no value is allowed (empty enum)" : `must be one of ${truncate(values.map((value) => JSON.stringify(value)).join(", "))}`,
  const: (value: unknown) => `must be equal to ${truncate(JSON.stringify(value))}`,

  /** `relation` is ">=", "<=", ">" or "<". */
  bound: (relation: string, limit: number) => `must be ${relation} ${String(limit)}`,
  multipleOf: (divisor: number) => `must be a multiple of ${String(divisor)}`,

  minLength: (n: number) => `must be at least ${plural(n, "character")} long`,
  maxLength: (n: number) => `must be at most ${plural(n, "character")} long`,
  pattern: (source: string) => `must match pattern ${JSON.stringify(source)}`,
  format: (noun: string, format: string) => `must be ${noun} (format ${JSON.stringify(format)})`,

  minItems: (n: number) => `must have at least ${plural(n, "item")}`,
  maxItems: (n: number) => `must have at most ${plural(n, "item")}`,
  /** `items: false` after `start` prefix items. */
  noMoreItems: (start: number) => (start === 0 ? "must be an empty array" : `must have at most ${plural(start, "item")}`),
  /** `d` holds the pair of equal indexes. */
  uniqueItems: (d: Code) => code`"must not have duplicate items (items " + ${d}[0] + " and " + ${d}[1] + " are equal)"`,
  minContains: (min: number) => `must contain at least ${min === 1 ? "one item" : `${min} items`} matching the "contains" schema`,
  maxContains: (max: number) => `must contain at most ${plural(max, "item")} matching the "contains" schema`,

  required: (name: string) => `must have required property ${JSON.stringify(name)}`,
  /** `relation` is "at least" or "at most". */
  propertyCount: (relation: string, n: number) => `must have ${relation} ${plural(n, "property", "properties")}`,
  dependentRequired: (other: string, name: string) => `must have property ${JSON.stringify(other)} when property ${JSON.stringify(name)} is present`,
  /** The issue the property name `k`'s own issues are collapsed into. */
  propertyName: (k: Code) => code`"property name " + JSON.stringify(${k}) + " is invalid"`,
  additionalProperty: (k: Code) => code`"must not have additional property " + JSON.stringify(${k})`,
  unevaluatedProperty: (k: Code) => code`"must not have unevaluated property " + JSON.stringify(${k})`,
  /** `unevaluatedItems: false` where the first `n` items are evaluated. */
  unevaluatedItems: (n: number) => (n === 0 ? "must be an empty array (no item is evaluated)" : `must have at most ${plural(n, "item")} (the evaluated ones)`),
  /** `i` holds the index of an item no keyword evaluated. */
  unevaluatedItem: (i: Code) => code`"must not have unevaluated item " + ${i}`,

  anyOf: "must match at least one schema in anyOf",
  oneOf: "must match exactly one schema in oneOf",
  /** `c` counts the matching branches. */
  oneOfMany: (c: Code) => code`"must match exactly one schema in oneOf, but matches " + ${c}`,
  not: 'must not match the "not" schema',
};

function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function truncate(text: string, max = 200): string {
  // ASCII: one character beyond Latin-1 would make V8 hold the whole module text at two bytes a character.
  return text.length <= max ? text : `${text.slice(0, max)}...`;
}
