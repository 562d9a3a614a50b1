/**
 * The documents people write: OpenAPI 3.0 (upgraded to 3.1 after bundling, messages still pointing
 * into what was written) and 3.1 with leftovers Redocly's struct rule flags (warnings, not errors).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { load as parseYaml } from "js-yaml";
import { describe, expect, it } from "vitest";
import { ContractError } from "../../generator/common/errors.ts";
import { generateFiles } from "../../generator/generate.ts";
import { loadContract } from "../../generator/load/contract.ts";
import { pointerInWritten } from "../../generator/load/upgrade.ts";
import { Warnings } from "../../generator/common/warnings.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/load/${name}`, import.meta.url));

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

describe("OpenAPI 3.0 in", () => {
  it("upgrades a 3.0 document to 3.1: nullable, boolean exclusive bounds and example read as 3.1 says", async () => {
    const contract = await loadContract(fixture("openapi-3.0-nullable.yaml"));
    expect(contract.writtenVersion).toBe("3.0.3");
    expect(contract.document.openapi).toMatch(/^3\.1\./);
    const thing = contract.resolve<any>("#/components/schemas/Thing");
    expect(thing.properties.count).toEqual({ type: "integer", exclusiveMinimum: 0, examples: [3] });
    expect(thing.properties.label).toEqual({ type: ["string", "null"] });
    expect(thing.properties.owner).toEqual({ anyOf: [{ $ref: "#/components/schemas/Owner" }, { type: "null" }] });
    expect(Object.isFrozen(thing.properties.count)).toBe(true);
  });

  it("hashes the document as written, not its upgrade", async () => {
    const contract = await loadContract(fixture("openapi-3.0-nullable.yaml"));
    const written = parseYaml(fs.readFileSync(fixture("openapi-3.0-nullable.yaml"), "utf8"));
    expect(contract.hash).toBe(createHash("sha256").update(sortedJson(written)).digest("hex"));
    expect(contract.hash).not.toBe(createHash("sha256").update(sortedJson(contract.document)).digest("hex"));
  });

  it("upgrades a split 3.0 document after bundling, so its parts are upgraded too", async () => {
    const contract = await loadContract(fixture("split-3.0/openapi.yaml"));
    expect(contract.split).toBe(true);
    const schemaRef = contract.at<{ $ref: string }>("/paths/~1things/get/responses/200/content/application~1json/schema")!;
    expect(contract.resolve<any>(schemaRef.$ref).properties.size).toEqual({ type: ["number", "null"], exclusiveMaximum: 10 });
    const { files } = await generateFiles({ spec: fixture("split-3.0/openapi.yaml") });
    expect(files.find((f) => f.path === "src/schema.ts")?.contents).toMatch(/size\?: number \| null/);
  });

  it("locates a later error inside a node the upgrade moved at the place the user wrote it", async () => {
    const error = await generateFiles({ spec: fixture("openapi-3.0-nullable.yaml") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    // The upgrade turned `{nullable, allOf: [X]}` into `{anyOf: [X, {type: null}]}`: the file has allOf/0.
    expect((error as ContractError).pointer).toBe("/components/schemas/Thing/properties/kind/allOf/0/pattern");
    expect((error as ContractError).file).toBe(fixture("openapi-3.0-nullable.yaml"));
  });

  it.each([
    { upgraded: "/components/schemas/A/examples/0", want: "/components/schemas/A/example" },
    { upgraded: "/paths/~1a/get/parameters/0/examples/default/value", want: "/paths/~1a/get/parameters/0/example" },
    { upgraded: "/components/schemas/B/anyOf/0/$ref", want: "/components/schemas/B/$ref" },
    { upgraded: "/components/schemas/B/anyOf/1/type", want: "/components/schemas/B" },
    { upgraded: "/components/schemas/C/anyOf/0/type", want: "/components/schemas/C/allOf/0/type" },
    { upgraded: "/components/schemas/D/type/1", want: "/components/schemas/D/type" },
    { upgraded: "/webhooks/w", want: "/x-webhooks/w" },
  ])("maps $upgraded back to $want", ({ upgraded, want }) => {
    const written = {
      "x-webhooks": { w: {} },
      paths: { "/a": { get: { parameters: [{ name: "q", in: "query", example: 1 }] } } },
      components: {
        schemas: {
          A: { type: "string", example: "x" },
          B: { $ref: "#/components/schemas/A", nullable: true },
          C: { nullable: true, allOf: [{ type: "string" }] },
          D: { type: "string", nullable: true },
        },
      },
    };
    expect(pointerInWritten(written, upgraded)).toBe(want);
  });
});

describe("struct findings", () => {
  it("are warnings, grouped by kind with a count and the first pointer, when code can still be right", async () => {
    const warnings = new Warnings();
    const contract = await loadContract(fixture("struct-leftovers.yaml"), warnings);
    expect(contract.document.paths?.["/things"]?.get?.operationId).toBe("listThings");
    const file = fixture("struct-leftovers.yaml");
    const schema = "/paths/~1things/get/responses/200/content/application~1json/schema/properties";
    expect(warnings.lines(file)).toEqual([
      `${file}#/paths/~1things/get/colour: the document's shape (Redocly's struct rule): Property \`colour\` is not expected here`,
      `${file}#${schema}/a/nullable: the document's shape (Redocly's struct rule): Property \`nullable\` is not expected here (2 places; the first is shown)`,
      `${file}#${schema}/n/exclusiveMinimum: the document's shape (Redocly's struct rule): Expected type \`number\` but got \`boolean\``,
    ]);
  });

  it("locate a finding in another file of a split document in that file", async () => {
    const warnings = new Warnings();
    await loadContract(fixture("split-3.0/openapi.yaml"), warnings);
    // 3.0 is checked as 3.0: its nullable and boolean bounds are no findings.
    expect(warnings.size).toBe(0);
  });
});

describe("a 3.0 document no one here wrote", () => {
  // Rebilly's API (1 MB, OpenAPI 3.0.3), shipped with @redocly/openapi-core's benchmarks.
  const rebilly = fileURLToPath(new URL("../../node_modules/openapi-typescript/node_modules/@redocly/openapi-core/src/benchmark/benches/rebilly.yaml", import.meta.url));

  it.skipIf(!fs.existsSync(rebilly))("loads and models (the installed @redocly/openapi-core has no benchmark file otherwise)", { timeout: 120_000 }, async () => {
    const warnings = new Warnings();
    const contract = await loadContract(rebilly, warnings);
    expect(contract.writtenVersion).toBe("3.0.3");
    const { buildModel } = await import("../../generator/model/index.ts");
    const api = buildModel(contract, { warnings });
    expect(api.operations.length).toBeGreaterThan(100);
    expect(api.servers[0]?.relative).toBe(false);
  });
});
