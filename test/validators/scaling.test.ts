/**
 * The validator emitter scales with the document: on a wide generated document (schemas that
 * reference each other through properties, items, anyOf and an `allOf` inheritance chain, each
 * with a parameter-like `…/schema` unit, so a thousand units share one stem base) its work grows
 * in proportion to the document, not with its square. Counted, not timed (deterministic on a
 * shared, noisy machine), and from outside: every repeated step of the emitter (a schema entered
 * in a walk, a stem tried, a name looked up) is a Map or Set lookup, so their calls are counted
 * while it runs — for the whole emission, for the
 * defaults phase alone (its walks over the graph of units) and for the unit names alone.
 *
 * Also: documents whose single function, `allOf` chain or module is larger than a call takes
 * arguments or the stack takes frames.
 */
import { describe, expect, it } from "vitest";
import { emitValidators, type ValidatorEntry } from "../../generator/emit/validators/modules.ts";
import { ValidatorCompiler } from "../../generator/emit/validators/compile.ts";
import { DefaultsCompiler } from "../../generator/emit/validators/defaults/index.ts";
import { Stems } from "../../generator/emit/validators/stems.ts";
import { Block, raw } from "../../generator/emit/code.ts";
import { moduleText } from "../../generator/emit/typescript.ts";
import { loadValidators } from "./support.ts";

type Method = (this: unknown, ...args: unknown[]) => unknown;
/**
 * Lookups only: insertions also follow the output, and the output may rightly grow faster than
 * the document (each schema's doc comment lists the defaults it inherits through the chain).
 */
const COUNTED: ReadonlyArray<[object, string]> = [
  [Map.prototype, "get"],
  [Map.prototype, "has"],
  [Set.prototype, "has"],
];

/** `run`'s result and the Map and Set lookups made while it ran. */
function countLookups<T>(run: () => T): { result: T; lookups: number } {
  let lookups = 0;
  const originals = COUNTED.map(([prototype, key]) => (prototype as Record<string, Method>)[key] as Method);
  COUNTED.forEach(([prototype, key], index) => {
    const original = originals[index] as Method;
    (prototype as Record<string, Method>)[key] = function (this: unknown, ...args: unknown[]) {
      lookups++;
      return original.apply(this, args);
    };
  });
  try {
    const result = run();
    return { result, lookups };
  } finally {
    COUNTED.forEach(([prototype, key], index) => ((prototype as Record<string, Method>)[key] = originals[index] as Method));
  }
}

/** Quadratic work would be about ten times more per schema at ten times the size; linear is the same (+1 for zeros). */
function expectLinear(what: string, small: number, large: number, smallSize: number, largeSize: number): void {
  expect(large / largeSize, `${what}: ${small} for ${smallSize}, ${large} for ${largeSize}`).toBeLessThanOrEqual((small / smallSize) * 1.5 + 1);
}

/**
 * `n` schemas: S_i has a property chain to S_{i+1} (the last one has a default, so every unit
 * reaches it), a link back to S_{i/2}, an array of P_i's schema (units named "schema", "schema2", …),
 * an anyOf with S_{7i mod n}; with `inherit`, S_i also extends S_{i+1} through `allOf`.
 */
function wideDocument(n: number, inherit: boolean): { document: object; entries: ValidatorEntry[] } {
  const schemas: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? { $ref: `#/components/schemas/S${i + 1}` } : { type: "string", default: "end" };
    schemas[`S${i}`] = {
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string", minLength: 1 },
        next,
        back: { $ref: `#/components/schemas/S${Math.floor(i / 2)}` },
        list: { type: "array", items: { $ref: `#/x-parameters/P${i}/schema` } },
        kind: { anyOf: [{ type: "string", enum: ["a", "b"] }, { $ref: `#/components/schemas/S${(i * 7) % n}` }] },
        ...(i % 10 === 0 ? { level: { type: "integer", default: i } } : {}),
      },
      ...(inherit && i + 1 < n ? { allOf: [{ $ref: `#/components/schemas/S${i + 1}` }] } : {}),
    };
    parameters[`P${i}`] = { schema: { type: "integer", minimum: i } };
  }
  const entries = Array.from({ length: n }, (_, i) => ({ name: `S${i}`, pointer: `/components/schemas/S${i}` }));
  return { document: { components: { schemas }, "x-parameters": parameters }, entries };
}

/** The emission of the wide document: its lookups and the module. */
function emission(n: number, inherit: boolean): { lookups: number; lines: number; source: string } {
  const { document, entries } = wideDocument(n, inherit);
  const { result: source, lookups } = countLookups(() => emitValidators({ document, entries }).js);
  return { lookups, lines: source.split("\n").length, source };
}

/** The lookups of the defaults phase alone, as emitValidatorModules runs it after compiling. */
function defaultsPhase(n: number, inherit: boolean): number {
  const { document, entries } = wideDocument(n, inherit);
  const compiler = new ValidatorCompiler(document);
  const defaults = new DefaultsCompiler(compiler);
  const roots = entries.map((entry) => compiler.unitAt(entry.pointer, entry.name));
  compiler.compilePending();
  return countLookups(() => {
    for (const unit of roots) {
      if (!defaults.unitHasDefaults(unit)) continue;
      defaults.topLevelDefaults(unit);
      defaults.describeTopLevel(unit);
    }
    for (const unit of compiler.units.values()) if (defaults.unitHasDefaults(unit)) defaults.fillFunction(unit);
  }).lookups;
}

describe("work grows linearly with the document", () => {
  for (const inherit of [false, true]) {
    const shape = inherit ? ", with an allOf inheritance chain" : "";
    it(`150 → 1,500 schemas${shape}`, () => {
      const small = emission(150, inherit);
      const large = emission(1_500, inherit);
      // The module itself is linear: each schema's functions have the same shape.
      expect(large.lines / 1_500).toBeLessThan((small.lines / 150) * 1.1);
      expectLinear("emission", small.lookups, large.lookups, 150, 1_500);
      // Every unit has defaults (the chain ends in one); every export is there.
      expect(large.source.match(/^export function withDefaultsS\d+\b/gm)).toHaveLength(1_500);
      expect(large.source).toContain("function c_schema1500(");
    });

    it(`150 → 1,500 schemas${shape}: the defaults phase`, () => {
      expectLinear("defaults", defaultsPhase(150, inherit), defaultsPhase(1_500, inherit), 150, 1_500);
    });
  }

  it("200 → 2,000 stems on one base", () => {
    const take = (n: number) => {
      const stems = new Stems();
      return countLookups(() => Array.from({ length: n }, () => stems.take("schema")));
    };
    const small = take(200);
    const large = take(2_000);
    expectLinear("stems", small.lookups, large.lookups, 200, 2_000);
    expect(large.result.slice(0, 3)).toEqual(["schema", "schema2", "schema3"]);
    expect(new Set(large.result).size).toBe(2_000);
  });

  it("the wide module works", () => {
    const { document, entries } = wideDocument(40, false);
    const validators = loadValidators(emitValidators({ document, entries }));
    const value = { id: "a", next: { id: "b", list: [39] }, back: { id: "c" }, kind: "a" };
    expect(validators["isS38"]?.(value)).toBe(true);
    expect(validators["validateS38"]?.({ ...value, next: { id: "b", list: [38] } })).toEqual([
      expect.objectContaining({ path: "/next/list/0", keyword: "minimum", schemaPath: "/x-parameters/P39/schema/minimum" }),
    ]);
    expect(validators["withDefaultsS38"]?.({ id: "x", next: { id: "y" } })).toEqual({ id: "x", next: { id: "y", next: "end" } });
    expect(validators["withDefaultsS30"]?.({ id: "x" })).toEqual({ id: "x", level: 30 });
  });
});

describe("no limit on sizes but memory", () => {
  it("a function with more lines than a call takes arguments (30,000 properties)", () => {
    const properties = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`p${i}`, { type: "string", minLength: 1 }]));
    const source = emitValidators({ document: { $defs: { X: { type: "object", properties } } }, entries: [{ name: "X", pointer: "/$defs/X" }] }).js;
    expect(source.split("\n").length).toBeGreaterThan(200_000);
  });

  it("a TypeScript module (the client's, Graph's) with more lines than a call takes arguments", () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => raw(`const a${i} = ${i};`));
    const text = moduleText([[raw("// first")], [new Block().add(...lines.slice(0, 10))], lines]);
    expect(text.split("\n").length).toBe(300_014);
    expect(text.endsWith("const a299999 = 299999;\n")).toBe(true);
  });

  it("an allOf chain deeper than the call stack (15,000 schemas), defaults at its end", () => {
    const n = 15_000;
    const defs = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `C${i}`,
        i + 1 < n ? { allOf: [{ $ref: `#/$defs/C${i + 1}` }], properties: { [`a${i}`]: { type: "string" } } } : { type: "object", properties: { z: { type: "string", default: "z" } } },
      ]),
    );
    const source = emitValidators({ document: { $defs: defs }, entries: [{ name: "C0", pointer: "/$defs/C0" }] });
    expect(source.dts).toContain("export declare function withDefaultsC0<T>(value: T): T;");
    expect(source.dts).toContain('Top-level defaults: z: "z".');
  });
});
