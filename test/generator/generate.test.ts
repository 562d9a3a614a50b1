import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import type { ApiModel } from "../../generator/model/index.ts";
import { checkOutput, GENERATED_MARK, MANIFEST_PATH } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { loadValidators } from "../validators/support.ts";

const run = promisify(execFile);
const contract = path.join(repoRoot, "openapi/openapi.yaml");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "generate-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI as `npm run generate` does; never throws, returns exit code and output. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(repoRoot, "generator/run.mjs"), ...args], { cwd: repoRoot }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) }),
  );
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return out;
}

function writeContract(name: string, text: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, text);
  return file;
}

const MINIMAL = `openapi: 3.1.0
info: { title: Tiny, version: 1.0.0 }
servers: [{ url: 'https://tiny.example.test' }]
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } }
`;

describe("npm run generate", { timeout: 120_000 }, () => {
  it("is deterministic: two runs give byte-identical files, in a stable order", async () => {
    const first = await generateFiles({ spec: contract });
    const second = await generateFiles({ spec: contract });
    expect(second.files).toEqual(first.files);
    expect(first.files.map((f) => f.path)).toEqual([...first.files.map((f) => f.path)].sort());
  });

  it("does not depend on the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2001-02-03T04:05:06Z") });
    try {
      const early = await generateFiles({ spec: contract });
      vi.setSystemTime(new Date("2031-12-30T23:59:59Z"));
      const late = await generateFiles({ spec: contract });
      expect(late.files).toEqual(early.files);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stamps every TypeScript file with the generated-file header and the contract's hash", async () => {
    const { files, contract: loaded } = await generateFiles({ spec: contract });
    for (const file of files.filter((f) => f.path.endsWith(".ts"))) {
      // An executable keeps its shebang first; the header follows it.
      const lines = file.contents.split("\n");
      const firstLine = lines[0]!.startsWith("#!") ? lines[1]! : lines[0]!;
      expect(firstLine, file.path).toContain(GENERATED_MARK);
      expect(firstLine).toContain(`sha256:${loaded.hash}`);
    }
  });

  it("leaves generated/ exactly as the contract generates it (the CI drift check)", async () => {
    const result = await cli("--check");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("--check writes nothing and lists every file that would change", async () => {
    const out = path.join(scratch, "check-out");
    expect((await cli("--spec", contract, "--out", out)).code).toBe(0);
    fs.appendFileSync(path.join(out, "src/client.ts"), "// hand edit\n");
    fs.rmSync(path.join(out, "src/models.ts"));
    // A file an earlier generation wrote (listed in the manifest) that this one does not: it would be removed.
    const manifestFile = path.join(out, MANIFEST_PATH);
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: [...manifest.files, "src/stray.ts"] }));
    fs.writeFileSync(path.join(out, "src/stray.ts"), "export {};\n");
    // A file of the team's is not the generator's to compare.
    fs.writeFileSync(path.join(out, "src/ours.ts"), "export {};\n");
    const before = snapshot(out);
    const result = await cli("--spec", contract, "--out", out, "--check");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("changed: src/client.ts");
    expect(result.stderr).toContain("missing: src/models.ts");
    expect(result.stderr).toContain("not generated: src/stray.ts");
    expect(result.stderr).not.toContain("src/ours.ts");
    expect(snapshot(out)).toEqual(before);
  });

  it("runs on any OpenAPI 3.1 document with --spec and --out", async () => {
    const out = path.join(scratch, "tiny");
    const result = await cli("--spec", writeContract("tiny.yaml", MINIMAL), "--out", out);
    expect(result.code).toBe(0);
    const client = fs.readFileSync(path.join(out, "src/client.ts"), "utf8");
    expect(client).toContain("export class TinyClientCore extends ClientCore");
    expect(client).toContain("export class TinyClient extends TinyClientCore");
    expect(fs.readFileSync(path.join(out, "src/operations.ts"), "utf8")).toContain("export function getThing(client: $client.TinyClientCore, params: $client.GetThingParams");
    expect(client).toContain("getThing(params: GetThingParams");
    expect(JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")).name).toBe("tiny-client");
  });

  it("writes beside files it did not write, and refuses to replace one with one plain line, changing nothing", async () => {
    const out = path.join(scratch, "foreign");
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "notes.txt"), "mine");
    fs.writeFileSync(path.join(out, "README.md"), "# Ours");
    const spec = writeContract("ok-foreign.yaml", MINIMAL);
    const result = await cli("--spec", spec, "--out", out);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: refusing to write ${out}: the generator would replace a file it did not write (README.md). Move it away, or give --out a folder of its own.\n`);
    expect(snapshot(out)).toEqual({ "notes.txt": "mine", "README.md": "# Ours" });
    fs.rmSync(path.join(out, "README.md"));
    expect((await cli("--spec", spec, "--out", out)).code).toBe(0);
    expect(fs.readFileSync(path.join(out, "notes.txt"), "utf8")).toBe("mine");
  });

  it("refuses an --out that is a file, or lies under one, with one plain line", async () => {
    const file = path.join(scratch, "a-file");
    fs.writeFileSync(file, "mine");
    const contract = writeContract("ok-file.yaml", MINIMAL);
    for (const [out, expected] of [
      [file, `error: ${file} exists and is not a folder\n`],
      [path.join(file, "sub"), `error: cannot make ${file}: a file stands in its path\n`],
    ] as const) {
      const result = await cli("--spec", contract, "--out", out);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(expected);
    }
    expect(fs.readFileSync(file, "utf8")).toBe("mine");
  });

  it("refuses a root, system or home folder as --out at once, without walking it", async () => {
    const contract = writeContract("ok-system.yaml", MINIMAL);
    const link = path.join(scratch, "link-to-root");
    fs.symlinkSync("/", link);
    const toDev = path.join(scratch, "link-to-dev");
    fs.symlinkSync("/dev", toDev);
    // The message is the one the output folder's check gives before anything looks inside the folder (write/index.ts):
    // that it came proves nothing was walked, however long the run took on a loaded machine.
    for (const out of ["/", "/proc/gen", "/sys", "/dev/shm/gen", "/usr", "/etc", "/home", os.homedir(), link, path.join(toDev, "shm", "not-there-yet")]) {
      const result = await cli("--spec", contract, "--out", out);
      expect(result.code, out).toBe(1);
      expect(result.stderr, out).toMatch(/^error: --out \S+ is (the file system's root|a system folder|your home folder)[^\n]*; give --out a folder of its own\n$/);
    }
  });

  it("takes a project folder under a system one, such as Docker's /usr/src/app", async () => {
    // checkOutput refuses as writeOutput does, and writes nothing.
    await expect(checkOutput("/usr/src/app-of-a-test-that-is-not-there", [])).resolves.toMatchObject({ changed: [], removed: [] });
    await expect(checkOutput("/usr/local/lib/project-of-a-test", [])).resolves.toBeDefined();
    await expect(checkOutput("/usr", [])).rejects.toThrow(/is a system folder/);
  });

  it("blames a bad --name on the option, not on the contract's x-sdk", async () => {
    const result = await cli("--spec", writeContract("ok-name.yaml", MINIMAL), "--out", path.join(scratch, "bad-name"), "--name", "Bad Name");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: --name "Bad Name" is not a valid npm package name (lower case, digits, ".", "_", "-", optionally @scope/)\n');
    expect(fs.existsSync(path.join(scratch, "bad-name"))).toBe(false);
  });

  it("stops on what it cannot handle with the JSON pointer, and a failed run leaves the previous output intact", async () => {
    const out = path.join(scratch, "intact");
    expect((await cli("--spec", writeContract("ok.yaml", MINIMAL), "--out", out)).code).toBe(0);
    const before = snapshot(out);
    const twoMediaTypes = MINIMAL.replace(
      "{ name: id, in: path, required: true, schema: { type: string } }",
      "{ name: id, in: path, required: true, schema: { type: string } }\n        - { name: filter, in: query, content: { application/json: {}, text/plain: {} } }",
    );
    const badFile = writeContract("content.yaml", twoMediaTypes);
    const result = await cli("--spec", badFile, "--out", out);
    expect(result.code).toBe(1);
    // Located like a load error: the file, then the pointer.
    expect(result.stderr).toContain(`error: ${badFile}#/paths/~1things~1{id}/get/parameters/1/content: a parameter's content has exactly one media type, not 2`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(out)).toEqual(before);
    expect(fs.readdirSync(scratch).filter((name) => name.includes(".tmp-"))).toEqual([]);
  });

  it("tells of an unknown format, and stops on it with --unknown-formats error", async () => {
    const spec = writeContract("format.yaml", MINIMAL.replace("properties: { id: { type: string } }", "properties: { id: { type: string, format: 'x*/y' } }"));
    const where = '/paths/~1things~1{id}/get/responses/200/content/application~1json/schema/properties/id/format: format "x*/y" is not checked';
    const warned = await cli("--spec", spec, "--out", path.join(scratch, "format-out"));
    expect([warned.code, warned.stderr]).toEqual([0, expect.stringContaining(`warning: ${spec}#${where}`)]);
    const refused = await cli("--spec", spec, "--out", path.join(scratch, "format-never"), "--unknown-formats", "error");
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(where)]);
    expect((await cli("--spec", spec, "--unknown-formats", "maybe")).code).toBe(1);
  });

  it("types and converts dates with --dates date, the worker's schema.ts included; refuses another value in one line", async () => {
    const spec = writeContract("dates.yaml", MINIMAL.replace("properties: { id: { type: string } }", "properties: { id: { type: string }, at: { type: string, format: date-time } }"));
    const out = path.join(scratch, "dates-out");
    expect((await cli("--spec", spec, "--out", out, "--dates", "date")).code).toBe(0);
    expect(fs.readFileSync(path.join(out, "src/schema.ts"), "utf8")).toMatch(/at\?: Date;/);
    expect(fs.readFileSync(path.join(out, "src/dates.ts"), "utf8")).toContain('properties: { at: "date-time" }');
    const refused = await cli("--spec", spec, "--out", path.join(scratch, "dates-never"), "--dates", "Date");
    expect([refused.code, refused.stderr.split("\n")[0]]).toEqual([1, 'error: --dates must be string or date, not "Date"']);
  });

  it("generates a repeated operationId under another name, with a warning naming both places, the worker's schema.ts included", async () => {
    const spec = writeContract("twice.yaml", MINIMAL.replace("paths:\n", "paths:\n  /other:\n    get:\n      operationId: getThing\n      responses: { '204': { description: ok } }\n"));
    const out = path.join(scratch, "twice-out");
    const result = await cli("--spec", spec, "--out", out);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`warning: ${spec}#/paths/~1things~1{id}/get/operationId: operationId "getThing" is also the operationId of #/paths/~1other/get, which keeps it; this operation is generated as "getThing_get/things/{id}" (method getThingGetThingsId, types GetThingGetThingsId…)`);
    expect(fs.readFileSync(path.join(out, "src/schema.ts"), "utf8")).toContain('get: operations["getThing_get/things/{id}"];');
  });

  it.each([
    [
      "a TRACE operation (fetch cannot send one)",
      MINIMAL.replace("    get:\n      operationId: getThing", "    trace:\n      operationId: traceThing\n      responses: { '200': { description: ok } }\n    get:\n      operationId: getThing"),
      "/paths/~1things~1{id}/trace: a TRACE operation is left out of the client: fetch cannot send one (its types stay in src/schema.ts)",
      (api: ApiModel) => expect(api.operations.map((o) => o.methodName)).toEqual(["getThing"]),
    ],
    [
      "a request body without a media type",
      MINIMAL.replace("      responses:", "      requestBody:\n        content: {}\n      responses:"),
      "/paths/~1things~1{id}/get/requestBody/content: a request body without a media type in its content is left out: the client sends none",
      (api: ApiModel) => expect(api.operations[0]!.requestBody).toBeUndefined(),
    ],
    [
      "a parameter whose name is empty",
      MINIMAL.replace("- { name: id, in: path, required: true, schema: { type: string } }", "- { name: id, in: path, required: true, schema: { type: string } }\n        - { name: '', in: query, schema: { type: string } }"),
      "/paths/~1things~1{id}/get/parameters/1/name: a parameter whose name is empty is left out: the client cannot send it",
      (api: ApiModel) => expect(api.operations[0]!.parameters.map((p) => p.name)).toEqual(["id"]),
    ],
  ])("leaves out %s, with a warning at its pointer", async (_, text, warning, check) => {
    const spec = writeContract(`left-out-${warning.length}.yaml`, text);
    const generated = await generateFiles({ spec });
    expect(generated.warnings).toContain(`${spec}#${warning}`);
    check(generated.api);
  });

  it.each([
    ["a server variable without default", MINIMAL.replace("servers: [{ url: 'https://tiny.example.test' }]", "servers: [{ url: 'https://{region}.example.test', variables: { region: { enum: [eu] } } }]"), "/servers/0/variables/region: The field `default` must be present on this level."],
    ["a pattern that is no regular expression", MINIMAL.replace("properties: { id: { type: string } }", "properties: { id: { type: string, pattern: '(' } }"), "/paths/~1things~1{id}/get/responses/200/content/application~1json/schema/properties/id/pattern: not a valid ECMAScript regular expression"],
    ["a keyword the validators cannot compile", MINIMAL.replace("properties: { id: { type: string } }", "properties: { id: { type: string } }, $vocabulary: { 'https://example.test/v': true }"), "/paths/~1things~1{id}/get/responses/200/content/application~1json/schema/$vocabulary: $vocabulary is not supported"],
    ["a $dynamicRef whose target the path of evaluation decides", MINIMAL.replace("properties: { id: { type: string } }", "properties: { id: { type: string } }, $dynamicAnchor: n, allOf: [{ $ref: '#/components/schemas/T' }]").replace("paths:\n", "components:\n  schemas:\n    T: { $dynamicAnchor: n, properties: { next: { $dynamicRef: '#n' } } }\npaths:\n"), '/components/schemas/T/properties/next/$dynamicRef: $dynamicRef "#n": $dynamicAnchor "n" is declared at /components/schemas/T and at /paths/~1things~1{id}/get/responses/200/content/application~1json/schema'],
    ["a path parameter style of another location", MINIMAL.replace("{ name: id, in: path, required: true, schema: { type: string } }", "{ name: id, in: path, required: true, style: form, schema: { type: string } }"), '/paths/~1things~1{id}/get/parameters/0/style: style "form" is not a path parameter style (simple, label, matrix)'],
    ["a header parameter style of another location", MINIMAL.replace("{ name: id, in: path, required: true, schema: { type: string } }", "{ name: id, in: path, required: true, schema: { type: string } }\n        - { name: X-Tags, in: header, style: matrix, schema: { type: string } }"), '/paths/~1things~1{id}/get/parameters/1/style: style "matrix" is not a header parameter style (simple)'],
    ["an unknown query parameter style", MINIMAL.replace("{ name: id, in: path, required: true, schema: { type: string } }", "{ name: id, in: path, required: true, schema: { type: string } }\n        - { name: q, in: query, style: matrix, schema: { type: string } }"), '/paths/~1things~1{id}/get/parameters/1/style: style "matrix" is not a query parameter style'],
    ["a property named like an Object.prototype method", MINIMAL.replace("properties: { id: { type: string } }", "properties: { valueOf: { type: string } }"), '/paths/~1things~1{id}/get/responses/200/content/application~1json/schema/properties/valueOf: the key "valueOf" is named like a method of Object.prototype'],
    ["an operationId that is not a string (the document's shape is checked first)", MINIMAL.replace("operationId: getThing", "operationId: 42"), "/paths/~1things~1{id}/get/operationId: Expected type `string` but got `integer`"],
    ["servers given as an object", MINIMAL.replace("servers: [{ url: 'https://tiny.example.test' }]", "servers: { url: 'https://tiny.example.test' }"), "/servers: Expected type `ServerList` (array) but got `object`"],
    ["x-sdk.packageName that is not a string", MINIMAL.replace("openapi: 3.1.0", "openapi: 3.1.0\nx-sdk: { packageName: 5 }"), "/x-sdk/packageName: must be a string"],
    ["a default dialect other than 2020-12 and the drafts read as it", MINIMAL.replace("openapi: 3.1.0", "openapi: 3.1.0\njsonSchemaDialect: 'https://example.test/my-dialect'"), '/jsonSchemaDialect: "https://example.test/my-dialect" is not JSON Schema 2020-12'],
  ])("names the pointer of %s", async (_, text, expected) => {
    const result = await cli("--spec", writeContract(`bad-${expected.length}.yaml`, text), "--out", path.join(scratch, "never"));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expected);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(scratch, "never"))).toBe(false);
  });

  it("writes each query parameter's style into the operation, leaving OpenAPI's default out", async () => {
    const styled = MINIMAL.replace(
      "{ name: id, in: path, required: true, schema: { type: string } }",
      [
        "{ name: id, in: path, required: true, schema: { type: string } }",
        "        - { name: plain, in: query, schema: { type: array, items: { type: integer } } }",
        "        - { name: ids, in: query, explode: false, schema: { type: array, items: { type: integer } } }",
        "        - { name: tags, in: query, style: pipeDelimited, schema: { type: array, items: { type: string } } }",
        "        - { name: filter, in: query, style: deepObject, explode: true, schema: { type: object } }",
      ].join("\n"),
    );
    const { files } = await generateFiles({ spec: writeContract("styled.yaml", styled) });
    const client = files.find((file) => file.path === "src/operation-specs.ts")?.contents ?? "";
    expect(client).toContain(
      'queryStyles: { ids: { style: "form", explode: false }, tags: { style: "pipeDelimited", explode: false }, filter: { style: "deepObject", explode: true } }',
    );
    expect(client).not.toMatch(/plain: \{ style/);
  });

  it("writes each path and header parameter's style into the operation, leaving OpenAPI's default out", async () => {
    const styled = MINIMAL.replace("/things/{id}:", "/things/{id}/{m}/{l}/{s}:").replace(
      "{ name: id, in: path, required: true, schema: { type: string } }",
      [
        "{ name: id, in: path, required: true, style: simple, explode: false, schema: { type: string } }",
        "        - { name: m, in: path, required: true, style: matrix, schema: { type: array, items: { type: string } } }",
        "        - { name: l, in: path, required: true, style: label, explode: true, schema: { type: object } }",
        "        - { name: s, in: path, required: true, explode: true, schema: { type: object } }",
        "        - { name: X-Plain, in: header, schema: { type: array, items: { type: string } } }",
        "        - { name: X-Point, in: header, style: simple, explode: true, schema: { type: object } }",
      ].join("\n"),
    );
    const { files } = await generateFiles({ spec: writeContract("path-styled.yaml", styled) });
    const client = files.find((file) => file.path === "src/operation-specs.ts")?.contents ?? "";
    expect(client).toContain(
      'pathStyles: { m: { style: "matrix", explode: false }, l: { style: "label", explode: true }, s: { style: "simple", explode: true } }, headerStyles: { "X-Point": { explode: true } }',
    );
    expect(client).not.toMatch(/\bid: \{ style|X-Plain": \{/);
  });

  it("gives a schema's validators the name of its type alias when the alias had to avoid an operation type", async () => {
    const clashing = `${MINIMAL}components:\n  schemas:\n    GetThingParams: { type: string, minLength: 2 }\n`;
    const { files } = await generateFiles({ spec: writeContract("alias-clash.yaml", clashing) });
    const types = files.find((file) => file.path === "src/types.ts")?.contents ?? "";
    const validators = files.find((file) => file.path === "src/validators.d.ts")?.contents ?? "";
    // The operation keeps GetThingParams; the schema becomes GetThingParams2, its guard isGetThingParams2.
    expect(types).toContain('export type GetThingParams2 = components["schemas"]["GetThingParams"];');
    expect(validators).toMatch(/export declare function isGetThingParams2\(value: unknown\): value is components\["schemas"\]\["GetThingParams"\]/);
    expect(validators).toMatch(/export declare function validateGetThingParams\(value: unknown\)/);
    expect(validators).not.toMatch(/export declare function isGetThingParams\(value: unknown\): value is components/);
  });

  it("refuses x-server-wait anywhere but on a query integer with limits, naming the pointer", async () => {
    const marked = (parameter: string) =>
      MINIMAL.replace("        - { name: id, in: path, required: true, schema: { type: string } }", `        - { name: id, in: path, required: true, schema: { type: string } }\n        - ${parameter}`);
    for (const [parameter, pointer, reason] of [
      ["{ name: h, in: header, x-server-wait: true, schema: { type: integer, minimum: 1, maximum: 9 } }", "/paths/~1things~1{id}/get/parameters/1/x-server-wait", "only a query parameter"],
      ["{ name: w, in: query, x-server-wait: true, schema: { type: integer, minimum: 1 } }", "/paths/~1things~1{id}/get/parameters/1/schema", "a minimum and a maximum"],
      ["{ name: w, in: query, x-server-wait: yes, schema: { type: integer, minimum: 1, maximum: 9 } }", "/paths/~1things~1{id}/get/parameters/1/x-server-wait", "true or false"],
      // A well-formed mark on an operation that is not runsync would do nothing: the client fills it only in runModelSync.
      ["{ name: w, in: query, x-server-wait: true, schema: { type: integer, minimum: 1, maximum: 9 } }", "/paths/~1things~1{id}/get/parameters/1/x-server-wait", 'only for the operation with x-model-endpoint-role "runsync"'],
    ]) {
      const error = await generateFiles({ spec: writeContract("server-wait.yaml", marked(parameter!)) }).catch((e) => e);
      expect(error.pointer, parameter).toBe(pointer);
      expect(error.message).toContain(reason);
    }
    const wait = (name: string) => `{ name: ${name}, in: query, x-server-wait: true, schema: { type: integer, minimum: 1, maximum: 9 } }`;
    const twice = marked(`${wait("w")}\n        - ${wait("v")}`).replace("operationId: getThing", "operationId: getThing\n      x-model-endpoint-role: runsync");
    const error = await generateFiles({ spec: writeContract("server-wait-twice.yaml", twice) }).catch((e) => e);
    expect(error.pointer).toBe("/paths/~1things~1{id}/get/parameters/2/x-server-wait");
    expect(error.message).toContain("one server wait");
    // One mark on runsync, but no x-model-endpoints: no runModelSync would ever fill it.
    const once = marked(wait("w")).replace("operationId: getThing", "operationId: getThing\n      x-model-endpoint-role: runsync");
    const unused = await generateFiles({ spec: writeContract("server-wait-no-models.yaml", once) }).catch((e) => e);
    expect(unused.pointer).toBe("/paths/~1things~1{id}/get/parameters/1/x-server-wait");
    expect(unused.message).toContain("only when the document has x-model-endpoints");
    // A path item's parameter that the operation overrides is checked too: a stray mark is never ignored.
    const overridden = MINIMAL.replace("  /things/{id}:\n    get:", "  /things/{id}:\n    parameters:\n      - { name: w, in: query, x-server-wait: yes, schema: { type: integer } }\n    get:").replace(
      "        - { name: id, in: path, required: true, schema: { type: string } }",
      "        - { name: id, in: path, required: true, schema: { type: string } }\n        - { name: w, in: query, schema: { type: integer } }",
    );
    const stray = await generateFiles({ spec: writeContract("server-wait-overridden.yaml", overridden) }).catch((e) => e);
    expect(stray.pointer).toBe("/paths/~1things~1{id}/parameters/0/x-server-wait");
    expect(stray.message).toContain("true or false");
  });

  it("describes runsync in the package README as the contract allows: a wait it can ask for, or not", async () => {
    const readme = async (text: string, name: string) =>
      (await generateFiles({ spec: writeContract(name, text) })).files.find((file) => file.path === "README.md")?.contents ?? "";
    const withWait = await readme(fs.readFileSync(contract, "utf8"), "with-wait.yaml");
    const withoutWait = await readme(fs.readFileSync(contract, "utf8").replace("      x-server-wait: true\n", ""), "without-wait.yaml");
    expect(withWait).toContain("it asks the service to answer 5 s before the");
    expect(withWait).not.toContain("The service decides how long it holds");
    expect(withoutWait).toContain("The service decides how long it holds a `runModelSync` call");
    expect(withoutWait).toContain("with less than 5 s left it queues the job with `run`");
    expect(withoutWait).not.toContain("asking the service to answer 5 s before");
  });

  it("refuses a role on an operation whose path parameters do not fit it, at the operation", async () => {
    const contract = fs.readFileSync(path.join(repoRoot, "openapi/openapi.yaml"), "utf8");
    // The health role on the cancel operation: it takes a job id besides the model id.
    const moved = contract.replace(/ *x-model-endpoint-role: health\n/, "").replace("x-model-endpoint-role: cancel\n", "x-model-endpoint-role: health\n");
    expect(moved).not.toBe(contract);
    const error = await generateFiles({ spec: writeContract("health-on-cancel.yaml", moved) }).catch((e) => e);
    expect(error.pointer).toBe("/paths/~1v2~1{model_endpoint_id}~1cancel~1{job_id}/post");
    expect(error.message).toContain('x-model-endpoint-role "health" needs exactly one path parameter (the model id) and no required request body');
  });

  it("refuses a second operation with the same x-model-endpoint-role, naming both", async () => {
    const roles = `${MINIMAL.replace("operationId: getThing", "operationId: getThing\n      x-model-endpoint-role: status")}  /others/{id}:
    get:
      operationId: getOther
      x-model-endpoint-role: status
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ok }
`;
    const error = await generateFiles({ spec: writeContract("roles-twice.yaml", roles) }).catch((e) => e);
    expect(error.pointer).toBe("/paths/~1others~1{id}/get/x-model-endpoint-role");
    expect(error.message).toContain('a second operation with x-model-endpoint-role "status" (the first is /paths/~1things~1{id}/get)');
  });

  it("takes a JSON response without a schema as any body", async () => {
    const open = MINIMAL.replace("content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } }", "content: { application/json: {} }");
    const { files } = await generateFiles({ spec: writeContract("no-schema.yaml", open) });
    expect(files.find((file) => file.path === "src/response-validators.js")).toBeUndefined();
  });

  it("checks a path template variable no parameter declares as the string it is typed and sent as", async () => {
    const undeclared = `openapi: 3.1.0
info: { title: Undeclared, version: 1.0.0 }
servers: [{ url: 'https://x.example.test' }]
paths:
  /things/{id}:
    get:
      operationId: getThing
      responses:
        '204': { description: done }
`;
    const { files, warnings } = await generateFiles({ spec: writeContract("undeclared-path.yaml", undeclared) });
    expect(warnings.join("\n")).toContain("path parameter {id} is in the path but not declared");
    const validators = loadValidators(files.find((file) => file.path === "src/validators.js")!.contents);
    const validate = validators["validateGetThingParams"]!;
    expect(validate({ path: { id: "a" } })).toEqual([]);
    expect((validate({ path: { id: { a: 1 } } }) as Array<{ path: string; keyword: string }>).map((issue) => [issue.path, issue.keyword])).toEqual([["/path/id", "type"]]);
  });

  it("takes a JSON request body without a schema as any body, still required when the body is", async () => {
    const open = MINIMAL.replace("      responses:", "      requestBody:\n        required: true\n        content: { application/json: { examples: { one: { value: { any: thing } } } } }\n      responses:");
    const { files } = await generateFiles({ spec: writeContract("no-body-schema.yaml", open) });
    const validators = files.find((file) => file.path === "src/validators.js")!.contents;
    // The body is checked for presence only: its rule in the parameter table has no schema functions.
    expect(validators).toContain('["body", true, null, null, ""]');
  });

  it("generates operations of a path item given by $ref (components/pathItems), its parameters included", async () => {
    const referenced = `openapi: 3.1.0
info: { title: PathItemRef, version: 1.0.0 }
servers: [{ url: 'https://x.example.test' }]
paths:
  /things/{id}:
    $ref: '#/components/pathItems/Thing'
components:
  pathItems:
    Thing:
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, pattern: '^[a-z]+$' } }
      get:
        operationId: getThing
        responses:
          '200':
            description: ok
            content: { application/json: { schema: { type: object, required: [id], properties: { id: { type: string } } } } }
`;
    const { files } = await generateFiles({ spec: writeContract("path-item-ref.yaml", referenced) });
    const client = files.find((file) => file.path === "src/operation-specs.ts")?.contents ?? "";
    expect(client).toContain('export const getThing = { operationId: "getThing", method: "GET", path: "/things/{id}"');
    const validators = files.find((file) => file.path === "src/response-validators.js")?.contents ?? "";
    expect(validators).toContain('"/components/pathItems/Thing/get/responses/200/content/application~1json/schema"');
  });
});
