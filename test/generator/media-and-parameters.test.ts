/**
 * What the model makes of request media types, parameters described by `content` and cookie
 * parameters (generator/model/), and what the emitters give them: the body's type, the
 * validators' schema, the client's operation spec, and the type emitter's parameter types.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { emitSchemaTypes } from "../../generator/emit/schema-types/index.ts";
import { generateFiles } from "../../generator/generate.ts";
import { loadContract } from "../../generator/load/contract.ts";
import { mediaTypeKind } from "../../generator/common/media-types.ts";
import { buildModel } from "../../generator/model/index.ts";
import { Warnings } from "../../generator/common/warnings.ts";

/** A contract of one `POST /things/{id}` operation with the given parameters and request body, loaded. */
async function withOperation(operation: { parameters?: unknown[]; requestBody?: unknown; responses?: unknown }, extra: object = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-"));
  const file = path.join(dir, "api.yaml");
  fs.writeFileSync(
    file,
    YAML.stringify({
      openapi: "3.1.0",
      info: { title: "T", version: "1.0.0" },
      servers: [{ url: "https://t.example.test" }],
      paths: {
        "/things/{id}": {
          post: {
            operationId: "act",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }, ...(operation.parameters ?? [])],
            ...(operation.requestBody === undefined ? {} : { requestBody: operation.requestBody }),
            responses: operation.responses ?? { "204": { description: "ok" } },
          },
        },
      },
      ...extra,
    }),
  );
  const warnings = new Warnings();
  const contract = await loadContract(file, warnings);
  return { file, contract, warnings, dir };
}

async function modelOf(operation: Parameters<typeof withOperation>[0], extra: object = {}) {
  const { contract, warnings, dir } = await withOperation(operation, extra);
  try {
    return { api: buildModel(contract, { warnings }), warnings };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const content = (...types: string[]) => ({ content: Object.fromEntries(types.map((type) => [type, { schema: { type: "string" } }])) });

describe("media types", () => {
  it.each([
    ["application/json", "json"],
    ["application/vnd.api+json; charset=utf-8", "json"],
    ["application/x-www-form-urlencoded", "form"],
    ["multipart/form-data", "multipart"],
    ["text/csv", "text"],
    ["application/cbor", "binary"],
    ["image/jpeg", "binary"],
    ["multipart/mixed", "binary"],
    ["*/*", "binary"],
  ])("%s is %s", (mediaType, kind) => {
    expect(mediaTypeKind(mediaType)).toBe(kind);
  });

  it.each([
    [["application/cbor"], "application/cbor"],
    [["image/*", "image/jpeg"], "image/jpeg"],
    [["application/x-tar", "application/octet-stream"], "application/octet-stream"],
    [["text/csv", "application/octet-stream"], "text/csv"],
    [["application/xml", "application/json"], "application/json"],
    [["application/problem+json", "application/json"], "application/json"],
    [["multipart/form-data", "application/x-www-form-urlencoded"], "application/x-www-form-urlencoded"],
  ])("a request body of %j is sent as %s", async (types, chosen) => {
    const { api } = await modelOf({ requestBody: content(...types) });
    expect(api.operations[0]!.requestBody?.mediaType).toBe(chosen);
  });

  it("reads a body without a schema, or with `schema: null`, as any body", async () => {
    for (const media of [{}, { schema: null }]) {
      const { api } = await modelOf({ requestBody: { content: { "application/json": media } } });
      expect(api.operations[0]!.requestBody).toMatchObject({ mediaType: "application/json", schemaPointer: undefined });
    }
  });

  it("types a binary body as bytes and an octet-stream answer as a Blob", async () => {
    const { file, dir } = await withOperation({
      requestBody: { required: true, content: { "image/jpeg": { schema: { type: "string", format: "binary" } } } },
      responses: { "200": { description: "ok", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } } },
    });
    try {
      const client = (await generateFiles({ spec: file })).files.find((f) => f.path === "src/client.ts")!.contents;
      expect(client).toContain('import type { BinaryBody } from "./runtime/body.js";');
      expect(client).toContain("body: BinaryBody;");
      expect(client).toContain("export type ActResponse = Blob;");
      expect((await generateFiles({ spec: file })).files.find((f) => f.path === "src/operation-specs.ts")!.contents).toContain('requestMediaType: "image/jpeg", responseKind: "blob"');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("parameters described by content", () => {
  it("are checked against their JSON content's schema, and carry their media type", async () => {
    const { api } = await modelOf({
      parameters: [
        { name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } },
        { name: "note", in: "header", content: { "text/plain": { schema: { type: "string" } } } },
        { name: "any", in: "query", content: { "application/json": {} } },
      ],
    });
    const [, filter, note, any] = api.operations[0]!.parameters;
    expect(filter).toMatchObject({ mediaType: "application/json", schemaPointer: "/paths/~1things~1{id}/post/parameters/1/content/application~1json/schema" });
    // Another media type's value goes as it is: a string, not checked against a schema of that media type.
    expect(note).toMatchObject({ mediaType: "text/plain", schemaPointer: undefined });
    expect(any).toMatchObject({ mediaType: "application/json", schemaPointer: undefined });
  });

  it.each([
    [{ name: "f", in: "query", content: {} }, "/paths/~1things~1{id}/post/parameters/1/content", "a parameter's content has exactly one media type, not 0"],
    [{ name: "f", in: "query", ...content("application/json", "text/plain") }, "/paths/~1things~1{id}/post/parameters/1/content", "a parameter's content has exactly one media type, not 2"],
    [{ name: "f", in: "query", schema: { type: "string" }, ...content("application/json") }, "/paths/~1things~1{id}/post/parameters/1", "a parameter has a `schema` or a `content`, not both"],
  ])("refuses %j", async (parameter, pointer, reason) => {
    await expect(modelOf({ parameters: [parameter] })).rejects.toMatchObject({ pointer, reason });
  });

  it("are typed by the type emitter as their JSON content's schema, a `$ref`ed one where it lives", async () => {
    const { contract, dir } = await withOperation(
      { parameters: [{ $ref: "#/components/parameters/Filter" }, { name: "raw", in: "query", content: { "text/plain": { schema: { type: "string" } } } }] },
      { components: { parameters: { Filter: { name: "filter", in: "query", content: { "application/json": { schema: { type: "object", properties: { limit: { type: "integer" } } } } } } } } },
    );
    try {
      const types = await emitSchemaTypes(contract);
      expect(types).toMatch(/Filter: \{\s*limit\?: number;\s*\};/);
      expect(types).toMatch(/raw\?: string;/);
      // The loaded document is left as it was.
      expect(contract.document.components?.parameters?.["Filter"]).toHaveProperty("content");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("cookie parameters", () => {
  it("take form style, exploded by default, and are warned about once", async () => {
    const { api, warnings } = await modelOf({
      parameters: [
        { name: "session", in: "cookie", schema: { type: "string" } },
        { name: "ids", in: "cookie", style: "form", explode: false, schema: { type: "array", items: { type: "string" } } },
      ],
    });
    const [, session, ids] = api.operations[0]!.parameters;
    expect(session).toMatchObject({ in: "cookie", style: { style: "form", explode: true } });
    expect(ids).toMatchObject({ in: "cookie", style: { style: "form", explode: false } });
    expect(warnings.groups().map((g) => [g.key, g.pointer, g.count])).toEqual([["parameter:cookie", "/paths/~1things~1{id}/post/parameters/1", 2]]);
  });

  it("refuses a style other than form", async () => {
    await expect(modelOf({ parameters: [{ name: "c", in: "cookie", style: "simple", schema: { type: "string" } }] })).rejects.toMatchObject({
      pointer: "/paths/~1things~1{id}/post/parameters/1/style",
      reason: 'style "simple" is not a cookie parameter style (form)',
    });
  });

  it("are in the client's parameters, its operation spec and its validator", async () => {
    const { file, dir } = await withOperation({
      parameters: [
        { name: "session", in: "cookie", required: true, schema: { type: "string", minLength: 3 } },
        { name: "ids", in: "cookie", explode: false, schema: { type: "array", items: { type: "string" } } },
        { name: "q", in: "query", content: { "application/json": { schema: { type: "object" } } } },
      ],
    });
    try {
      const generated = await generateFiles({ spec: file });
      const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
      expect(client).toContain('cookie: paths["/things/{id}"]["post"]["parameters"]["cookie"];');
      expect(generated.files.find((f) => f.path === "src/operation-specs.ts")!.contents).toContain('cookieStyles: { ids: { explode: false } }, contentParameters: { query: { q: "application/json" } }');
      expect(client).toContain("Cookie parameters (`session`, `ids`) are sent in one `Cookie` header");
      expect(generated.warnings).toEqual([expect.stringContaining("#/paths/~1things~1{id}/post/parameters/1: cookie parameters are sent in a Cookie header")]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
