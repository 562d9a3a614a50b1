/**
 * Names a document repeats, generated with a warning rather than refused: operationIds used twice
 * (named by the rule of generator/model/operation-names.ts) and components of one name in two
 * files of a split contract (renamed by the bundler). Each package type-checks under strict.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Warnings } from "../../generator/common/warnings.ts";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { operationNames } from "../../generator/model/operation-names.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { typeCheckPackages } from "../corpus/typecheck.ts";
import { repoRoot } from "../support/prism.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/load/${name}`, import.meta.url));

// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const scratch = path.join(repoRoot, ".tmp/duplicate-names");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function generate(spec: string, name: string): Promise<Generated & { outDir: string }> {
  const outDir = path.join(scratch, name);
  const generated = await generateFiles({ spec, out: outDir });
  await writeOutput(outDir, generated.files);
  return { ...generated, outDir };
}

function file(generated: Generated, name: string): string {
  return generated.files.find((f) => f.path === name)?.contents ?? "";
}

describe("operationIds used more than once", { timeout: 120_000 }, () => {
  it("names each later operation after its method and path, a numeric suffix last, whatever order the names would sort in", () => {
    const op = (operationId: string | undefined, method: "get" | "post", p: string) => ({ operationId, method, path: p, pointer: `/paths/${p.slice(1)}/${method}` });
    const warnings = new Warnings();
    const names = operationNames(
      [op("list", "get", "/a"), op("list", "get", "/b"), op("list_get/b", "get", "/c"), op("list", "post", "/b"), op("List", "get", "/d"), op(undefined, "get", "/e"), op("toString", "get", "/f")],
      ["toString"],
      warnings,
    );
    expect(names).toEqual([
      { operationId: "list", methodName: "list", typeName: "List" },
      // Its own name would be /c's, which keeps it: /c wrote it.
      { operationId: "list_get/b_2", methodName: "listGetB2", typeName: "ListGetB2" },
      { operationId: "list_get/b", methodName: "listGetB", typeName: "ListGetB" },
      { operationId: "list_post/b", methodName: "listPostB", typeName: "ListPostB" },
      // Not the same operationId, the same identifier: the numeric suffix.
      { operationId: "List", methodName: "list2", typeName: "List2" },
      { operationId: "get/e", methodName: "getE", typeName: "GetE" },
      { operationId: "toString", methodName: "toString2", typeName: "ToString" },
    ]);
    expect(warnings.groups().map((g) => [g.pointer, g.message])).toEqual([
      ["/paths/b/get/operationId", 'operationId "list" is also the operationId of #/paths/a/get, which keeps it; this operation is generated as "list_get/b_2" (method listGetB2, types ListGetB2…)'],
      ["/paths/b/post/operationId", 'operationId "list" is also the operationId of #/paths/a/get, which keeps it; this operation is generated as "list_post/b" (method listPostB, types ListPostB…)'],
    ]);
  });

  it("generates a package that type-checks, with a warning naming both places for each repeat", async () => {
    const spec = fixture("duplicate-operation-id.yaml");
    const generated = await generate(spec, "operation-ids");
    expect(generated.warnings).toEqual([
      `${spec}#/paths/~1b/get/operationId: operationId "getThing" is also the operationId of #/paths/~1a/get, which keeps it; this operation is generated as "getThing_get/b_2" (method getThingGetB2, types GetThingGetB2…)`,
      `${spec}#/paths/~1b/post/operationId: operationId "getThing" is also the operationId of #/paths/~1a/get, which keeps it; this operation is generated as "getThing_post/b" (method getThingPostB, types GetThingPostB…)`,
    ]);
    const specs = file(generated, "src/operation-specs.ts");
    for (const [method, operationId, at] of [
      ["getThing", "getThing", "GET\", path: \"/a\""],
      ["getThingGetB2", "getThing_get/b_2", "GET\", path: \"/b\""],
      ["getThingPostB", "getThing_post/b", "POST\", path: \"/b\""],
      ["getThingGetB", "getThing_get/b", "GET\", path: \"/c\""],
      ["getThing2", "get_thing", "GET\", path: \"/d\""],
    ]) {
      expect(specs).toContain(`export const ${method} = { operationId: ${JSON.stringify(operationId)}, method: "${at}`);
      expect(file(generated, "src/client.ts")).toContain(`  public ${method}(`);
      expect(file(generated, "src/operations.ts")).toContain(`export function ${method}(`);
    }
    expect(file(generated, "src/client.ts")).toContain("export type GetThingPostBParams = {");
    expect(file(generated, "src/validators.js")).toContain("export function validateGetThingPostBParams(");
    expect(file(generated, "README.md")).toContain("getThingPostB");
    // openapi-typescript's `operations` has one member per name; the webhook's repeat is typed where it stands.
    const schema = file(generated, "src/schema.ts");
    expect(schema).toContain('post: operations["getThing_post/b"];');
    expect([...schema.matchAll(/^ {4}"?(getThing[^":]*)"?: \{$/gm)].map((m) => m[1])).toEqual(["getThing", "getThing_get/b_2", "getThing_post/b", "getThing_get/b"]);
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
  });

  it("names the same way whatever the order of the document's other members", async () => {
    const text = fs.readFileSync(fixture("duplicate-operation-id.yaml"), "utf8");
    // webhooks before paths, info last: only the paths' own order counts.
    const [head, rest] = text.split("paths:\n");
    const [paths, webhooks] = rest!.split("webhooks:\n");
    const moved = path.join(scratch, "moved.yaml");
    fs.writeFileSync(moved, `${head!.replace(/info: .*\n/, "")}webhooks:\n${webhooks}paths:\n${paths}info: {title: Twice, version: "1"}\n`);
    const names = (g: Generated) => g.api.operations.map((o) => [o.operationId, o.methodName, o.typeName]);
    expect(names(await generateFiles({ spec: moved }))).toEqual(names(await generateFiles({ spec: fixture("duplicate-operation-id.yaml") })));
  });
});

describe("components of one name in two files", { timeout: 120_000 }, () => {
  it("keeps the bundler's rename, says where in one line, and the package type-checks", async () => {
    const spec = fixture("conflict/openapi.yaml");
    const generated = await generate(spec, "conflict");
    expect(generated.warnings).toEqual([
      `${spec}#/paths/~1b/get/responses/200/content/application~1json/schema: the bundler renamed the component Pod to Pod-2 for this $ref: another file's Pod has other content`,
    ]);
    expect(file(generated, "src/types.ts")).toContain('export type Pod = components["schemas"]["Pod"];');
    expect(file(generated, "src/types.ts")).toContain('export type Pod2 = components["schemas"]["Pod-2"];');
    expect(file(generated, "src/client.ts")).toMatch(/export type GetBResponse = paths\["\/b"\]\["get"\]/);
    expect(typeCheckPackages([generated.outDir]).get(generated.outDir)).toEqual([]);
  });
});
