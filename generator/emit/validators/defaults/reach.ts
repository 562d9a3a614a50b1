/**
 * Whether a unit or schema has defaults to fill, directly or through the units it reaches by
 * properties, items, allOf and `$ref`.
 */
import type { ValidatorCompiler } from "../compile.ts";
import type { Unit } from "../unit.ts";
import { Scans } from "./scan.ts";
import { SettledUnits } from "./settle.ts";

export class DefaultsReach {
  private readonly scans: Scans;
  private readonly settled: SettledUnits;

  constructor(private readonly compiler: ValidatorCompiler) {
    this.scans = new Scans(compiler);
    this.settled = new SettledUnits(compiler.units, this.scans);
  }

  unitHasDefaults(unit: Unit): boolean {
    const known = this.settled.answer(unit.pointer);
    if (known !== undefined) return known;
    // The walk creates the units it reaches (a `$ref` the validators never followed, e.g. under
    // `properties` of a string schema), in this order: kept as it is, for the stems they get.
    const seen = new Set<string>();
    const stack = [unit.pointer];
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      if (seen.has(at)) continue;
      seen.add(at);
      const scan = this.scans.ofUnit(at);
      if (scan.direct) return true;
      for (const ref of scan.refs) stack.push(ref);
    }
    return false;
  }

  /** For a subschema (not a unit of its own). */
  schemaHasDefaults(schema: unknown, at: string): boolean {
    const scan = this.scans.ofSchema(schema, at);
    return scan.direct || scan.refs.some((ref) => this.unitHasDefaults(this.compiler.unitAt(ref)));
  }
}
