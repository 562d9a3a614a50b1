/**
 * The values the test kit answers with where a contract shows no example
 * (`generator/model/response-values.ts`): the schema's own example first, else built from its types
 * and required fields, the same every time, ending where a schema holds itself.
 */
import { describe, expect, it } from "vitest";
import type { LoadedContract } from "../../generator/load/index.ts";
import { valueOfSchema } from "../../generator/model/response-values.ts";

/** Just enough of a loaded contract: `resolve` over these components. */
function contractOf(schemas: Record<string, unknown>): LoadedContract {
  return { resolve: (ref: string) => schemas[ref.replace("#/components/schemas/", "")] } as unknown as LoadedContract;
}

const NONE = contractOf({});

describe("valueOfSchema", () => {
  it.each([
    ["examples first", { type: "string", examples: ["a"], example: "b", default: "c" }, "a"],
    ["then example, default, const, the first enum", { type: "integer", enum: [3, 4] }, 3],
    ["a string's format", { type: "string", format: "date-time" }, "2025-01-01T00:00:00Z"],
    ["a string padded to minLength", { type: "string", minLength: 8 }, "stringxx"],
    ["a number at its minimum", { type: "integer", minimum: 5, maximum: 9 }, 5],
    ["an integer above an exclusive minimum", { type: "integer", exclusiveMinimum: 0 }, 1],
    ["a number at its maximum when 0 is above it", { type: "number", maximum: -2 }, -2],
    ["a boolean", { type: "boolean" }, false],
    ["null of a nullable type", { type: ["null"] }, null],
    ["the first non-null type", { type: ["null", "string"] }, "string"],
    ["an object's required properties only", { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" }, note: { type: "string" } } }, { id: "00000000-0000-4000-8000-000000000000" }],
    ["an array's minItems", { type: "array", minItems: 2, items: { type: "integer" } }, [0, 0]],
    ["an array without minItems, empty", { type: "array", items: { type: "integer" } }, []],
    ["allOf merged", { allOf: [{ type: "object", required: ["a"], properties: { a: { const: 1 } } }, { type: "object", required: ["b"], properties: { b: { const: 2 } } }] }, { a: 1, b: 2 }],
    ["oneOf: its first branch", { oneOf: [{ type: "string" }, { type: "integer" }] }, "string"],
  ])("%s", (_name, schema, expected) => {
    expect(valueOfSchema(NONE, schema)).toEqual(expected);
  });

  it("follows $refs, the target's example winning over none, and ends where a schema holds itself", () => {
    const contract = contractOf({
      Node: { type: "object", required: ["name", "child"], properties: { name: { $ref: "#/components/schemas/Name" }, child: { $ref: "#/components/schemas/Node" } } },
      Name: { type: "string", examples: ["root"] },
    });
    const value = valueOfSchema(contract, { $ref: "#/components/schemas/Node" }) as { name: string; child: unknown };
    expect(value.name).toBe("root");
    let depth = 0;
    for (let node: any = value; node !== null && typeof node === "object" && "child" in node; node = node.child) depth++;
    expect(depth).toBeGreaterThan(1);
    expect(depth).toBeLessThan(10);
    expect(valueOfSchema(contract, { $ref: "#/components/schemas/Missing" })).toEqual({});
  });
});
