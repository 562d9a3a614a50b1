/**
 * The emitted module type-checks: for the project contract (with its openapi-typescript types as
 * the guards' types) and for a hostile schema whose names, enum values, patterns, defaults and
 * descriptions try to break out of strings and comments. Strict TypeScript and then some
 * (noUnusedLocals/Parameters, no unreachable code, no unused labels), zero diagnostics.
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { emitSchemaTypes } from "../../generator/emit/schema-types/index.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { loadContract, type LoadedContract } from "../../generator/load/contract.ts";
import * as esbuild from "esbuild";
import fc from "fast-check";
import { schema as randomSchema } from "./arbitraries.ts";
import { diagnosticsOf, loadValidators, moduleFiles, transpile, virtualRuntimeFiles, runtime } from "./support.ts";
import type { EmittedModule } from "../../generator/emit/output-file.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** The source without its comments (which may well mention `eval`). */
function codeOnly(source: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, source);
  let code = "";
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token !== ts.SyntaxKind.SingleLineCommentTrivia && token !== ts.SyntaxKind.MultiLineCommentTrivia) code += scanner.getTokenText();
  }
  return code;
}

function modules(validators: EmittedModule, types?: string): Map<string, string> {
  const files = new Map([
    ...moduleFiles("/virtual/validators", validators),
    ...virtualRuntimeFiles(),
  ]);
  if (types !== undefined) files.set("/virtual/schema.ts", types);
  return files;
}

describe("the contract's validators", () => {
  let contract: LoadedContract;
  let source: EmittedModule;
  let types: string;

  beforeAll(async () => {
    contract = await loadContract(path.join(repoRoot, "openapi/openapi.yaml"));
    types = await emitSchemaTypes(contract);
    const names = Object.keys(contract.document.components?.schemas ?? {});
    source = emitValidators({
      document: contract.document,
      entries: names.map((name) => ({ name, pointer: `/components/schemas/${name}`, typeName: `components["schemas"][${JSON.stringify(name)}]` })),
      typeImport: 'import type { components } from "./schema.js";',
    });
  });

  it("cover every schema", () => {
    for (const name of Object.keys(contract.document.components?.schemas ?? {})) {
      expect(source.js).toContain(`export function is${name}(value) {`);
      expect(source.js).toContain(`export function validate${name}(value) {`);
      expect(source.dts).toContain(`export declare function is${name}(value: unknown): value is components["schemas"][${JSON.stringify(name)}];`);
      expect(source.dts).toContain(`export declare function validate${name}(value: unknown): ValidationIssue[];`);
    }
  });

  it("compile with zero diagnostics", () => {
    expect(diagnosticsOf(modules(source, types))).toEqual([]);
  });

  it("would report TypeScript left in the JavaScript, or a type error in the declarations (the check can fail)", () => {
    const typedJs = { ...source, js: source.js.replace("return c_Pod(value);", "return c_Pod(value) as unknown as string;") };
    expect(typedJs.js).not.toBe(source.js);
    expect(diagnosticsOf(modules(typedJs, types)).join("\n")).toMatch(/can only be used in TypeScript files/);
    const wrongType = { ...source, dts: source.dts.replace('value is components["schemas"]["Pod"]', 'value is components["schemas"]["NoSuchSchema"]') };
    expect(wrongType.dts).not.toBe(source.dts);
    expect(diagnosticsOf(modules(wrongType, types)).length).toBeGreaterThan(0);
  });

  it("tree-shake: a bundle using one guard keeps only what it needs", async () => {
    const bundle = await esbuild.build({
      stdin: { contents: 'import { isPort } from "./validators.ts"; console.log(isPort("22/tcp"));', resolveDir: "/virtual", loader: "ts" },
      bundle: true,
      format: "esm",
      write: false,
      logLevel: "silent",
      plugins: [
        {
          name: "virtual",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => ({ path: path.posix.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")), namespace: "virtual" }));
            build.onLoad({ filter: /.*/, namespace: "virtual" }, (args) => {
              const files: Record<string, string> = { "/virtual/validators.ts": source.js, ...Object.fromEntries(virtualRuntimeFiles()), "/virtual/schema.ts": types };
              return { contents: files[args.path] ?? "", loader: "ts", resolveDir: path.posix.dirname(args.path) };
            });
          },
        },
      ],
    });
    const code = bundle.outputFiles[0]?.text ?? "";
    expect(code).toContain("function c_Port(");
    expect(code).not.toMatch(/c_Pod\b|e_Port|validUri|validDateTime|\^sync-/);
  });

  it("never evaluate code", () => {
    expect(codeOnly(source.js)).not.toMatch(/\beval\b|new Function|\bFunction\(/);
    for (const [file, runtimeSource] of virtualRuntimeFiles()) expect(codeOnly(runtimeSource), file).not.toMatch(/\beval\b|new Function|\bFunction\(|\bimport\s*\(|\brequire\(/);
  });
});

/** Contract text that tries to end strings, comments or declarations early. */
const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "a-b",
  "1x",
  "default",
  "class",
  "*/",
  "/*",
  '"quote"',
  "'single'",
  "`tick`",
  "${x}",
  "line\u2028sep",
  "para\u2029sep",
  "new\nline",
  "back\\slash",
  "tilde~/slash",
  '"; globalThis.injected = 1; "',
  "*/ globalThis.injected = 1; /*",
  "`; globalThis.injected = 1; `",
  "\u202Ertl",
];

function escapeRegExp(text: string): string {
  // Only syntax characters and "/" may be escaped under the u flag ("\\-" is an error there).
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Built through JSON text so "__proto__" members are data, as in a parsed contract (in an object
 * literal `__proto__:` sets the prototype; `__proto__KEY` stands in for it until the JSON stage).
 */
function hostileDocument(): object {
  const properties = Object.fromEntries(
    HOSTILE.map((name) => [
      name,
      { type: "string", title: name, description: `${name} */ ${name}`, enum: [name, `${name}!`], default: name, pattern: escapeRegExp(name) },
    ]),
  );
  const schema = {
    type: "object",
    title: HOSTILE.join(" "),
    description: HOSTILE.join("\n"),
    required: HOSTILE,
    properties,
    patternProperties: { "^\\*/": { const: "*/" }, "\u2028": { const: "\u2029" }, "[\"'`]": { pattern: "\\$\\{x\\}" } },
    additionalProperties: { const: { __proto__KEY: "*/", "`${x}`": "\u2028", "\"'": ["*/", "/*"] } },
    propertyNames: { not: { const: "\u2029" } },
    dependentRequired: { "*/": ["__proto__"], "${x}": ["`tick`"] },
    $defs: { "*/": { type: "integer", minimum: -1, description: "*/" } },
    allOf: [{ properties: { "'single'": { $ref: "#/components/schemas/Hostile/$defs/*~1" } } }, { properties: { nested: { properties: { __proto__KEY: { type: "object", properties: { polluted: { type: "boolean" } }, default: { "*/": "\u2028" } } } } } }],
    "x-*/": "*/",
    examples: [{ "*/": "*/" }],
  };
  return JSON.parse(JSON.stringify({ openapi: "3.1.0", components: { schemas: { Hostile: schema } } }).replaceAll('"__proto__KEY"', '"__proto__"'));
}

describe("a hostile schema", () => {
  const document = hostileDocument();
  const typeName = "Record<string, unknown>";
  const source = emitValidators({ document, entries: [{ name: "Hostile", pointer: "/components/schemas/Hostile", typeName }] });

  it("compiles with zero diagnostics", () => {
    expect(diagnosticsOf(modules(source))).toEqual([]);
  });

  it("keeps line separators and bidi controls escaped, and contract text in doc comments only", () => {
    for (const text of [source.js, source.dts]) expect(text).not.toMatch(/[\u2028\u2029\u202A-\u202E\u2066-\u2069]/);
    const comments = (text: string): string[] => {
      const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, text);
      const found: string[] = [];
      for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
        if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) found.push(scanner.getTokenText());
      }
      return found;
    };
    // The code has pure-call annotations only; the declarations one doc comment per exported function (is, validate, withDefaults).
    expect(comments(source.js).filter((comment) => comment !== "/* @__PURE__ */")).toEqual([]);
    const docs = comments(source.dts);
    expect(docs.length).toBe(3);
    for (const comment of docs) expect(comment.startsWith("/**\n") && comment.endsWith("\n */")).toBe(true);
  });

  it("runs without injecting anything, and validates by the hostile names", () => {
    const js = transpile(source.js);
    const exports: Record<string, (value: unknown) => any> = {};
    const context = vm.createContext({
      exports,
      require: (specifier: string) => {
        if (specifier !== "./runtime/validation.js" && specifier !== "./runtime/formats.js") throw new Error(specifier);
        return runtime;
      },
    });
    vm.runInContext(js, context);
    expect(context["injected"]).toBeUndefined();
    expect((globalThis as Record<string, unknown>)["injected"]).toBeUndefined();

    const valid = JSON.parse(JSON.stringify(Object.fromEntries(HOSTILE.map((name) => [name, name]))));
    valid["'single'"] = 5;
    const isHostile = exports["isHostile"] as (value: unknown) => boolean;
    const validateHostile = exports["validateHostile"] as (value: unknown) => Array<{ path: string; keyword: string }>;
    expect(isHostile(valid)).toBe(false);
    // 'single' must be a string (its own schema) and an integer >= -1 (allOf's $ref): 5 fails the first only;
    // the patternProperties catch keys with quotes, "*/" or U+2028, and their values do not match.
    expect(validateHostile(valid).map((issue) => `${issue.path} ${issue.keyword}`)).toEqual([
      "/'single' type",
      '/"quote" pattern',
      "/`tick` pattern",
      "/line\u2028sep const",
      '/"; globalThis.injected = 1; " pattern',
      "/*~1 globalThis.injected = 1; ~1* const",
      "/`; globalThis.injected = 1; ` pattern",
    ]);

    const missing = JSON.parse(JSON.stringify(valid));
    delete missing["constructor"];
    delete missing["__proto__"];
    expect(validateHostile(missing).filter((issue) => issue.keyword === "required").length).toBe(2);

    const filled = (exports["withDefaultsHostile"] as (value: unknown) => any)({ nested: {} });
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(Object.hasOwn(filled, "__proto__")).toBe(true);
    expect(filled["__proto__"]).toBe("__proto__");
    expect(Object.hasOwn(filled.nested, "__proto__")).toBe(true);
    expect(filled.nested["__proto__"]).toEqual({ "*/": "\u2028" });
    expect(filled["${x}"]).toBe("${x}");
    expect(({} as Record<string, unknown>)["*/"]).toBeUndefined();
  });
});

/** Edge forms: trivial and impossible subschemas everywhere a schema may go. */
const EDGE_SCHEMAS: unknown[] = [
  { anyOf: [{}, { type: "string" }], oneOf: [{}, { title: "t" }, false], allOf: [{}, true] },
  { anyOf: [{ not: {} }, { type: "string" }, { description: "anything" }] },
  { anyOf: [false, false], oneOf: [false] },
  { not: {}, type: "string" },
  { not: false, if: {}, then: { type: "string" }, else: { type: "number" } },
  { if: false, then: false, else: {} },
  { if: { type: "string" }, then: false },
  { if: { type: "string" }, else: false },
  { if: { $ref: "#/$defs/s" }, $defs: { s: { type: "string" } } },
  { contains: {}, minContains: 2, maxContains: 3 },
  { contains: false, minContains: 0 },
  { contains: { not: {} } },
  { items: false, prefixItems: [false, {}, true] },
  { items: { not: {} } },
  { properties: { a: false, b: {}, c: true, d: { not: {} } }, required: ["a", "b", "c", "d"] },
  { additionalProperties: false },
  { additionalProperties: { not: {} }, patternProperties: { "^x": false } },
  { propertyNames: false },
  { propertyNames: {}, dependentSchemas: { a: false, b: {} }, dependentRequired: { a: [] } },
  { type: [], enum: [] },
  { enum: [1, "a", null, true, { a: [1] }, [1, 2], 2, 3, 4, 5, 6, 7] },
  { minLength: 0, maxLength: 0, minItems: 0, minProperties: 0, multipleOf: 0.01, uniqueItems: false },
  // Patterns scanned without a RegExp (validators/patterns.ts), of every shape the scan emits.
  { pattern: "^$" },
  { pattern: "^a*b*$" },
  { pattern: "^x" },
  { pattern: "^[0-9]{1,5}/[a-z]+$" },
  { pattern: "^\\d{4}-[ab]?$" },
  { patternProperties: { "^[a-c]+$": { type: "string" } }, additionalProperties: false, propertyNames: { pattern: "^\\w{2,}" } },
  // unevaluated*: static, through branches, through a recursive $ref, and a pattern without the u flag.
  { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false, unevaluatedItems: false },
  { anyOf: [{ patternProperties: { "[\\-\\:]": {} } }, { dependentSchemas: { a: { properties: { b: {} } } } }], unevaluatedProperties: { type: "string" } },
  { if: { prefixItems: [{}] }, then: { contains: { type: "string" } }, else: { items: true }, unevaluatedItems: { not: {} } },
  { $defs: { t: { properties: { n: { $ref: "#/$defs/t" } }, anyOf: [true, { $ref: "#/$defs/t" }, { required: ["a"], properties: { a: {} } }] } }, $ref: "#/$defs/t", unevaluatedProperties: false },
];

describe("edge-case and random schemas", () => {
  it("compile with zero diagnostics", () => {
    // 60 random schemas in CI; VALIDATORS_COMPILE_SAMPLES (and _SEED) for a wider search.
    const count = Number(process.env["VALIDATORS_COMPILE_SAMPLES"] ?? 60);
    const seed = Number(process.env["VALIDATORS_COMPILE_SEED"] ?? 20261122);
    const samples = [...EDGE_SCHEMAS, ...fc.sample(randomSchema, { numRuns: count, seed })];
    const files = new Map<string, string>([
      ...virtualRuntimeFiles(),
    ]);
    samples.forEach((sample, index) => {
      for (const [file, text] of moduleFiles(`/virtual/schema${index}`, emitValidators({ document: sample as object, entries: [{ name: "X", pointer: "" }] }))) files.set(file, text);
    });
    expect(diagnosticsOf(files)).toEqual([]);
  }, 600_000);
});

describe("the suite's unevaluated* schemas", () => {
  it("compile with zero diagnostics", () => {
    const suite = path.resolve(repoRoot, "../shared/suites/json-schema-test-suite/tests/draft2020-12");
    const files = new Map<string, string>(virtualRuntimeFiles());
    for (const file of ["unevaluatedProperties.json", "unevaluatedItems.json"]) {
      const groups = JSON.parse(fs.readFileSync(path.join(suite, file), "utf8")) as Array<{ description: string; schema: object }>;
      groups.forEach((group, index) => {
        if (JSON.stringify(group.schema).includes("$dynamicRef")) return;
        for (const [name, text] of moduleFiles(`/virtual/${file.replace(".json", "")}${index}`, emitValidators({ document: group.schema, entries: [{ name: "X", pointer: "" }] }))) files.set(name, text);
      });
    }
    expect(files.size).toBeGreaterThan(60);
    expect(diagnosticsOf(files)).toEqual([]);
  }, 600_000);
});

describe("equality checks that exclude each other", () => {
  it("compile: a comparison does not narrow the value for the next one (enum then const, two allOf consts)", () => {
    const schemas = {
      EnumThenConst: { type: "string", enum: ["a"], const: "b" },
      BooleanConsts: { allOf: [{ const: false }, { const: true }] },
      InProperty: { type: "object", properties: { k: { type: "string", enum: ["x"], allOf: [{ const: "y" }] } } },
    };
    const source = emitValidators({
      document: { openapi: "3.1.0", components: { schemas } },
      entries: Object.keys(schemas).map((name) => ({ name, pointer: `/components/schemas/${name}` })),
    });
    expect(diagnosticsOf(modules(source))).toEqual([]);
    const loaded = loadValidators(source);
    expect(loaded["isEnumThenConst"]!("a")).toBe(false);
    expect(loaded["isInProperty"]!({ k: "x" })).toBe(false);
    expect(loaded["isInProperty"]!({})).toBe(true);
  });
});
