/**
 * OpenAPI 3.0 keywords left in a 3.1 document: read as 3.0 meant them, once, before the schema
 * emitters (types and validators agree), each kind told as a warning; unknown formats and
 * keywords are annotations told as warnings, and `unknownFormats: "error"` stops on a format.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { emitSchemaTypes } from "../../generator/emit/schema-types.ts";
import { emitValidators } from "../../generator/emit/validators.ts";
import { ContractError } from "../../generator/errors.ts";
import type { LoadedContract } from "../../generator/load.ts";
import { readOpenApi30Leftovers } from "../../generator/openapi30-leftovers.ts";
import { Warnings } from "../../generator/warnings.ts";
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
  const contract = readOpenApi30Leftovers({ document } as LoadedContract, warnings);
  const names = Object.keys(contract.document.components?.schemas ?? {});
  const validators = emitValidators({
    document: contract.document,
    entries: names.map((name) => ({ name, pointer: `/components/schemas/${name}` })),
    warnings,
    ...options,
  });
  const files = [
    { path: "src/schema.ts", contents: await emitSchemaTypes(contract) },
    { path: "src/validators.ts", contents: validators },
  ];
  return { files, warnings: warnings.lines("tiny.yaml"), untouched: document };
}

describe("a 3.1 document with 3.0 leftovers and annotations", { timeout: 120_000 }, () => {
  it("leaves a document without leftovers as it is", () => {
    const contract = { document: { openapi: "3.1.0", components: { schemas: { A: { type: "string", examples: ["a"] } } } } } as unknown as LoadedContract;
    expect(readOpenApi30Leftovers(contract, new Warnings())).toBe(contract);
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
    const module = loadValidators(text("src/validators.ts"));
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
