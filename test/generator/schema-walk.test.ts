import { describe, expect, it } from "vitest";
import { forEachSchema, holdsData } from "../../generator/common/schema-walk.ts";

describe("the walk over a document's schemas", () => {
  it("enters a member named like a data keyword where it is a name: the default response, a component or a property named default", () => {
    const document = {
      openapi: "3.1.0",
      paths: {
        "/a": {
          get: {
            responses: { default: { description: "error", content: { "application/json": { schema: { type: "object" }, example: { schema: { type: "string" } } } } } },
          },
        },
      },
      components: {
        schemas: {
          default: { type: "object", properties: { default: { type: "integer", default: { type: "boolean" } } } },
        },
      },
    };
    const seen: string[] = [];
    forEachSchema(document, (_node, at) => seen.push(at));
    expect(seen).toEqual(["/paths/~1a/get/responses/default/content/application~1json/schema", "/components/schemas/default", "/components/schemas/default/properties/default"]);
  });

  it("tells data from names by the member an object sits under", () => {
    expect(holdsData("default", "properties")).toBe(false);
    expect(holdsData("default", "responses")).toBe(false);
    expect(holdsData("default", "schema")).toBe(true);
    expect(holdsData("example", undefined)).toBe(true);
    expect(holdsData("items", undefined)).toBe(false);
  });
});
