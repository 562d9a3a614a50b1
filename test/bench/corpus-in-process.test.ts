import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measureInProcess, runtimeKey, typeCheckPackage } from "../../bench/corpus-in-process.ts";
import { generate } from "../../generator/generate.ts";

const NODE_MODULES = path.resolve(import.meta.dirname, "../../node_modules");
// Inside the repository, so that the packages resolve openapi-fetch from its node_modules.
fs.mkdirSync(path.resolve(import.meta.dirname, "../../.tmp"), { recursive: true });
const scratch = fs.mkdtempSync(path.resolve(import.meta.dirname, "../../.tmp/corpus-in-process-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// Two small documents no one here wrote, with the same runtime.
const PETSTORE = "@readme/oas-examples/3.0/json/petstore.json";
const OTHER = "@readme/oas-examples/3.1/json/petstore.json";

describe("the quick mode's in-process measuring", { timeout: 120_000 }, () => {
  it("generates and type-checks both tools' outputs of a real document", async () => {
    const { ours, ots } = await measureInProcess(PETSTORE, path.join(scratch, "a"));
    expect(ours).toMatchObject({ accepted: true, maxRssKiB: null, typecheck: { ok: true, diagnostics: 0 } });
    expect(ours.outputBytes).toBeGreaterThan(10_000);
    expect(ots).toMatchObject({ accepted: true, typecheck: { ok: true, diagnostics: 0 } });
    expect(fs.readdirSync(path.join(scratch, "a"))).toEqual([]);
  });

  it("records a refusal's first line without the document's path", async () => {
    const document = path.join(scratch, "broken.json");
    fs.writeFileSync(document, JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: { "/a": { get: { responses: { 200: { $ref: "#/components/responses/Missing" } } } } } }));
    const { ours } = await measureInProcess(path.relative(NODE_MODULES, document), path.join(scratch, "b"));
    expect(ours.accepted).toBe(false);
    expect(ours.refusal).toMatch(/Missing/);
    expect(ours.refusal).not.toContain(scratch);
  });

  it("keys the runtime by its text and options, not by the contract in its header", async () => {
    const [one, two] = [path.join(scratch, "one"), path.join(scratch, "two")];
    await generate({ spec: path.join(NODE_MODULES, PETSTORE), out: one });
    await generate({ spec: path.join(NODE_MODULES, OTHER), out: two });
    expect(runtimeKey(one)).toBe(runtimeKey(two));
    fs.appendFileSync(path.join(two, "src", "runtime", "auth.ts"), "\n// changed\n");
    expect(runtimeKey(one)).not.toBe(runtimeKey(two));
  });

  it("still finds an error in a package's own files once its runtime was checked, and in a runtime it has not seen", async () => {
    const dir = path.join(scratch, "three");
    await generate({ spec: path.join(NODE_MODULES, PETSTORE), out: dir });
    expect(typeCheckPackage(dir).ok).toBe(true);
    fs.appendFileSync(path.join(dir, "src", "client.ts"), "\nexport const wrong: number = 'text';\n");
    expect(typeCheckPackage(dir)).toMatchObject({ ok: false, diagnostics: 1, firstDiagnostic: expect.stringContaining("src/client.ts") });
    fs.writeFileSync(path.join(dir, "src", "client.ts"), fs.readFileSync(path.join(dir, "src", "client.ts"), "utf8").replace("\nexport const wrong: number = 'text';\n", ""));
    fs.appendFileSync(path.join(dir, "src", "runtime", "auth.ts"), "\nexport const wrong: number = 'text';\n");
    expect(typeCheckPackage(dir)).toMatchObject({ ok: false, firstDiagnostic: expect.stringContaining("src/runtime/auth.ts") });
  });
});
