/**
 * The server-sent-events extension: which operations are event streams, how their event schema is
 * read (OpenAPI 3.2's `itemSchema`, or `x-item-schema` in 3.1, alike), what is refused or warned
 * about, and that a contract without an event stream gets nothing of it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { repoRoot } from "../support/prism.ts";

const FIXTURE = path.join(repoRoot, "test/fixtures/contracts/event-streams.yaml");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sse-generator-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const base = () => YAML.parse(fs.readFileSync(FIXTURE, "utf8"));
const LOG_MEDIA = ["paths", "/builds/{buildId}/log", "get", "responses", "200", "content", "text/event-stream"];
const at = (document: any, keys: string[]) => keys.reduce((node, key) => node[key], document);

let count = 0;
async function generate(document: unknown): Promise<Generated> {
  const file = path.join(work, `contract-${++count}.yaml`);
  fs.writeFileSync(file, YAML.stringify(document));
  return generateFiles({ spec: file });
}

const source = (generated: Generated, file: string) => generated.files.find((f) => f.path === file)?.contents ?? "";
/** A file without its first line, which names the contract's hash. */
const body = (generated: Generated, file: string) => source(generated, file).split("\n").slice(1).join("\n");

describe("the server-sent-events extension", () => {
  it("reads OpenAPI 3.2's itemSchema as x-item-schema is read in 3.1: the same package", async () => {
    const written = base();
    written.openapi = "3.2.0";
    const media = at(written, LOG_MEDIA);
    media.itemSchema = media["x-item-schema"];
    delete media["x-item-schema"];
    const [from32, from31] = await Promise.all([generate(written), generate(base())]);
    for (const file of ["src/client.ts", "src/operations.ts", "package.json", "README.md"]) expect(body(from32, file), file).toBe(body(from31, file));
    expect(source(from31, "src/client.ts")).toContain('AsyncGenerator<$ServerSentEvent<$components["schemas"]["LogLine"]>, void, undefined>');
    expect(source(from31, "src/client.ts")).toContain("{ json: true, validate: $validators.validateLogLine }");
    expect(source(from31, "src/client.ts")).toContain("AsyncGenerator<$ServerSentEvent<string>, void, undefined>");
  });

  it("refuses an item schema given both ways", async () => {
    const written = base();
    const media = at(written, LOG_MEDIA);
    media.itemSchema = media["x-item-schema"];
    await expect(generate(written)).rejects.toMatchObject({ pointer: expect.stringMatching(/text~1event-stream\/x-item-schema$/), reason: expect.stringMatching(/not both/) });
  });

  it("types JSON data without a component as unknown, with a warning, and checks nothing", async () => {
    const written = base();
    at(written, [...LOG_MEDIA, "x-item-schema", "properties", "data"]).contentSchema = { type: "object", properties: { seq: { type: "integer" } } };
    const generated = await generate(written);
    expect(source(generated, "src/client.ts")).toContain("AsyncGenerator<$ServerSentEvent<unknown>, void, undefined>");
    expect(source(generated, "src/client.ts")).toContain("OPERATIONS.followBuildLog, params, options, { json: true });");
    expect(generated.warnings.join("\n")).toMatch(/contentSchema types and checks its data only as a \$ref/);
  });

  it("reads data as text without contentMediaType JSON, and warns of a contentSchema it ignores", async () => {
    const written = base();
    delete at(written, [...LOG_MEDIA, "x-item-schema", "properties", "data"]).contentMediaType;
    const generated = await generate(written);
    expect(source(generated, "src/client.ts")).not.toContain("$ServerSentEvent<$components");
    expect(generated.warnings.join("\n")).toMatch(/contentSchema is read only with contentMediaType: application\/json/);
  });

  it("leaves an operation that also answers JSON to the core", async () => {
    const written = base();
    at(written, ["paths", "/builds/{buildId}/log", "get", "responses", "200", "content"])["application/json"] = { schema: { type: "array", items: { $ref: "#/components/schemas/LogLine" } } };
    const generated = await generate(written);
    expect(source(generated, "src/client.ts")).toMatch(/public followBuildLog\([^)]*\): Promise<ApiResult<FollowBuildLogResponse>>/);
    expect(source(generated, "src/client.ts")).toContain("public watchNotices(options?: $EventStreamOptions)");
  });

  it("gives a contract without an event stream nothing of it", async () => {
    const written = base();
    delete written.paths["/builds/{buildId}/log"];
    delete written.paths["/notices"];
    const generated = await generate(written);
    expect(generated.files.filter((file) => file.path.includes("server-sent-events"))).toEqual([]);
    expect(JSON.parse(source(generated, "package.json")).dependencies).not.toHaveProperty("eventsource-parser");
    expect(source(generated, "src/client.ts") + source(generated, "src/index.ts") + source(generated, "README.md")).not.toMatch(/streamEvents|ServerSentEvent|Event streams/);
  });

  it("refuses what OpenAPI 3.2 adds that the client cannot call", async () => {
    const written = base();
    written.openapi = "3.2.0";
    written.paths["/notices"].query = { operationId: "searchNotices", responses: { "200": { description: "found" } } };
    await expect(generate(written)).rejects.toMatchObject({ pointer: "/paths/~1notices/query", reason: expect.stringMatching(/not supported/) });
  });
});
