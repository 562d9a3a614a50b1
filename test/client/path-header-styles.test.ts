/**
 * Path parameters in every style OpenAPI gives them (`simple`, `label`, `matrix`, exploded or not)
 * and header parameters in `simple`, exploded or not, for primitives, arrays and objects. Through the
 * client generated from ReadMe's parameters-style.json (3.1), against a loopback server that records
 * what arrived; the expected strings follow OpenAPI 3.1.1's style table.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

let server: RecordingServer;
let generated: GeneratedClient;
let client: any;
beforeAll(async () => {
  server = await startRecordingServer();
  generated = await generateClient(path.join(repoRoot, "node_modules/@readme/oas-examples/3.1/json/parameters-style.json"), "parameters-style-3.1");
  client = new generated.Client({ baseUrl: server.url, maxRetries: 0 });
}, 120_000);
afterAll(() => server.close());

/** The one request `call` sends. */
async function sent(call: () => Promise<unknown>) {
  server.requests.length = 0;
  await call();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

// The object's schema has `name` and `description`; a space and a slash show each value is percent-encoded.
const values = { primitive: "blue", array: ["blue", "black", "brown"], object: { name: "a b", description: "c/d" } };

describe("path parameters", () => {
  it.each([
    ["pathsStandard", "/anything/path/blue/blue,black,brown/name,a%20b,description,c%2Fd"],
    ["pathsSimpleNonExploded", "/anything/path/simple/blue/blue,black,brown/name,a%20b,description,c%2Fd"],
    ["pathsSimpleExploded", "/anything/path/simple/blue/blue,black,brown/name=a%20b,description=c%2Fd"],
    ["pathsLabelNonExploded", "/anything/path/label/.blue/.blue,black,brown/.name,a%20b,description,c%2Fd"],
    ["pathsLabelExploded", "/anything/path/label/.blue/.blue.black.brown/.name=a%20b.description=c%2Fd"],
    ["pathsMatrixNonExploded", "/anything/path/matrix/;primitive=blue/;array=blue,black,brown/;object=name,a%20b,description,c%2Fd"],
    ["pathsMatrixExploded", "/anything/path/matrix/;primitive=blue/;array=blue;array=black;array=brown/;name=a%20b;description=c%2Fd"],
  ])("%s requests %s", async (method, expected) => {
    expect((await sent(() => client[method]({ path: values }))).url).toBe(expected);
  });

  it("writes an empty array as the table's undefined in matrix style, and refuses one that would empty or climb the path", async () => {
    const empty = { ...values, array: [] };
    expect((await sent(() => client.pathsMatrixExploded({ path: empty }))).url).toBe("/anything/path/matrix/;primitive=blue/;array/;name=a%20b;description=c%2Fd");
    server.requests.length = 0;
    await expect(client.pathsSimpleNonExploded({ path: empty })).rejects.toMatchObject({
      name: "InvalidRequestError",
      field: "path.array",
      message: 'path parameter "array" must not be an empty array in simple style',
    });
    await expect(client.pathsLabelExploded({ path: { ...values, primitive: "." } })).rejects.toMatchObject({
      name: "InvalidRequestError",
      message: 'path parameter "primitive" must not be ".": label style writes it as the path segment ".."',
    });
    expect(server.requests).toEqual([]);
  });

  it("checks the values against their schemas before writing them", async () => {
    server.requests.length = 0;
    await expect(client.pathsMatrixExploded({ path: { ...values, array: [1, 2] } })).rejects.toMatchObject({ name: "InvalidRequestError", field: "path.array.0" });
    expect(server.requests).toEqual([]);
  });
});

describe("header parameters", () => {
  it.each([
    ["headersStandard", "name,a b,description,c/d"],
    ["headersSimpleNonExploded", "name,a b,description,c/d"],
    ["headersSimpleExploded", "name=a b,description=c/d"],
  ])("%s sends the object as %s, the array as a list", async (method, object) => {
    const { headers } = await sent(() => client[method]({ header: values }));
    expect([headers.primitive, headers.array, headers.object]).toEqual(["blue", "blue,black,brown", object]);
  });
});

describe("the generated types", () => {
  it("take an array and an object where the contract has them, and nothing else, under strict", () => {
    const usage = path.join(generated.outDir, "usage-check.ts");
    fs.writeFileSync(
      usage,
      [
        `import type { ${generated.Client.name} as Client } from "./src/index.ts";`,
        "export async function use(client: Client): Promise<void> {",
        "  await client.pathsMatrixExploded({ path: { primitive: 'p', array: ['a', 'b'], object: { name: 'n' } } });",
        "  await client.pathsLabelNonExploded({ path: { primitive: 'p', array: [], object: {} } });",
        "  await client.headersSimpleExploded({ header: { array: ['a'], object: { description: 'd' } } });",
        "  // @ts-expect-error the array parameter is an array",
        "  await client.pathsMatrixExploded({ path: { primitive: 'p', array: 'a', object: {} } });",
        "  // @ts-expect-error the object's properties are strings",
        "  await client.headersSimpleExploded({ header: { object: { name: 5 } } });",
        "}",
      ].join("\n"),
    );
    expect(typeCheck([usage])).toEqual([]);
  }, TYPE_CHECK_BUDGET_MS);
});
