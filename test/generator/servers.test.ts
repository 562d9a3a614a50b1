/**
 * A document without `servers` is served at `/` (OpenAPI): the client defaults to a relative base
 * URL, fine in a page, and outside one refuses at construction, naming the option to pass.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";

const spec = fileURLToPath(new URL("../fixtures/load/no-servers.yaml", import.meta.url));
// Inside the repository so the package resolves openapi-fetch from its node_modules.
const outDir = path.join(repoRoot, ".tmp/load-no-servers");
let generated: Generated;

/** The generated client class (the one with the operation's method). */
async function clientClass(): Promise<new (options: object) => { ping(): Promise<unknown> }> {
  const module = await import(path.join(outDir, "src/index.ts"));
  return Object.values<any>(module).find((value) => typeof value === "function" && typeof value.prototype?.ping === "function");
}

beforeAll(async () => {
  generated = await generateFiles({ spec, out: outDir });
  await writeOutput(outDir, generated.files);
}, 120_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe("a document without servers", { timeout: 120_000 }, () => {
  it("gets OpenAPI's default server, `/`, as a relative base-URL option", () => {
    expect(generated.api.servers).toEqual([{ key: "baseUrl", url: "/", defaultUrl: "", description: undefined, envVar: "NOWHERE_CLIENT_BASE_URL", relative: true }]);
    expect(generated.api.operations[0]?.server).toBe("baseUrl");
  });

  it("compiles under strict with zero diagnostics", () => {
    const config = ts.readConfigFile(path.join(outDir, "tsconfig.json"), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, outDir);
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });

  it("refuses to be made in Node without the base URL, naming the option; with it, it sends there", async () => {
    const Client = await clientClass();
    expect(() => new Client({ apiKey: "k" })).toThrow(expect.objectContaining({ name: "InvalidRequestError", field: "baseUrl", message: expect.stringMatching(/^baseUrl is required outside a browser/) }));
    const sent: string[] = [];
    const fetch = async (request: Request) => {
      sent.push(request.url);
      return new Response(null, { status: 204 });
    };
    const client = new Client({ apiKey: "k", baseUrl: "https://api.example.test/v1", fetch });
    await client.ping();
    expect(sent).toEqual(["https://api.example.test/v1/ping"]);
  });

  it("in a page, takes the relative default", async () => {
    const Client = await clientClass();
    const global = globalThis as { location?: unknown };
    global.location = new URL("https://app.example.test/page");
    try {
      expect(() => new Client({ apiKey: "k" })).not.toThrow();
    } finally {
      delete global.location;
    }
  });
});
