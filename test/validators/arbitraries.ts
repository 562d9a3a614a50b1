/**
 * fast-check arbitraries for the validator tests: JSON Schemas from the supported subset (nested
 * objects, arrays, combinators, enums, bounds, a few safe patterns, formats, recursive `$defs`,
 * `unevaluated*` beside any of them)
 * and JSON values drawn from the same small vocabulary, so that many values are valid.
 */
import fc from "fast-check";

export const KEYS = ["a", "b", "c", "d"] as const;
export const NUMBERS = [-2, -1, -0.5, 0, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 10, 100];
/**
 * Strings for values and enums: short ones for lengths and patterns, surrogate pairs for
 * code-point lengths, and values of each supported format (valid and invalid) on which ajv-formats
 * and the runtime agree (see FORMAT_DIFFERENCES in format-differences.ts for the ones they do not).
 */
export const STRINGS = [
  "", "a", "b", "ab", "ba", "abc", "abcd", "A1", "a1", "x-y", "😀", "😀😀", "a😀", "1280*720",
  "2024-02-29", "2023-02-29", "2024-13-01", "2026-06-01T12:00:00Z", "2026-06-01T12:00:00.5+02:00", "2026-06-01T25:00:00Z",
  "https://example.org/a?b#c", "mailto:x@example.org", "//example.org", "http://a b",
  "joe@example.com", "joe@", "joe..x@example.com",
  "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
];
export const PATTERNS = ["^a", "b$", "^[a-z]+$", "\\d", "^.{2}$", "😀", "^[^0-9]*$"];
export const FORMATS = ["date", "date-time", "uri", "uuid", "email"];

const primitive = fc.oneof(fc.constant(null), fc.boolean(), fc.constantFrom(...NUMBERS), fc.constantFrom(...STRINGS));

/**
 * JSON values: passed through JSON text, as validated data comes (fast-check's dictionaries have a
 * null prototype, which ajv's deep equality tells apart from `{}`; parsed JSON never has one).
 */
export const value: fc.Arbitrary<unknown> = fc
  .letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { arbitrary: primitive, weight: 4 },
      { arbitrary: fc.array(tie("value"), { maxLength: 4 }), weight: 1 },
      { arbitrary: fc.dictionary(fc.constantFrom(...KEYS), tie("value"), { maxKeys: 4 }), weight: 2 },
    ),
  }))
  .value.map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const typeName = fc.constantFrom("null", "boolean", "object", "array", "number", "integer", "string");
const count = fc.integer({ min: 0, max: 3 });
const keySubset = fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 });

function keywords(sub: fc.Arbitrary<unknown>): fc.Arbitrary<[string, unknown]> {
  const entry = <T,>(name: string, arbitrary: fc.Arbitrary<T>) => arbitrary.map((v): [string, unknown] => [name, v]);
  return fc.oneof(
    entry("type", fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 }))),
    entry("enum", fc.uniqueArray(primitive, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) })),
    entry("const", fc.oneof(primitive, value)),
    entry("minimum", fc.constantFrom(...NUMBERS)),
    entry("maximum", fc.constantFrom(...NUMBERS)),
    entry("exclusiveMinimum", fc.constantFrom(...NUMBERS)),
    entry("exclusiveMaximum", fc.constantFrom(...NUMBERS)),
    entry("multipleOf", fc.constantFrom(1, 2, 3, 0.5, 0.25)),
    entry("minLength", count),
    entry("maxLength", count),
    entry("pattern", fc.constantFrom(...PATTERNS)),
    entry("format", fc.constantFrom(...FORMATS)),
    entry("items", sub),
    entry("prefixItems", fc.array(sub, { minLength: 1, maxLength: 2 })),
    entry("contains", sub),
    entry("minContains", count),
    entry("maxContains", count),
    entry("minItems", count),
    entry("maxItems", count),
    entry("uniqueItems", fc.boolean()),
    entry("properties", fc.dictionary(fc.constantFrom(...KEYS), sub, { maxKeys: 3 })),
    entry("required", keySubset),
    entry("additionalProperties", sub),
    entry("patternProperties", fc.dictionary(fc.constantFrom("^a", "b", "^[cd]$"), sub, { minKeys: 1, maxKeys: 2 })),
    entry("propertyNames", fc.oneof(fc.constant({ maxLength: 0 }), fc.constant({ pattern: "^[ab]$" }), fc.constant({ enum: ["a", "c"] }), sub)),
    entry("minProperties", count),
    entry("maxProperties", count),
    entry("dependentRequired", fc.dictionary(fc.constantFrom(...KEYS), keySubset, { maxKeys: 2 })),
    entry("dependentSchemas", fc.dictionary(fc.constantFrom(...KEYS), sub, { minKeys: 1, maxKeys: 2 })),
    entry("allOf", fc.array(sub, { minLength: 1, maxLength: 3 })),
    entry("anyOf", fc.array(sub, { minLength: 1, maxLength: 3 })),
    entry("oneOf", fc.array(sub, { minLength: 1, maxLength: 3 })),
    entry("not", sub),
    entry("if", sub),
    entry("then", sub),
    entry("else", sub),
    entry("unevaluatedProperties", sub),
    entry("unevaluatedItems", sub),
  );
}

function schemaAt(depth: number): fc.Arbitrary<unknown> {
  const sub = depth === 0 ? fc.oneof(fc.constant({}), fc.constant(true), fc.constant(false), typeName.map((type) => ({ type }))) : schemaAt(depth - 1);
  const object = fc.array(keywords(sub), { minLength: 1, maxLength: 4 }).map((entries): Record<string, unknown> => Object.fromEntries(entries));
  return fc.oneof({ arbitrary: object, weight: 12 }, { arbitrary: fc.boolean(), weight: 1 });
}

/** Sometimes a recursive `$defs` structure (or a tree of `$dynamicRef`s) around the drawn schema. */
export const schema: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: schemaAt(2), weight: 4 },
  {
    arbitrary: schemaAt(1).map((inner) => ({
      $defs: { node: { type: "object", properties: { a: inner, c: { type: "array", items: { $ref: "#/$defs/node" } } } } },
      $ref: "#/$defs/node",
    })),
    weight: 1,
  },
  {
    // The same tree with a dynamic reference: one declaration of its anchor, so the static target.
    arbitrary: schemaAt(1).map((inner) => ({
      $dynamicAnchor: "node",
      type: "object",
      properties: { a: inner, c: { type: "array", items: { $dynamicRef: "#node" } } },
    })),
    weight: 1,
  },
  {
    arbitrary: fc.tuple(schemaAt(1), schemaAt(1)).map(([inner, other]) => ({ $defs: { x: inner }, allOf: [{ $ref: "#/$defs/x" }, other], properties: { b: { $ref: "#/$defs/x" } } })),
    weight: 1,
  },
).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

