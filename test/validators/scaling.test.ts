/**
 * The validator emitter scales with the document: on a wide generated document (schemas that
 * reference each other through properties, items, anyOf and an `allOf` inheritance chain, each
 * with a parameter-like `…/schema` unit, so a thousand units share one stem base) the emitter's
 * repeated steps — defaults walks, stem probes — grow in proportion to
 * the document, not with its square. Counted (`emitterWork`), not timed: deterministic on a
 * shared, noisy machine.
 *
 * Also: documents whose single function, `allOf` chain or module is larger than a call takes
 * arguments or the stack takes frames.
 */
import { describe, expect, it } from "vitest";
import { emitValidators, type ValidatorEntry } from "../../generator/emit/validators.ts";
import { emitterWork } from "../../generator/emit/validators/code.ts";
import { loadValidators } from "./support.ts";

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

type Work = typeof emitterWork;

/** The emitter's counted work for one document, and the module's line count. */
function measure(n: number, inherit: boolean): { work: Work; lines: number; source: string } {
  const { document, entries } = wideDocument(n, inherit);
  const before = { ...emitterWork };
  const source = emitValidators({ document, entries });
  const work = Object.fromEntries(Object.entries(emitterWork).map(([key, value]) => [key, value - before[key as keyof Work]])) as Work;
  return { work, lines: source.split("\n").length, source };
}

describe("work grows linearly with the document", () => {
  for (const inherit of [false, true]) {
    it(`150 → 1,500 schemas${inherit ? ", with an allOf inheritance chain" : ""}`, () => {
      const small = measure(150, inherit);
      const large = measure(1_500, inherit);
      // The module itself is linear: each schema's functions have the same shape.
      expect(large.lines / 1_500).toBeLessThan((small.lines / 150) * 1.1);
      for (const key of Object.keys(emitterWork) as (keyof Work)[]) {
        const perSchemaSmall = small.work[key] / 150;
        const perSchemaLarge = large.work[key] / 1_500;
        // Quadratic work would be about ten times more per schema; linear is the same (+1 for zeros).
        expect(perSchemaLarge, `${key}: ${small.work[key]} for 150 schemas, ${large.work[key]} for 1,500`).toBeLessThanOrEqual(perSchemaSmall * 1.5 + 1);
      }
      // Every unit has defaults (the chain ends in one); every export is there.
      expect(large.source.match(/^export function withDefaultsS\d+\b/gm)).toHaveLength(1_500);
      expect(large.source).toContain("function c_schema1500(");
    });
  }

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
    const source = emitValidators({ document: { $defs: { X: { type: "object", properties } } }, entries: [{ name: "X", pointer: "/$defs/X" }] });
    expect(source.split("\n").length).toBeGreaterThan(200_000);
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
    expect(source).toContain('export function withDefaultsC0<T>(value: T): T');
    expect(source).toContain('Top-level defaults: z: "z".');
  });
});
