/**
 * What a discriminator selects (generator/emit/validators/discriminator.ts), what is told as a
 * warning, and the messages: on this project's contract (branches with a `const`: exact), ReadMe's
 * discriminator examples (branches that do not constrain the property: every branch is tried) and
 * a fixture for the shapes the corpus lacks (`test/fixtures/discriminators/selection.json`).
 * Whether the answers are right is discriminated-union.test.ts's part (against ajv).
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Warnings } from "../../generator/common/warnings.ts";
import { load } from "../../generator/load/index.ts";
import { Discriminators } from "../../generator/emit/validators/discriminator.ts";
import { ASSERTION_KEYWORDS } from "../../generator/emit/validators/keyword-registry.ts";
import { RefResolver } from "../../generator/emit/validators/resolve.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { diagnosticsOf, loadValidators, moduleFiles, virtualRuntimeFiles, type LoadedValidators } from "./support.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURE = path.join(ROOT, "test/fixtures/discriminators/selection.json");

async function compiled(file: string, entries: Array<{ name: string; pointer: string }>) {
  const warnings = new Warnings();
  const document = (await load(path.resolve(ROOT, file), warnings)).document as object;
  const module = emitValidators({ document, entries, warnings });
  return { document, warnings, js: module.js, validators: loadValidators(module) };
}

describe("what a discriminator selects", () => {
  let document: object;
  let select: (name: string) => ReturnType<Discriminators["of"]>;
  let warnings: Warnings;
  beforeAll(async () => {
    warnings = new Warnings();
    document = (await load(FIXTURE, warnings)).document as object;
    const discriminators = new Discriminators(document, new RefResolver(document), warnings, ASSERTION_KEYWORDS);
    const schemas = (document as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas;
    select = (name) => discriminators.of(schemas[name]!, `/components/schemas/${name}`);
  });

  it("reads implicit mapping (component names) and, with each branch's const ruling the other out, selects exactly; an anyOf too", () => {
    expect(select("ImplicitPet")).toMatchObject({
      keyword: "anyOf",
      property: "kind",
      cases: [
        { value: "Cat", branch: 0, exact: true },
        { value: "Dog", branch: 1, exact: true },
      ],
      closed: true,
    });
  });

  it("takes mapping first, names a mapped branch by its mapping only, and is exact only for values every other branch rules out", () => {
    // Bird allows any kind: only "parrot", which Cat's and Dog's consts rule out, selects exactly.
    expect(select("OpenPet")).toMatchObject({
      keyword: "oneOf",
      cases: [
        { value: "cat", branch: 0, exact: false },
        { value: "parrot", branch: 2, exact: true },
        { value: "Dog", branch: 1, exact: false },
        { value: "Cat", branch: 0, exact: false },
      ],
      closed: false,
    });
  });

  it("warns of a mapping that names no branch, of values it cannot select exactly, and of a discriminator without propertyName", () => {
    expect(select("Shapeless")).toBeUndefined();
    const told = Object.fromEntries(warnings.groups().filter((group) => group.key.startsWith("discriminator:")).map((group) => [group.key, group.pointer]));
    expect(told).toEqual({
      "discriminator:mapping": "/components/schemas/OpenPet/discriminator/mapping/fish",
      "discriminator:overlap": "/components/schemas/OpenPet/discriminator",
      "discriminator:shape": "/components/schemas/Shapeless/discriminator",
    });
    const overlap = warnings.groups().find((group) => group.key === "discriminator:overlap")!;
    expect(overlap.message).toContain('/components/schemas/OpenPet/oneOf/2 does not rule out "cat"');
  });
});

describe("messages", () => {
  let own: LoadedValidators;
  let readme: LoadedValidators;
  let fixture: { validators: LoadedValidators; js: string };
  beforeAll(async () => {
    own = (await compiled("openapi/openapi.yaml", [{ name: "EndpointScaling", pointer: "/components/schemas/EndpointScaling" }])).validators;
    const body = "/paths/~1discriminator-with-mapping/patch/requestBody/content/application~1json/schema";
    readme = (await compiled("node_modules/@readme/oas-examples/3.0/json/discriminators.json", [{ name: "Options", pointer: body }])).validators;
    fixture = await compiled(FIXTURE, [
      { name: "ImplicitPet", pointer: "/components/schemas/ImplicitPet" },
      { name: "OpenPet", pointer: "/components/schemas/OpenPet" },
    ]);
  }, 60_000);

  it("a failed selected branch: its issues alone, then one naming the value and the branch", () => {
    expect(own["validateEndpointScaling"]!({ type: "QUEUE_DELAY", queueDelay: 0.1 })).toEqual([
      { path: "/queueDelay", keyword: "minimum", message: "must be >= 0.5", schemaPath: "/components/schemas/QueueDelayScaling/properties/queueDelay/minimum" },
      { path: "", keyword: "oneOf", message: 'must match QueueDelayScaling (selected by type "QUEUE_DELAY")', schemaPath: "/components/schemas/EndpointScaling/oneOf/0" },
    ]);
    expect(own["validateEndpointScaling"]!({ type: "REQUEST_COUNT", requestCount: 2 })).toEqual([]);
  });

  it("an unknown value: one issue at the property naming the allowed values", () => {
    expect(own["validateEndpointScaling"]!({ type: "LATENCY", queueDelay: 0.1 })).toEqual([
      {
        path: "/type",
        keyword: "discriminator",
        message: 'must be one of "QUEUE_DELAY", "REQUEST_COUNT" (the discriminator), not "LATENCY"',
        schemaPath: "/components/schemas/EndpointScaling/discriminator",
      },
    ]);
    expect(own["validateEndpointScaling"]!({ type: 5 })).toEqual([expect.objectContaining({ path: "/type", message: expect.stringMatching(/, not 5$/) })]);
  });

  it("a missing value: one issue at the object", () => {
    expect(own["validateEndpointScaling"]!({ queueDelay: 1 })).toEqual([
      {
        path: "",
        keyword: "discriminator",
        message: 'must have property "type" (the discriminator): one of "QUEUE_DELAY", "REQUEST_COUNT"',
        schemaPath: "/components/schemas/EndpointScaling/discriminator",
      },
    ]);
  });

  it("not an object: every branch's issues, as without a discriminator", () => {
    const issues = own["validateEndpointScaling"]!("QUEUE_DELAY");
    expect(issues.map((issue: { keyword: string }) => issue.keyword)).toEqual(["type", "type", "oneOf"]);
  });

  it("where every branch is tried (branches that do not constrain the value), the selected branch's issues are still the ones reported", () => {
    const validate = readme["validateOptions"]!;
    expect(validate({ discrim: "Option One", optionone: "x", optiontwo: 5 })).toEqual([
      expect.objectContaining({ path: "/optionone", keyword: "type" }),
      expect.objectContaining({ path: "", keyword: "oneOf", message: 'must match OptionOneNoDisc (selected by discrim "Option One")' }),
    ]);
    // It matches OptionTwoNoDisc as well: JSON Schema's oneOf refuses it, whatever the discriminator says.
    expect(validate({ discrim: "Option One" })).toEqual([expect.objectContaining({ keyword: "oneOf", message: "must match exactly one schema in oneOf, but matches 2" })]);
    expect(validate({ discrim: "Option Nine", optionone: "x", optiontwo: 5 })).toEqual([
      expect.objectContaining({ path: "/discrim", keyword: "discriminator", message: 'must be one of "Option One", "Option Two" (the discriminator), not "Option Nine"' }),
    ]);
  });

  it("an anyOf selected exactly checks the selected branch only, and says so", () => {
    const check = fixture.js.slice(fixture.js.indexOf("function c_ImplicitPet"), fixture.js.indexOf("function e_ImplicitPet"));
    // One lookup in the union's table ({"Cat": 0, "Dog": 1}), a refusal of any other value, then only the selected branch.
    expect(check).toMatch(/(k\d+) = selectBranch\(k_\d+, v\.kind\);\s+if \(\1 === -1\) return false;/);
    expect(check).toMatch(/if \((k\d+) >= 0 && \1 !== 0\) break (L\d+);\s+if \(!c_Cat\(v\)\) break \2;/);
    expect(fixture.js).toContain('JSON.parse("{\\"Cat\\":0,\\"Dog\\":1}")');
    const validate = fixture.validators["validateImplicitPet"]!;
    expect(validate({ kind: "Dog", bark: "loud" })).toEqual([
      expect.objectContaining({ path: "/bark", keyword: "type" }),
      { path: "", keyword: "anyOf", message: 'must match Dog (selected by kind "Dog")', schemaPath: "/components/schemas/ImplicitPet/anyOf/1" },
    ]);
    expect(validate({ kind: "Cat", lives: 3 })).toEqual([]);
    expect(validate({ kind: "Cow" })).toEqual([expect.objectContaining({ path: "/kind", keyword: "discriminator", message: 'must be one of "Cat", "Dog" (the discriminator), not "Cow"' })]);
  });

  it("with some values exact and some not, only the exact ones skip the other branches", () => {
    const validate = fixture.validators["validateOpenPet"]!;
    // "parrot" selects Bird exactly: Cat's and Dog's issues are never collected.
    expect(validate({ kind: "parrot", wings: "two" })).toEqual([
      expect.objectContaining({ path: "/wings", keyword: "type" }),
      { path: "", keyword: "oneOf", message: 'must match Bird (selected by kind "parrot")', schemaPath: "/components/schemas/OpenPet/oneOf/2" },
    ]);
    // "cat" selects Cat, but Bird also takes it: Bird passes, so the oneOf does.
    expect(validate({ kind: "cat" })).toEqual([]);
    expect(fixture.validators["isOpenPet"]!({ kind: "parrot", wings: 2 })).toBe(true);
  });
});

describe("contract text in a discriminator", () => {
  it("stays data: property names and values with quotes, newlines and prototype names", () => {
    for (const property of ["__proto__", 'a"b\n*/c', "constructor"]) {
      const branch = (value: string) => ({ type: "object", required: [property], properties: { [property]: { const: value }, n: { type: "integer" } } });
      const document = {
        $defs: { one: branch('x"\u2028y'), two: branch("${z}`") },
        oneOf: [{ $ref: "#/$defs/one" }, { $ref: "#/$defs/two" }],
        discriminator: { propertyName: property },
      };
      const module = emitValidators({ document, entries: [{ name: "Tagged", pointer: "" }], warnings: new Warnings() });
      const validators = loadValidators(module);
      const tagged = JSON.parse(JSON.stringify({ [property]: "${z}`", n: "no" })) as unknown;
      expect(validators["isTagged"]!(tagged)).toBe(false);
      expect(validators["validateTagged"]!(tagged).at(-1)).toMatchObject({ keyword: "oneOf", message: `must match two (selected by ${property} "\${z}\`")` });
      const unknown = JSON.parse(JSON.stringify({ [property]: "q" })) as unknown;
      expect(validators["validateTagged"]!(unknown)).toEqual([expect.objectContaining({ keyword: "discriminator" })]);
      const files = new Map([...virtualRuntimeFiles(), ...moduleFiles("/virtual/validators", module)]);
      expect(diagnosticsOf(files)).toEqual([]);
    }
  }, 60_000);
});
