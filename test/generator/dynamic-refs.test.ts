/**
 * Dynamic references: 2020-12's `$dynamicRef`/`$dynamicAnchor`, and 2019-09's
 * `$recursiveRef`/`$recursiveAnchor` (rewritten into them at load), compiled as the `$ref` they
 * always are, for the types and the validators alike, and refused, naming both declarations, where
 * the path of evaluation decides (see generator/emit/validators/resolve.ts). The validators are
 * judged beside ajv's own 2019-09 and 2020-12, given each top-level schema as a schema file of its
 * own: the reading of `"#"` in an OpenAPI document (generator/load/older-dialects/recursive-refs.ts).
 * No corpus document uses these keywords: the documents are test/fixtures/dynamic-refs/.
 */
import fs from "node:fs";
import path from "node:path";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ContractError } from "../../generator/common/errors.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { typeCheckPackages } from "../corpus/typecheck.ts";
import { repoRoot } from "../support/prism.ts";
import { loadValidators } from "../validators/support.ts";

const FIXTURES = path.join(repoRoot, "test/fixtures/dynamic-refs");
const SUITE = path.resolve(repoRoot, "../shared/suites/json-schema-test-suite/tests/draft2020-12");
// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const scratch = path.join(repoRoot, ".tmp/dynamic-refs");
fs.rmSync(scratch, { recursive: true, force: true });
fs.mkdirSync(scratch, { recursive: true });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

type Json = Record<string, any>;

function fixture(name: string): { spec: string; document: Json } {
  const spec = path.join(FIXTURES, name);
  return { spec, document: parse(fs.readFileSync(spec, "utf8")) as Json };
}

/** Generates `spec` in-process and writes the package, to be type-checked. */
async function generate(spec: string, name: string): Promise<Generated & { outDir: string; types: string; validators: Record<string, (value: unknown) => any> }> {
  const outDir = path.join(scratch, name);
  const generated = await generateFiles({ spec, out: outDir });
  await writeOutput(outDir, generated.files);
  const text = (file: string) => generated.files.find((f) => f.path === file)!.contents;
  return { ...generated, outDir, types: text("src/schema.ts"), validators: loadValidators(text("src/validators.js")) };
}

async function refusal(spec: string): Promise<ContractError> {
  const error = await generateFiles({ spec, out: path.join(scratch, "never") }).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ContractError);
  return error as ContractError;
}

function writeSpec(name: string, document: Json): string {
  const spec = path.join(scratch, `${name}.yaml`);
  fs.writeFileSync(spec, stringify(document));
  return spec;
}

/** ajv's verdicts on a top-level schema as a file of its own (its `$ref`s into the document are not followed). */
function ajvVerdicts(draft: "2019-09" | "2020-12", schema: Json, values: unknown[]): boolean[] {
  const ajv = draft === "2019-09" ? new Ajv2019({ strict: false, logger: false }) : new Ajv2020({ strict: false, logger: false });
  const validate = ajv.compile({ $id: "urn:test:top-level", ...schema });
  return values.map((value) => validate(value) as boolean);
}

/** The generated guard and issue list agree with each other and with ajv on every value, and the values are not all alike. */
function expectAgreement(isX: (value: unknown) => boolean, validateX: (value: unknown) => unknown[], expected: boolean[], values: unknown[]): void {
  expect(values.map(isX)).toEqual(expected);
  expect(values.map((value) => validateX(value).length === 0)).toEqual(expected);
  expect(new Set(expected)).toEqual(new Set([true, false]));
}

const TREES = [
  { name: "a" },
  { name: "a", children: [] },
  { name: "a", children: [{ name: "b", children: [{ name: "c" }] }, { name: "d" }] },
  { name: "a", children: [{ name: "b", children: [{ name: "" }] }] },
  { name: "a", children: [{ name: "b", children: [{}] }] },
  { name: "a", children: [{ children: [] }] },
  { name: "a", children: {} },
  { name: "a", children: ["b"] },
  {},
  "a",
];

describe("a tree written with $recursiveAnchor and $recursiveRef (draft 2019-09) in a 3.1 document", { timeout: 120_000 }, () => {
  const { spec, document } = fixture("recursive-ref-tree.yaml");
  const outline = document.paths["/outline"].get.responses["200"].content["application/json"].schema;
  const generating = generate(spec, "recursive-ref-tree");

  it("types each $recursiveRef as its top-level schema, a component or a schema member; the package type-checks", async () => {
    const { types, outDir } = await generating;
    expect(types).toContain('children?: components["schemas"]["Node"][];');
    expect(types).toContain('parent?: components["schemas"]["Node"] | null;');
    expect(types).toContain('next?: components["schemas"]["Leaf"];');
    expect(types).toContain('sections?: paths["/outline"]["get"]["responses"]["200"]["content"]["application/json"][];');
    expect(typeCheckPackages([outDir]).get(outDir)).toEqual([]);
  });

  it("validates as ajv's 2019-09 does", async () => {
    const { validators } = await generating;
    const nodes = [...TREES, { name: "a", parent: null }, { name: "a", parent: { name: "b", parent: null } }, { name: "a", parent: { name: "" } }];
    expectAgreement(validators["isNode"]!, validators["validateNode"]!, ajvVerdicts("2019-09", document.components.schemas.Node, nodes), nodes);
    const leaves = [{ value: 1, next: { value: 2, next: {} } }, { next: { next: { value: "3" } } }, { next: 1 }];
    expectAgreement(validators["isLeaf"]!, validators["validateLeaf"]!, ajvVerdicts("2019-09", document.components.schemas.Leaf, leaves), leaves);
    const outlines = [{ title: "a", sections: [{ title: "b", sections: [] }] }, { title: "a", sections: [{ sections: [] }] }, { title: "a", sections: [{ title: 1 }] }];
    expectAgreement(validators["isGetOutlineResponse"]!, validators["validateGetOutlineResponse"]!, ajvVerdicts("2019-09", outline, outlines), outlines);
  });

  it("tells of the rewriting once per keyword, where it was written first; an issue under a $recursiveRef names the keyword of its target, as under a $ref", async () => {
    const { warnings, validators } = await generating;
    const outlineAt = `${spec}#/paths/~1outline/get/responses/200/content/application~1json/schema`;
    expect(warnings).toEqual(
      expect.arrayContaining([
        `${outlineAt}/$recursiveAnchor: $recursiveAnchor is draft 2019-09: read as 2020-12's $dynamicAnchor ("recursive"), on the top-level schema (component or schema member) that $recursiveRef "#" means (2 places; the first is shown)`,
        `${outlineAt}/properties/sections/items/$recursiveRef: $recursiveRef is draft 2019-09: read as 2020-12's $dynamicRef, "#" being the top-level schema (component or schema member) it sits in (4 places; the first is shown)`,
      ]),
    );
    // Read, so not also told of as unexpected by the shape check.
    expect(warnings.filter((warning) => /\$recursive(?:Ref|Anchor)` is not expected/.test(warning))).toEqual([]);
    const issues = validators["validateNode"]!({ name: "a", children: [{ name: "" }] }) as { path: string; schemaPath: string }[];
    expect(issues.map((issue) => [issue.path, issue.schemaPath])).toEqual([["/children/0/name", "/components/schemas/Node/properties/name/minLength"]]);
  });
});

describe("a tree written with $dynamicAnchor and $dynamicRef", { timeout: 120_000 }, () => {
  const { spec, document } = fixture("dynamic-ref-tree.yaml");
  const generating = generate(spec, "dynamic-ref-tree");

  it("types each $dynamicRef as its one target, also where another tree uses the same anchor name; the package type-checks", async () => {
    const { types, outDir } = await generating;
    expect(types).toContain('children?: components["schemas"]["Node"][];');
    expect(types).toContain('entries?: components["schemas"]["Menu"][];');
    expect(typeCheckPackages([outDir]).get(outDir)).toEqual([]);
  });

  it("validates as ajv's 2020-12 does", async () => {
    const { validators } = await generating;
    expectAgreement(validators["isNode"]!, validators["validateNode"]!, ajvVerdicts("2020-12", document.components.schemas.Node, TREES), TREES);
    const menus = [{ label: "a", entries: [{ label: "b", entries: [] }] }, { label: "a", entries: [{ name: "b" }] }, { label: "a", entries: [{ label: 1 }] }];
    expectAgreement(validators["isMenu"]!, validators["validateMenu"]!, ajvVerdicts("2020-12", document.components.schemas.Menu, menus), menus);
  });
});

describe("one text holding a $dynamicRef in two schema resources", { timeout: 120_000 }, () => {
  it("means each resource's own declaration, for the types and the validators", async () => {
    const list = { type: "array", items: { $dynamicRef: "#item" } };
    const spec = writeSpec("same-text", {
      ...fixture("dynamic-ref-tree.yaml").document,
      paths: {},
      components: {
        schemas: {
          Numbers: { type: "object", properties: { values: { $ref: "#/components/schemas/Numbers/$defs/list" } }, $defs: { list, item: { $dynamicAnchor: "item", type: "number" } } },
          Strings: { type: "object", properties: { values: { $ref: "#/components/schemas/Strings/$defs/list" } }, $defs: { list, item: { $dynamicAnchor: "item", type: "string" } } },
        },
      },
    });
    const { validators, types, outDir } = await generate(spec, "same-text");
    // Both `list`s are one text, which the validators compile once unless it holds a $dynamicRef.
    expect([{ values: [1] }, { values: ["a"] }].map(validators["isNumbers"]!)).toEqual([true, false]);
    expect([{ values: ["a"] }, { values: [1] }].map(validators["isStrings"]!)).toEqual([true, false]);
    expect(types).toContain(`components["schemas"]["Numbers/$defs/item"][]`);
    expect(types).toContain(`components["schemas"]["Strings/$defs/item"][]`);
    expect(typeCheckPackages([outDir]).get(outDir)).toEqual([]);
  });
});

describe("a $dynamicRef whose target the path of evaluation decides", { timeout: 120_000 }, () => {
  it("is refused at the $dynamicRef, naming both declarations of its anchor", async () => {
    const { spec } = fixture("extensible-tree.yaml");
    const error = await refusal(spec);
    expect(error.message).toBe(
      `${spec}#/components/schemas/Node/properties/children/items/$dynamicRef: $dynamicRef "#node": $dynamicAnchor "node" is declared at /components/schemas/Node and at /components/schemas/StrictNode, from where evaluation can come into this one, so the target depends on the path taken (the extensible-schema pattern), which the generator does not compile: name the anchors apart, or use $ref`,
    );
  });

  it("is so: ajv's answers for one value under Node differ as evaluation comes through StrictNode or not", () => {
    const { document } = fixture("extensible-tree.yaml");
    const { Node, StrictNode } = document.components.schemas;
    const ajv = new Ajv2020({ strict: false, logger: false });
    ajv.addSchema({ $id: "urn:test:node", ...Node });
    const strict = ajv.compile({ $id: "urn:test:strict", ...StrictNode, $ref: "urn:test:node" });
    const value = { children: [{ data: 1, extra: true }] };
    expect([ajv.getSchema("urn:test:node")!(value), strict(value)]).toEqual([true, false]);
  });

  it("is refused where written when written with $recursiveRef", async () => {
    const { document } = fixture("extensible-tree.yaml");
    const { Node, StrictNode } = document.components.schemas;
    delete Node.$dynamicAnchor;
    delete StrictNode.$dynamicAnchor;
    Node.$recursiveAnchor = true;
    StrictNode.$recursiveAnchor = true;
    Node.properties.children.items = { $recursiveRef: "#" };
    const spec = writeSpec("extensible-recursive", document);
    expect((await refusal(spec)).message).toContain(
      `${spec}#/components/schemas/Node/properties/children/items/$recursiveRef: $dynamicRef "#recursive": $dynamicAnchor "recursive" is declared at /components/schemas/Node and at /components/schemas/StrictNode`,
    );
  });

  it("refuses $recursiveAnchor below a top-level schema, where \"#\" cannot reach it", async () => {
    const { document } = fixture("recursive-ref-tree.yaml");
    document.components.schemas.Node.properties.children.$recursiveAnchor = true;
    const spec = writeSpec("nested-anchor", document);
    expect((await refusal(spec)).message).toBe(
      `${spec}#/components/schemas/Node/properties/children/$recursiveAnchor: $recursiveAnchor: true below the top-level schema /components/schemas/Node: only a schema resource's root is a target of $recursiveRef "#", and a nested one would need an $id, which is not supported`,
    );
  });
});

describe("a refusal inside a schema whose draft keywords were renamed", { timeout: 120_000 }, () => {
  it("names the place as written (definitions, not the $defs it is read as)", async () => {
    const { document } = fixture("recursive-ref-tree.yaml");
    document.components.schemas.Node.$schema = "https://json-schema.org/draft/2019-09/schema";
    document.components.schemas.Node.definitions = { Inner: { $recursiveAnchor: true, type: "object" } };
    const spec = writeSpec("renamed-nested-anchor", document);
    expect((await refusal(spec)).message).toMatch(new RegExp(`^${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}#/components/schemas/Node/definitions/Inner/\\$recursiveAnchor: \\$recursiveAnchor: true below the top-level schema`));
  });
});

describe("a schema declaring draft 2019-09 with $schema", { timeout: 120_000 }, () => {
  const { spec, document } = fixture("schema-2019-09.yaml");
  const generating = generate(spec, "schema-2019-09");

  it("reads $recursiveRef, the tuple and a keyword the draft lacks as the draft meant them, for the types and the validators", async () => {
    const { types, validators, warnings, outDir } = await generating;
    expect(types).toMatch(/pair\?: \[\s*string,\s*number\s*\];/);
    expect(types).toContain('children?: components["schemas"]["Node"][];');
    expect(types).toContain("ignored?: unknown;");
    expect(warnings).toContain(`${spec}#/components/schemas/Node/properties/ignored/$dynamicRef: $dynamicRef is not a keyword of draft 2019-09, which the schema declares: it asserts nothing there, so it is left out`);
    const values = [
      { pair: ["a", 1], children: [{ pair: ["b", 2], children: [] }] },
      { children: [{ pair: ["b", "2"] }] },
      { children: [{ children: [{ pair: [1] }] }] },
      { children: [{ children: {} }] },
    ];
    // ajv's 2019 class reads $dynamicRef, which draft 2019-09 does not have: it is left out of its copy.
    const { ignored: _, ...properties } = document.components.schemas.Node.properties;
    expectAgreement(validators["isNode"]!, validators["validateNode"]!, ajvVerdicts("2019-09", { ...document.components.schemas.Node, properties }, values), values);
    expect(validators["isNode"]!({ ignored: 5 })).toBe(true);
    expect(typeCheckPackages([outDir]).get(outDir)).toEqual([]);
  });
});

interface SuiteGroup {
  description: string;
  schema: object;
  tests: { description: string; data: unknown; valid: boolean }[];
}

describe("JSON-Schema-Test-Suite draft2020-12/dynamicRef.json (read in place)", () => {
  const groups = JSON.parse(fs.readFileSync(path.join(SUITE, "dynamicRef.json"), "utf8")) as SuiteGroup[];
  const compiled = (group: SuiteGroup) => {
    try {
      return loadValidators(emitValidators({ document: group.schema, entries: [{ name: "X", pointer: "" }] }));
    } catch (error) {
      if (error instanceof ContractError) return error;
      throw error;
    }
  };
  // The groups within one schema resource: the others change the base URI (nested $id) on the way.
  const SUPPORTED = [
    "A $dynamicRef to a $dynamicAnchor in the same schema resource behaves like a normal $ref to an $anchor",
    "A $dynamicRef to an $anchor in the same schema resource behaves like a normal $ref to an $anchor",
    "A $ref to a $dynamicAnchor in the same schema resource behaves like a normal $ref to an $anchor",
    "$dynamicRef points to a boolean schema",
  ];

  it.each(SUPPORTED)("%s: every case passes", (description) => {
    const group = groups.find((g) => g.description === description)!;
    const module = compiled(group);
    expect(module).not.toBeInstanceOf(ContractError);
    const validators = module as Record<string, (value: unknown) => any>;
    for (const test of group.tests) {
      expect([test.description, validators["isX"]!(test.data), validators["validateX"]!(test.data).length === 0]).toEqual([test.description, test.valid, test.valid]);
    }
  });

  it("refuses each other group for a nested $id or a reference into another resource, never for $dynamicRef itself", () => {
    const others = groups.filter((g) => !SUPPORTED.includes(g.description));
    expect(others.length).toBe(groups.length - SUPPORTED.length);
    for (const group of others) {
      const result = compiled(group);
      expect(result, group.description).toBeInstanceOf(ContractError);
      expect((result as ContractError).reason, group.description).toMatch(/points outside the document|\$id is only supported at the document root/);
    }
  });
});
