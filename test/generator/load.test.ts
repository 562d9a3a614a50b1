import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ContractError } from "../../generator/common/errors.ts";
import { parsePointer, pointer } from "../../generator/common/json-pointer.ts";
import { generateFiles } from "../../generator/generate.ts";
import { followRefs, loadContract } from "../../generator/load/contract.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/load/${name}`, import.meta.url));

async function loadError(name: string): Promise<ContractError> {
  const error: unknown = await loadContract(fixture(name)).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ContractError);
  return error as ContractError;
}

describe("JSON pointers", () => {
  it.each([
    { given: [], want: "" },
    { given: ["paths", "/pods/{podId}", "get"], want: "/paths/~1pods~1{podId}/get" },
    { given: ["a~b", 0], want: "/a~0b/0" },
    { given: [""], want: "/" },
  ])("pointer($given) is $want", ({ given, want }) => {
    expect(pointer(...given)).toBe(want);
    expect(parsePointer(want)).toEqual(given.map(String));
  });

  it.each([
    { given: "#/components/schemas/Pod", want: ["components", "schemas", "Pod"] },
    { given: "#/paths/~1pods~1%7BpodId%7D", want: ["paths", "/pods/{podId}"] },
    { given: "/~01", want: ["~1"] },
    { given: "#", want: [] },
  ])("parsePointer($given)", ({ given, want }) => {
    expect(parsePointer(given)).toEqual(want);
  });

  it.each(["components", "/a~2b", "#/bad%zz"])("refuses the malformed pointer %s", (given) => {
    expect(() => parsePointer(given)).toThrow(ContractError);
  });

  it("formats a ContractError as file#pointer: message", () => {
    const error = new ContractError("/info", "info is missing", "openapi.yaml");
    expect(error.message).toBe("openapi.yaml#/info: info is missing");
    expect(error.reason).toBe("info is missing");
  });
});

describe("loadContract", () => {
  it("bundles a contract split across files, keeping internal $refs", async () => {
    const contract = await loadContract(fixture("split/openapi.yaml"));
    const schema = contract.at("/paths/~1pods~1{podId}/get/responses/200/content/application~1json/schema");
    expect(schema).toEqual({ $ref: "#/components/schemas/pod" });
    expect(contract.document.paths?.["/pods/{podId}"]?.["parameters"]).toEqual([{ $ref: "#/components/parameters/PodId" }]);
    expect(contract.resolve("#/components/schemas/pod")).toMatchObject({
      type: "object",
      properties: { status: { $ref: "#/components/schemas/pod-status" } },
    });
    expect(contract.resolve("#/components/responses/Error")).toMatchObject({ description: "An error." });
    expect(contract.sourcePath).toBe(fixture("split/openapi.yaml"));
    expect(contract.hash).toMatch(/^[0-9a-f]{64}$/);
    // Its pointers are into the bundle (errors found later say so).
    expect(contract.split).toBe(true);
    // Every file read, for --watch: the root and each file a $ref brought in, nested ones too.
    expect([...contract.files].sort()).toEqual(["openapi.yaml", "responses.yaml", "schemas/pod-status.yaml", "schemas/pod.yaml"].map((file) => fixture(`split/${file}`)));
  });

  it("returns plain JSON that later stages cannot change", async () => {
    const contract = await loadContract(fixture("split/openapi.yaml"));
    expect(JSON.parse(JSON.stringify(contract.document))).toEqual(contract.document);
    expect(Object.isFrozen(contract.document.info)).toBe(true);
  });

  it("hashes the content, not the format or member order", async () => {
    const fromJson = await loadContract(fixture("same-as-yaml.json"));
    const fromYaml = await loadContract(fixture("same-as-json.yaml"));
    expect(fromJson.hash).toBe(fromYaml.hash);
    const split = await loadContract(fixture("split/openapi.yaml"));
    expect(split.hash).not.toBe(fromJson.hash);
    expect((await loadContract(fixture("split/openapi.yaml"))).hash).toBe(split.hash);
  });

  it("keeps __proto__ and constructor as data and looks up own members only", async () => {
    const contract = await loadContract(fixture("proto-keys.yaml"));
    expect(contract.at("/components/schemas/__proto__")).toEqual({ type: "string" });
    expect(contract.resolve("#/components/schemas/constructor")).toEqual({ type: "integer" });
    expect(contract.at("/info/constructor")).toBeUndefined();
    expect(contract.at("/info/__proto__")).toBeUndefined();
    expect(contract.at("/info/title/length")).toBeUndefined();
  });

  it("resolve names the pointer of a missing target", async () => {
    const contract = await loadContract(fixture("split/openapi.yaml"));
    expect(() => contract.resolve("#/components/schemas/Nope")).toThrow(
      expect.objectContaining({ pointer: "/components/schemas/Nope" }),
    );
    expect(() => contract.resolve("./other.yaml#/x")).toThrow(ContractError);
    expect(contract.at("/components/schemas/Nope")).toBeUndefined();
  });

  it("deref follows a chain of $refs to its value and says where that value is", async () => {
    const contract = await loadContract(fixture("model-data/openapi.yaml"));
    const at = "/paths/~1things~1{id}/parameters/0";
    expect(contract.deref(contract.at(at), at)).toEqual({ value: expect.objectContaining({ name: "id", in: "path" }), pointer: "/components/parameters/Id" });
    expect(contract.deref(contract.at("/paths/~1ping/get"), "/paths/~1ping/get")).toEqual({ value: contract.at("/paths/~1ping/get"), pointer: "/paths/~1ping/get" });
  });

  it("deref says where a percent-encoded $ref leads as a plain JSON pointer", () => {
    const resolve = (ref: string) => (ref === "#/paths/~1things~1%7Bid%7D/parameters/0" ? { name: "id" } : undefined);
    expect(followRefs(resolve, { $ref: "#/paths/~1things~1%7Bid%7D/parameters/0" }, "/start")).toEqual({ value: { name: "id" }, pointer: "/paths/~1things~1{id}/parameters/0" });
  });

  it("deref refuses a chain that comes back to itself and an external $ref, at the last place reached", () => {
    const targets: Record<string, unknown> = { "#/a": { $ref: "#/b" }, "#/b": { $ref: "#/a" }, "#/c": { $ref: "other.yaml#/d" } };
    const resolve = (ref: string) => targets[ref];
    expect(() => followRefs(resolve, { $ref: "#/a" }, "/start")).toThrow(expect.objectContaining({ pointer: "/b", reason: "reference cycle through #/a" }));
    expect(() => followRefs(resolve, { $ref: "#/c" }, "/start")).toThrow(expect.objectContaining({ pointer: "/c", reason: "external reference other.yaml#/d left after bundling" }));
  });

  it("reads the CHANGELOG.md beside the contract, when there is one", async () => {
    expect((await loadContract(fixture("model-data/openapi.yaml"))).changelog).toBe(fs.readFileSync(fixture("model-data/CHANGELOG.md"), "utf8"));
    expect((await loadContract(fixture("split/openapi.yaml"))).changelog).toBeUndefined();
  });

  it.each([
    { given: "ref-cycle.yaml", want: { pointer: "", reason: /chain of \$refs leads back to itself/ } },
    { given: "openapi-3.3.yaml", want: { pointer: "/openapi", reason: /3\.0\.x, 3\.1\.x or 3\.2\.x.*"3\.3\.0"/ } },
    { given: "swagger-2.yaml", want: { pointer: "/swagger", reason: /^Swagger 2\.0 is not supported: convert it to OpenAPI 3 first \(`npx swagger2openapi / } },
    { given: "operation-not-object.yaml", want: { pointer: "/paths/~1things/get", reason: /^Expected type `Operation` \(object\) but got `string`$/ } },
    { given: "missing-info.yaml", want: { pointer: "/info", reason: /missing/ } },
    { given: "missing-paths.yaml", want: { pointer: "/paths", reason: /^paths is missing$/ } }, // 3.0 requires paths; 3.1 does not (test/generator/document-shapes.test.ts)
    { given: "paths-not-object.yaml", want: { pointer: "/paths", reason: /^paths must be an object$/ } },
    {
      given: "unresolved-internal-ref.yaml",
      want: {
        pointer: "/paths/~1pods/get/responses/200/content/application~1json/schema",
        reason: /^\$ref "#\/components\/schemas\/Missing" points at nothing: the document has no "components"$/,
      },
    },
    {
      given: "unresolved-file-ref.yaml",
      want: { pointer: "/paths/~1pods/get/responses/200", reason: /no-such-file\.yaml/ },
    },
    {
      given: "remote-ref.yaml",
      want: { pointer: "/paths/~1pods/get/responses/200", reason: /remote \$ref .* not fetched/ },
    },
    { given: "yaml-syntax-error.yaml", want: { pointer: "", reason: /YAML syntax error at line 4, column 1/ } },
    { given: "not-json-value.yaml", want: { pointer: "/x-limit", reason: /not representable in JSON/ } },
    { given: "no-such-contract.yaml", want: { pointer: "", reason: /cannot read the contract/ } },
  ])("refuses $given", async ({ given, want }) => {
    const error = await loadError(given);
    expect(error.pointer).toBe(want.pointer);
    expect(error.reason).toMatch(want.reason);
    expect(error.message).toBe(`${fixture(given)}#${want.pointer}: ${error.reason}`);
  });

  it("locates a YAML error inside a referenced file in that file", async () => {
    const error = await loadError("broken-part/openapi.yaml");
    expect(error.file).toBe(fixture("broken-part/part.yaml"));
    expect(error.reason).toMatch(/\(3:4\)/);
  });
});

describe("examples are data", () => {
  it("keeps a $ref inside an example value as written, whether it points at something, nothing or a file", async () => {
    const contract = await loadContract(fixture("example-values-with-ref.yaml"));
    const media = "/paths/~1users/get/responses/200/content/application~1json/examples";
    expect(contract.at(`${media}/upgraded/value`)).toEqual({ $ref: "#/components/schemas/User/example" });
    expect(contract.at(`${media}/dangling/value`)).toEqual({ $ref: "#/no/such/place" });
    expect(contract.at("/paths/~1users/get/parameters/0/examples/default/value")).toEqual({ $ref: "#/nowhere" });
    expect(contract.at("/paths/~1users/post/requestBody/content/application~1json/examples/default/value")).toEqual({ $ref: "./no-such-file.json" });
    expect(contract.at("/components/schemas/User/properties/friend/examples")).toEqual([{ $ref: "#/components/schemas/User/example" }]);
  });

  it("hands them to the type emitter as data too: the document generates", async () => {
    const { files } = await generateFiles({ spec: fixture("example-values-with-ref.yaml") });
    // The schema's example, shown as written in the type's documentation.
    expect(files.find((file) => file.path === "src/schema.ts")?.contents).toMatch(/@example \{\n\s*\* +"\$ref": "#\/components\/schemas\/User\/example"\n\s*\* +\}\n\s*\*\/\n\s*friend\?:/);
  });
});

describe("JSON documents", () => {
  it("refuses a duplicated key where the YAML parser finds it, rather than keep the last silently", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "load-json-"));
    try {
      const file = path.join(dir, "api.json");
      const once = '"/a": {"get": {"operationId": "getA", "responses": {"204": {"description": "ok"}}}}';
      const document = `{"openapi": "3.1.0", "info": {"title": "Twice", "version": "1"}, "paths": {${once}, ${once.replace("getA", "getB")}}}`;
      fs.writeFileSync(file, document);
      await expect(loadContract(file)).rejects.toThrow(/duplicated mapping key/);
      fs.writeFileSync(file, document.replace(`, ${once.replace("getA", "getB")}`, ""));
      expect((await loadContract(file)).at("/paths/~1a/get/operationId")).toBe("getA");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("discriminator mappings", () => {
  it("reads a mapping value that names a component schema as the $ref it stands for, leaving references and data as written", async () => {
    const contract = await loadContract(fixture("discriminator-schema-names.yaml"));
    const inline = "/paths/~1pets/post/requestBody/content/application~1json/schema/discriminator/mapping";
    expect(contract.at(inline)).toEqual({ "a cat": "#/components/schemas/Cat", "a dog": "#/components/schemas/Dog" });
    expect(contract.at("/components/schemas/Pet/discriminator/mapping")).toEqual({ "a cat": "#/components/schemas/Cat", "a dog": "#/components/schemas/Dog" });
    expect(contract.at("/components/schemas/Pet/examples/0/discriminator/mapping")).toEqual({ "a dog": "Dog" });
  });

  it("refuses a mapping reference that points at nothing, located, in a document of one file", async () => {
    await expect(loadContract(fixture("discriminator-mapping-typo.yaml"))).rejects.toThrow(/#\/components\/schemas\/Pet\/discriminator\/mapping\/dog: \$ref "#\/components\/schemas\/Dgo" points at nothing: \/components\/schemas has no "Dgo"$/);
  });

  it("hands the type emitter references only: the document generates, each branch typed with its mapped value", async () => {
    const { files } = await generateFiles({ spec: fixture("discriminator-schema-names.yaml") });
    const schema = files.find((file) => file.path === "src/schema.ts")!.contents;
    expect(schema).toMatch(/kind: "a cat"/);
  });
});
