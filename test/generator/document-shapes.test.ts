/**
 * Valid shapes of a document that give the client less to work with: an operation that documents
 * no response, and a 3.1 document without paths (webhooks or components only). Each generates,
 * with a warning naming where, and the package type-checks under strict and constructs its client.
 * Also a schema that reuses a parameter's schema by `$ref`, which openapi-typescript mistypes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { typeCheckPackages } from "../corpus/typecheck.ts";
import { repoRoot } from "../support/prism.ts";

// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const scratch = path.join(repoRoot, ".tmp/document-shapes");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Generates `text` into a package folder of its own, written. */
async function generate(name: string, text: string, strict = false): Promise<Generated & { outDir: string; spec: string }> {
  const spec = path.join(scratch, `${name}.yaml`);
  fs.writeFileSync(spec, text);
  const outDir = path.join(scratch, name);
  const generated = await generateFiles({ spec, out: outDir, strict });
  await writeOutput(outDir, generated.files);
  return { ...generated, outDir, spec };
}

function file(generated: Generated, name: string): string {
  return generated.files.find((f) => f.path === name)?.contents ?? "";
}

async function construct(outDir: string): Promise<Record<string, unknown>> {
  const module = await import(path.join(outDir, "src/index.ts"));
  const ClientClass = Object.values<any>(module).find((v) => typeof v === "function" && /Client$/.test(v.name));
  return new ClientClass({ baseUrl: "https://x.example.test" });
}

const NO_RESPONSES = `openapi: 3.1.0
info: { title: Silent, version: 1.0.0 }
servers: [{ url: 'https://silent.example.test' }]
paths:
  /things:
    put:
      operationId: putThing
      requestBody:
        content: { application/json: { schema: { type: object } } }
      responses: {}
    post:
      operationId: postThing
`;

const NO_PATHS = `openapi: 3.1.0
info: { title: Hooks Only, version: 1.0.0 }
webhooks:
  newThing:
    post:
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
      responses: { '200': { description: ok } }
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties: { id: { type: string }, size: { type: integer, default: 1 } }
`;

describe("document shapes the client has little to say about", { timeout: 120_000 }, () => {
  it("an operation that documents no response answers unknown, read by its Content-Type, with a warning naming it", async () => {
    const generated = await generate("no-responses", NO_RESPONSES);
    expect(generated.warnings).toEqual([
      `${generated.spec}#/paths/~1things/put/responses: the operation documents no response: its answer is untyped (unknown), read as JSON when its Content-Type says JSON, else as text (2 places; the first is shown)`,
    ]);
    const client = file(generated, "src/client.ts");
    expect(client).toContain("export type PutThingResponse = unknown;");
    expect(client).toContain("export type PostThingResponse = unknown;");
    expect(file(generated, "src/operation-specs.ts")).toMatch(/export const putThing = \{ operationId: "putThing", method: "PUT", path: "\/things", server: "baseUrl", requestMediaType: "application\/json", responseKind: "auto"/);
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
    const instance = await construct(generated.outDir);
    expect([typeof instance["putThing"], typeof instance["postThing"]]).toEqual(["function", "function"]);
  });

  it("a 3.1 document without paths gives a client without operations, with a warning; every emitter copes", async () => {
    const generated = await generate("no-paths", NO_PATHS);
    expect(generated.warnings).toEqual([`${generated.spec}#: the document has no paths, so the client has no operations`]);
    expect(generated.api.operations).toEqual([]);
    expect(generated.files.map((f) => f.path).filter((p) => !p.startsWith("src/runtime/"))).toEqual([
      "LICENSE", "README.md", "package.json", "scripts/build-javascript.mjs", "src/client.ts", "src/index.ts", "src/operation-specs.ts", "src/operations.ts", "src/schema.ts", "src/testing.ts", "src/types.ts", "src/validators.d.ts", "src/validators.js", "src/webhooks.ts", "tsconfig.cjs.json", "tsconfig.json",
    ]);
    expect(file(generated, "src/types.ts")).toContain('export type Thing = components["schemas"]["Thing"];');
    expect(file(generated, "src/validators.js")).toContain("export function withDefaultsThing(");
    expect(file(generated, "README.md")).toContain("The contract documents no operations, so the client has no methods");
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
    const instance = await construct(generated.outDir);
    expect(instance.constructor.name).toBe("HooksOnlyClient");
    const validators = await import(path.join(generated.outDir, "src/validators.js"));
    expect([validators.isThing({ id: "a" }), validators.isThing({})]).toEqual([true, false]);
    // The models, jobs and terminal command need the operations they call: without any, a located refusal.
    const models = NO_PATHS.replace("webhooks:", "x-model-endpoints:\n  echo-1: { kind: text, input: { $ref: '#/components/schemas/Thing' }, output: { $ref: '#/components/schemas/Thing' } }\nwebhooks:");
    await expect(generate("no-paths-models", models)).rejects.toThrow(/#\/x-model-endpoints: x-model-endpoints needs an operation with x-model-endpoint-role "status"/);
  });

  it("an empty paths object is told too, and --strict stops on it", async () => {
    const generated = await generate("empty-paths", NO_PATHS.replace("webhooks:", "paths: {}\nwebhooks:"));
    expect(generated.warnings).toEqual([`${generated.spec}#/paths: paths holds no operation, so the client has no operations`]);
    await expect(generate("strict-no-paths", NO_PATHS, true)).rejects.toThrow(/#: the document has no paths, so the client has no operations; --strict makes warnings errors$/);
  });

  it("a schema $ref to a parameter's schema is typed as that schema", async () => {
    const text = `openapi: 3.1.0
info: { title: Reuse, version: 1.0.0 }
servers: [{ url: 'https://reuse.example.test' }]
paths:
  /things/{thingId}:
    get:
      operationId: getThing
      parameters: [{ $ref: '#/components/parameters/thingId' }]
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
components:
  parameters:
    thingId: { name: thingId, in: path, required: true, schema: { type: string, format: uuid } }
  schemas:
    Thing:
      type: object
      required: [id]
      properties: { id: { $ref: '#/components/parameters/thingId/schema' } }
`;
    const generated = await generate("parameter-schema-ref", text);
    expect(file(generated, "src/schema.ts")).toContain('id: components["parameters"]["thingId"];');
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
    const validators = await import(path.join(generated.outDir, "src/validators.js"));
    expect([validators.isThing({ id: "0b5c1c6e-5f0a-4c8e-9d5e-2f1d3c4b5a69" }), validators.isThing({ id: "not a uuid" })]).toEqual([true, false]);
  });
});
