/**
 * Older dialects' keywords, read as their dialect meant them, once, before the schema emitters
 * (types and validators agree), each kind told as a warning: OpenAPI 3.0 keywords left in a 3.1
 * document, draft-07's `definitions`, and schemas declaring an older JSON Schema draft with
 * `$schema` (judged beside ajv's own implementation of that draft). Unknown formats and keywords
 * are annotations told as warnings, and `unknownFormats: "error"` stops on a format.
 */
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { emitSchemaTypes } from "../../generator/emit/schema-types/index.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { ContractError } from "../../generator/common/errors.ts";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import type { LoadedContract } from "../../generator/load/contract.ts";
import { readOlderDialects } from "../../generator/load/older-dialects/index.ts";
import { Warnings } from "../../generator/common/warnings.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { typeCheckPackages } from "../corpus/typecheck.ts";
import { repoRoot } from "../support/prism.ts";
import { loadValidators } from "../validators/support.ts";


const CONTRACT = `openapi: 3.1.0
info: { title: Tiny, version: 1.0.0 }
servers: [{ url: 'https://tiny.example.test' }]
paths:
  /things:
    get:
      operationId: getThing
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
components:
  schemas:
    Thing:
      type: object
      properties:
        name: { type: string, nullable: true, example: fox }
        size: { type: integer, minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false }
        kind: { type: string, enum: [a, b], nullable: true }
        phone: { type: string, format: phone }
        tag: { type: string, pattern: '^[\\-\\:]+$', x-ok: 1, widgetHint: wide }
`;

/**
 * Redocly's struct rule (at load) still refuses `nullable` in a 3.1 document until its findings
 * become warnings there: the document is parsed here and handed to the stages after load.
 */
async function generated(options: { unknownFormats?: "warn" | "error" } = {}) {
  const document = parse(CONTRACT) as LoadedContract["document"];
  const warnings = new Warnings();
  const contract = readOlderDialects({ document } as LoadedContract, warnings);
  const names = Object.keys(contract.document.components?.schemas ?? {});
  const validators = emitValidators({
    document: contract.document,
    entries: names.map((name) => ({ name, pointer: `/components/schemas/${name}` })),
    warnings,
    ...options,
  });
  const files = [
    { path: "src/schema.ts", contents: await emitSchemaTypes(contract) },
    { path: "src/validators.js", contents: validators.js },
  ];
  return { files, warnings: warnings.lines("tiny.yaml"), untouched: document };
}

describe("a 3.1 document with 3.0 leftovers and annotations", { timeout: 120_000 }, () => {
  it("leaves a document without leftovers as it is", () => {
    const contract = { document: { openapi: "3.1.0", components: { schemas: { A: { type: "string", examples: ["a"] } } } } } as unknown as LoadedContract;
    expect(readOlderDialects(contract, new Warnings())).toBe(contract);
  });

  it("generates, with one warning per kind", async () => {
    const { warnings } = await generated();
    const at = (p: string) => expect.stringContaining(`tiny.yaml#/components/schemas/Thing/properties/${p}:`);
    expect(warnings).toEqual([
      at("name/nullable"),
      at("name/example"),
      at("size/exclusiveMinimum"),
      at("size/exclusiveMaximum"),
      at("phone/format"),
      at("tag/widgetHint"),
      at("tag/pattern"),
    ]);
    expect(warnings[0]).toMatch(/nullable is OpenAPI 3\.0.*\(2 places/);
    expect(warnings[4]).toMatch(/format "phone" is not checked/);
  });

  it("types and validators read nullable and boolean bounds as 3.0 did", async () => {
    const { files } = await generated();
    const text = (file: string) => files.find((f) => f.path === file)!.contents;
    expect(text("src/schema.ts")).toMatch(/name\?: string \| null;/);
    expect(text("src/schema.ts")).toMatch(/kind\?: "a" \| "b" \| null;/);
    const module = loadValidators(text("src/validators.js"));
    const isThing = module["isThing"]!;
    expect([{ name: null }, { kind: null }, { kind: "a" }, { size: 10 }, { size: 1 }, { phone: "not a phone" }, { tag: "-:" }].map(isThing)).toEqual([
      true, true, true, true, true, true, true,
    ]);
    expect([{ name: 1 }, { kind: "c" }, { size: 0 }, { size: 11 }, { tag: "x" }].map(isThing)).toEqual([false, false, false, false, false]);
  });

  it("stops on an unknown format with unknownFormats: error", async () => {
    await expect(generated({ unknownFormats: "error" })).rejects.toThrow(ContractError);
    await expect(generated({ unknownFormats: "error" })).rejects.toThrow(/format "phone" is not checked/);
  });
});

// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const scratch = path.join(repoRoot, ".tmp/older-dialects");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A 3.1 document with `schemas` as its components and one operation answering `answer`. */
function documentWith(schemas: Record<string, unknown>, answer: string, extra: Record<string, unknown> = {}): string {
  return stringify({
    openapi: "3.1.0",
    info: { title: "Dialects", version: "1.0.0" },
    servers: [{ url: "https://dialects.example.test" }],
    ...extra,
    paths: { "/things": { get: { operationId: "getThing", responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: answer } } } } } } } },
    components: { schemas },
  });
}

/** Generates `text` in-process (load, model, emit), writing the package when asked. */
async function generate(name: string, text: string, write = false): Promise<Generated & { spec: string; outDir: string }> {
  const spec = path.join(scratch, `${name}.yaml`);
  fs.writeFileSync(spec, text);
  const outDir = path.join(scratch, name);
  const generated = await generateFiles({ spec, out: outDir });
  if (write) await writeOutput(outDir, generated.files);
  return { ...generated, spec, outDir };
}

async function refusal(name: string, text: string): Promise<ContractError> {
  const error = await generate(name, text).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ContractError);
  return error as ContractError;
}

function validatorsOf(generated: Generated) {
  return loadValidators(generated.files.find((f) => f.path === "src/validators.js")!.contents);
}

describe("draft-07 definitions inside a schema", { timeout: 120_000 }, () => {
  const LINES = {
    Lines: {
      type: "object",
      properties: { lines: { type: "array", items: { $ref: "#/components/schemas/Lines/definitions/line" } } },
      definitions: {
        line: {
          type: "object",
          required: ["kind"],
          properties: { kind: { $ref: "#/components/schemas/Lines/definitions/kind" }, note: { type: "string", nullable: true } },
        },
        kind: { type: "string", enum: ["credit", "debit"] },
      },
    },
  };

  it("are read as $defs, with a warning: $refs into them resolve for the types and the validators alike", async () => {
    const generated = await generate("definitions", documentWith(LINES, "#/components/schemas/Lines/definitions/line"), true);
    expect(generated.warnings).toContain(`${generated.spec}#/components/schemas/Lines/definitions: definitions is draft-07: read as $defs (a container of schemas $refs point into); in 2020-12 write $defs`);
    const { isLines, isGetThingResponse } = validatorsOf(generated);
    expect([{ lines: [{ kind: "credit", note: null }] }, { lines: [] }].map(isLines!)).toEqual([true, true]);
    expect([{ lines: [{ kind: "other" }] }, { lines: [{ note: "no kind" }] }].map(isLines!)).toEqual([false, false]);
    expect([{ kind: "debit" }, { kind: 1 }].map(isGetThingResponse!)).toEqual([true, false]);
    expect(generated.files.find((f) => f.path === "src/schema.ts")!.contents).toContain('lines?: components["schemas"]["Lines/$defs/line"][];');
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
  });

  it("name the place as written in messages, and refuse a name also under $defs", async () => {
    const broken = structuredClone(LINES);
    (broken.Lines.definitions.kind as Record<string, unknown>)["pattern"] = "(";
    const error = await refusal("definitions-pattern", documentWith(broken, "#/components/schemas/Lines"));
    expect(error.message).toContain("#/components/schemas/Lines/definitions/kind/pattern: ");
    const twice = structuredClone(LINES) as { Lines: Record<string, unknown> };
    twice.Lines["$defs"] = { kind: { type: "string" } };
    expect((await refusal("definitions-twice", documentWith(twice, "#/components/schemas/Lines"))).message).toContain('#/components/schemas/Lines/definitions/kind: "kind" is also an entry of $defs beside it; name it once');
  });

  it("beside $defs, move only their own entries: refs and messages into either keep their place", async () => {
    const both = {
      X: {
        $schema: "http://json-schema.org/draft-07/schema#",
        properties: { a: { $ref: "#/components/schemas/X/$defs/pair/items/1" }, b: { $ref: "#/components/schemas/X/definitions/word" } },
        $defs: { pair: { items: [{ type: "string" }, { type: "integer" }] } },
        definitions: { word: { type: "string", minLength: 2 } },
      },
    };
    const generated = await generate("defs-and-definitions", documentWith(both, "#/components/schemas/X"));
    expect([{ a: 1, b: "ab" }, { a: "1" }, { b: "a" }].map(validatorsOf(generated)["isX"]!)).toEqual([true, false, false]);
    const broken = structuredClone(both);
    (broken.X.$defs.pair.items[1] as Record<string, unknown>)["pattern"] = "(";
    expect((await refusal("defs-and-definitions-pattern", documentWith(broken, "#/components/schemas/X"))).message).toContain("#/components/schemas/X/$defs/pair/items/1/pattern: ");
  });
});

/**
 * Schemas declaring an older draft, each judged by our validators (after the rewrite) and by ajv
 * implementing that draft on the schema as written: they must agree on every value.
 */
const DRAFT_CASES: Array<{ name: string; draft: "draft-07" | "2019-09"; schema: Record<string, unknown>; values: unknown[] }> = [
  {
    name: "a closed tuple",
    draft: "draft-07",
    schema: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
    values: [[], ["a"], ["a", 1], ["a", 1, 2], [1], ["a", "b"]],
  },
  {
    name: "a tuple with a schema for the rest",
    draft: "2019-09",
    schema: { type: "array", items: [{ type: "string" }], additionalItems: { type: "integer" } },
    values: [["a"], ["a", 1, 2], ["a", 1, "b"], [1], []],
  },
  {
    name: "additionalItems beside a single items schema (it does nothing)",
    draft: "draft-07",
    schema: { items: { type: "string" }, additionalItems: false },
    values: [["a", "b"], ["a", 1], "not an array"],
  },
  {
    name: "a tuple whose rest unevaluatedItems closes",
    draft: "2019-09",
    schema: { items: [{ const: 1 }], unevaluatedItems: false },
    values: [[1], [1, 2], [2], []],
  },
  {
    name: "dependencies, of names and of a schema",
    draft: "draft-07",
    schema: { type: "object", dependencies: { card: ["billing"], vip: { required: ["level"], properties: { level: { minimum: 1 } } } } },
    values: [{}, { card: 1 }, { card: 1, billing: 2 }, { vip: true }, { vip: true, level: 0 }, { vip: true, level: 2 }],
  },
  {
    name: "a $ref into a tuple's item",
    draft: "draft-07",
    schema: { properties: { pair: { items: [{ type: "string" }, { type: "boolean" }] }, second: { $ref: "#/components/schemas/X/properties/pair/items/1" } } },
    values: [{ second: true }, { second: "yes" }, { pair: ["a", false] }, { pair: [1] }],
  },
];

function ajvVerdicts(draft: "draft-07" | "2019-09", schema: object, values: unknown[]): boolean[] {
  const ajv = draft === "draft-07" ? new Ajv({ strict: false, logger: false, validateSchema: false }) : new Ajv2019({ strict: false, logger: false, validateSchema: false });
  ajv.addSchema({ $id: "urn:test:document", components: { schemas: { X: schema } } });
  const validate = ajv.getSchema("urn:test:document#/components/schemas/X")!;
  return values.map((value) => validate(value) as boolean);
}

const META = { "draft-07": "http://json-schema.org/draft-07/schema#", "2019-09": "https://json-schema.org/draft/2019-09/schema" };

describe("a schema declaring an older draft with $schema", { timeout: 120_000 }, () => {
  it.each(DRAFT_CASES)("$draft: $name agrees with ajv's $draft", async ({ name, draft, schema, values }) => {
    const written = { $schema: META[draft], ...schema };
    const generated = await generate(`draft-${name.replace(/\W+/g, "-")}`, documentWith({ X: written }, "#/components/schemas/X"));
    const isX = validatorsOf(generated)["isX"]!;
    expect(values.map(isX)).toEqual(ajvVerdicts(draft, written, values));
    expect(generated.warnings.filter((w) => w.includes("/components/schemas/X/$schema: "))).toEqual([
      expect.stringContaining(`$schema "${META[draft]}" is ${draft === "draft-07" ? "draft-07" : "draft 2019-09"}: a schema declaring an older draft is read as its draft meant the keywords that changed`),
    ]);
  });

  it("draft-07: beside $ref the other keywords are ignored (ajv 8 applies them, against draft-07 §8.3)", async () => {
    const schemas = { S: { type: "string" }, X: { $schema: META["draft-07"], $ref: "#/components/schemas/S", maxLength: 2, description: "kept" } };
    const generated = await generate("ref-siblings", documentWith(schemas, "#/components/schemas/X"));
    expect(["abcdef", 1].map(validatorsOf(generated)["isX"]!)).toEqual([true, false]);
    expect(generated.warnings).toContain(`${generated.spec}#/components/schemas/X/maxLength: beside $ref, draft-07 ignores the other keywords: maxLength is left out`);
    // 2019-09 applies them.
    const later = await generate("ref-siblings-2019", documentWith({ ...schemas, X: { ...schemas.X, $schema: META["2019-09"] } }, "#/components/schemas/X"));
    expect(["abcdef", "ab"].map(validatorsOf(later)["isX"]!)).toEqual([false, true]);
  });

  it("types and validators read the same tuple; a document's jsonSchemaDialect declares the draft for every schema", async () => {
    const schemas = { Pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false } };
    const generated = await generate("dialect", documentWith(schemas, "#/components/schemas/Pair", { jsonSchemaDialect: META["draft-07"] }), true);
    expect(generated.warnings).toContain(`${generated.spec}#/jsonSchemaDialect: "${META["draft-07"]}" is draft-07: every schema is read as that draft meant the keywords that changed (array items as prefixItems, additionalItems as items, dependencies split…), the rest as 2020-12`);
    expect(generated.files.find((f) => f.path === "src/schema.ts")!.contents).toMatch(/Pair: \[\s*string,\s*number\s*\];/);
    expect([["a", 1], ["a", 1, 2]].map(validatorsOf(generated)["isPair"]!)).toEqual([true, false]);
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
  });

  it("names the place as written in messages, and refuses what 2020-12 cannot say, located", async () => {
    const tuple = { X: { $schema: META["draft-07"], items: [{ type: "string" }, { type: "string", pattern: "(" }] } };
    expect((await refusal("tuple-pattern", documentWith(tuple, "#/components/schemas/X"))).message).toContain("#/components/schemas/X/items/1/pattern: ");
    const recursive = { X: { $schema: META["2019-09"], properties: { child: { $recursiveRef: "#/properties" } } } };
    expect((await refusal("recursive-ref", documentWith(recursive, "#/components/schemas/X"))).message).toContain('#/components/schemas/X/properties/child/$recursiveRef: $recursiveRef must be "#"');
    const id = { X: { $schema: "http://json-schema.org/draft-04/schema#", id: "http://example.test/x", type: "string" } };
    expect((await refusal("draft-04-id", documentWith(id, "#/components/schemas/X"))).message).toContain("#/components/schemas/X/id: id is draft-04's $id: a change of base URI, which is not supported");
    const unknown = { X: { $schema: "https://example.test/my-dialect", type: "string" } };
    expect((await refusal("unknown-dialect", documentWith(unknown, "#/components/schemas/X"))).message).toContain('#/components/schemas/X/$schema: $schema "https://example.test/my-dialect" is not JSON Schema 2020-12');
  });
});
