/**
 * Code fragments carry the identifiers they reference (generator/emit/code.ts): the
 * emitter decides parameters, labels, kept declarations and imports from those names, never by
 * reading the text it wrote. Here the names are checked against the text all the same, with a
 * scanner that lives in the test only: for every declaration of the contract's module and of
 * random schemas' modules, the names are exactly the identifiers its code references (outside
 * string literals and comments, not after a dot, JavaScript's own words aside).
 */
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Block, code, name, raw, type Declaration } from "../../generator/emit/code.ts";
import { ValidatorCompiler } from "../../generator/emit/validators/compile.ts";
import { DefaultsCompiler } from "../../generator/emit/validators/defaults/index.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { loadContract } from "../../generator/load/contract.ts";
import { schema as randomSchema } from "./arbitraries.ts";
import { diagnosticsOf, moduleFiles, virtualRuntimeFiles } from "./support.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Words of JavaScript and TypeScript (and globals) that generated code uses without tracking them. */
const LANGUAGE_WORDS = new Set([
  "function", "return", "if", "else", "for", "in", "const", "let", "break", "typeof", "as", "new", "switch", "case", "default",
  "true", "false", "null", "undefined", "any", "boolean", "string", "number", "void", "unknown",
  "Array", "Number", "JSON", "Set", "ReadonlySet", "RegExp", "isFinite",
]);

/** Identifiers the text references: string literals and comments skipped, member names after a dot too. */
function referencedIn(lines: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const line of lines) {
    const code = line.replace(/"(?:[^"\\\n]|\\.)*"/g, '""').replace(/\/\*.*?\*\//g, "");
    for (const match of code.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*/g)) if (!LANGUAGE_WORDS.has(match[0])) found.add(match[0]);
  }
  return found;
}

/** Every declaration a module of `document` could keep: constants, unit functions, fill functions. */
function declarationsOf(document: object, pointers: readonly string[]): Declaration[] {
  const compiler = new ValidatorCompiler(document);
  const defaults = new DefaultsCompiler(compiler);
  for (const at of pointers) compiler.unitAt(at);
  const functions = compiler.compilePending();
  for (const unit of [...compiler.units.values()]) if (defaults.unitHasDefaults(unit)) functions.push(defaults.fillFunction(unit));
  // Pattern scans declare their own locals (`s`, `i`, `n`, …) and reference nothing else.
  const constants = compiler.constants.declarations.filter((declaration) => !declaration.name.startsWith("match_"));
  return [...constants, ...functions];
}

function expectNamesMatchText(declarations: readonly Declaration[]): void {
  for (const declaration of declarations) {
    const names = new Set(declaration.names);
    names.delete(declaration.name);
    const referenced = referencedIn(declaration.text.split("\n"));
    referenced.delete(declaration.name);
    expect([...names].sort(), declaration.text).toEqual([...referenced].sort());
  }
}

describe("fragment names are the identifiers the code references", () => {
  let document: object;
  let pointers: string[];

  beforeAll(async () => {
    const contract = await loadContract(path.join(repoRoot, "openapi/openapi.yaml"));
    document = contract.document;
    pointers = Object.keys(contract.document.components?.schemas ?? {}).map((schema) => `/components/schemas/${schema}`);
  });

  it("in the contract's declarations", () => {
    const declarations = declarationsOf(document, pointers);
    expect(declarations.length).toBeGreaterThan(50);
    expectNamesMatchText(declarations);
  });

  it("in random schemas' declarations", () => {
    fc.assert(
      fc.property(randomSchema, (schema) => {
        expectNamesMatchText(declarationsOf(schema as object, [""]));
      }),
      { numRuns: 400, seed: 20_261_124 },
    );
  });
});

describe("blocks", () => {
  it("know the names of the statements they keep, not of those after a jump", () => {
    const b = new Block().add(code`const ${name("x1")} = ${name("v")}.length;`).jump({ statement: raw("return false;"), target: "return" });
    b.add(code`${name("unreached")}();`);
    expect([...b.names].sort()).toEqual(["v", "x1"]);
    expect(b.lines).toEqual(["const x1 = v.length;", "return false;"]);
  });

  it("label a block only when a break inside uses the label", () => {
    const label = name("L1");
    const used = new Block().add(code`if (${name("v")}) break ${label};`);
    expect(new Block().labeled(label, used).indented(0)).toEqual(["L1: {", "  if (v) break L1;", "}"]);
    const unused = new Block().add(code`if (${name("v")}.L1) return false;`);
    expect(new Block().labeled(label, unused).indented(0)).toEqual(["{", "  if (v.L1) return false;", "}"]);
  });

  it("write interpolated strings as string literals, never as code", () => {
    const fragment = code`f(${'"); injected("'}, ${2.5})`;
    expect(fragment.text).toBe('f("\\"); injected(\\"", 2.5)');
    expect(fragment.names).toEqual([]);
  });
});

describe("property names are data", () => {
  // Named like a runtime helper, a unit function and a local: reading them references none of these.
  const document = {
    $defs: { T: { type: "integer" } },
    properties: { deepEqual: { type: "string" }, c_T: { $ref: "#/$defs/T" }, x1: { type: "string" }, own: { minLength: 1 } },
    required: ["deepEqual"],
  };
  const source = emitValidators({ document, entries: [{ name: "X", pointer: "" }] });

  it("import only the helpers the code calls", () => {
    expect(source.js.split("\n")[0]).toBe('import { addIssue, issuesOf } from "./runtime/validation.js";');
    expect(source.dts.split("\n")[0]).toBe('import type { ValidationIssue } from "./runtime/validation.js";');
  });

  it("compile with zero diagnostics", () => {
    const files = new Map([...moduleFiles("/virtual/validators", source), ...virtualRuntimeFiles()]);
    expect(diagnosticsOf(files)).toEqual([]);
  });
});
