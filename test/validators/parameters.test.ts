/**
 * An operation's parameters are checked through a table the runtime walks. The same parameters
 * written as one schema (`{ path: {...}, query: {...}, body }`) and compiled like any other must
 * give the same answers and the same issues, in the same order, on every value fast-check draws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import type { ParameterTableSpec } from "../../generator/emit/validators/parameters.ts";
import { loadValidators } from "./support.ts";

const document = {
  components: {
    schemas: {
      Id: { type: "string", pattern: "^[a-z]+$" },
      Body: { type: "object", required: ["size"], properties: { size: { type: "integer", minimum: 1 }, tag: { type: "string", default: "none" } } },
    },
    parameters: { Limit: { schema: { type: "integer", maximum: 100 } } },
  },
  paths: { "/things/{thing-id}": { parameters: [{ schema: { type: "string", minLength: 2 } }] } },
};

const spec: ParameterTableSpec = {
  groups: [
    {
      location: "path",
      required: true,
      parameters: [
        { name: "thing-id", required: true, value: { pointer: "/paths/~1things~1{thing-id}/parameters/0/schema" } },
        { name: "owner", required: true, value: { pointer: "/components/schemas/Id" } },
      ],
    },
    {
      location: "query",
      required: false,
      parameters: [
        { name: "limit", required: false, value: { pointer: "/components/parameters/Limit/schema" } },
        { name: "constructor", required: false, value: "any" },
        { name: "a/b~c", required: false, value: { pointer: "/components/schemas/Id" } },
      ],
    },
    { location: "header", required: false, parameters: [{ name: "X-Note", required: true, value: "string" }] },
  ],
  body: { required: true, value: { pointer: "/components/schemas/Body" } },
};

/** The table as one schema, as the generator writes it for `withDefaults…`. */
function asSchema(table: ParameterTableSpec): object {
  const value = (v: ParameterTableSpec["groups"][number]["parameters"][number]["value"]) => (v === "any" ? {} : v === "string" ? { type: "string" } : { $ref: `#${v.pointer}` });
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const group of table.groups) {
    properties[group.location] = {
      type: "object",
      properties: Object.fromEntries(group.parameters.map((p) => [p.name, value(p.value)])),
      required: group.parameters.filter((p) => p.required).map((p) => p.name),
    };
    if (group.required) required.push(group.location);
  }
  if (table.body) {
    properties["body"] = value(table.body.value);
    if (table.body.required) required.push("body");
  }
  return { type: "object", properties, required };
}

const withParams = { ...document, x: { P: asSchema(spec) } };
const validators = loadValidators(
  emitValidators({
    document: withParams,
    entries: [
      { name: "Table", pointer: "/x/P", parameters: spec },
      { name: "Schema", pointer: "/x/P" },
    ],
  }),
);

const scalar = fc.oneof(fc.constantFrom("ab", "a", "AB", "", "x/y"), fc.integer({ min: -5, max: 200 }), fc.constant(null), fc.boolean());
const member = fc.oneof(scalar, fc.dictionary(fc.constantFrom("size", "tag"), scalar, { maxKeys: 2 }), fc.array(scalar, { maxLength: 2 }));
const group = (names: string[]) => fc.oneof(fc.dictionary(fc.constantFrom(...names), member, { maxKeys: names.length }), scalar, fc.constant(undefined));
const call = fc.oneof(
  fc.record(
    {
      path: group(["thing-id", "owner", "other"]),
      query: group(["limit", "constructor", "a/b~c"]),
      header: group(["X-Note", "x-note"]),
      body: member,
    },
    { requiredKeys: [] },
  ),
  scalar,
);

describe("parameter tables", () => {
  it("agree with the same parameters compiled as one schema, issue for issue", () => {
    fc.assert(
      fc.property(call, (value) => {
        const fast = validators.isTable!(value);
        expect(fast).toBe(validators.isSchema!(value));
        const issues = validators.validateTable!(value);
        expect(issues).toEqual(validators.validateSchema!(value));
        expect(issues.length === 0).toBe(fast);
      }),
      { numRuns: 3000, seed: 20261124 },
    );
  });

  it("point each value's issues into its own schema, and the call's shape into the composed one", () => {
    const issues = validators.validateTable!({ path: { "thing-id": "x", owner: "A" }, query: { "a/b~c": 1 }, header: {}, body: { size: 0 } });
    expect(issues).toEqual([
      { path: "/path/thing-id", keyword: "minLength", message: "must be at least 2 characters long", schemaPath: "/paths/~1things~1{thing-id}/parameters/0/schema/minLength" },
      { path: "/path/owner", keyword: "pattern", message: 'must match pattern "^[a-z]+$"', schemaPath: "/components/schemas/Id/pattern" },
      { path: "/query/a~1b~0c", keyword: "type", message: "must be a string", schemaPath: "/components/schemas/Id/type" },
      { path: "/header", keyword: "required", message: 'must have required property "X-Note"', schemaPath: "/x/P/properties/header/required" },
      { path: "/body/size", keyword: "minimum", message: "must be >= 1", schemaPath: "/components/schemas/Body/properties/size/minimum" },
    ]);
  });

  it("read only a group's own members (a parameter named like an Object.prototype member)", () => {
    expect(validators.isTable!({ path: { "thing-id": "ab", owner: "ab" }, header: { "X-Note": "n" }, body: { size: 1 } })).toBe(true);
    expect(validators.validateTable!({ path: { "thing-id": "ab", owner: "ab" }, header: {}, body: { size: 1 } })).toHaveLength(1);
    const inherited = Object.create({ "X-Note": "from the prototype" }) as object;
    expect(validators.isTable!({ path: { "thing-id": "ab", owner: "ab" }, header: inherited, body: { size: 1 } })).toBe(false);
  });
});
