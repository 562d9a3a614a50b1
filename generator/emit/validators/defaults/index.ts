/**
 * `withDefaults…` support: for a unit whose schema has `default`s reachable through `properties`
 * (recursively through `properties`, `items`, `allOf` and `$ref`), a function `f_<Stem>(o)` that
 * fills missing properties of an already copied value in place. Defaults under `anyOf`, `oneOf`,
 * `if`/`then`/`else` or `prefixItems` are not applied: which branch applies is not known up front.
 *
 * The parts are in defaults/: which units have defaults (reach.ts, scan.ts, settle.ts), the
 * top-level defaults of an entry (top-level.ts), the fill functions (fill.ts).
 */
import type { Declaration } from "../../code.ts";
import type { ValidatorCompiler } from "../compile.ts";
import type { Unit } from "../unit.ts";
import { FillFunctions, fillName } from "./fill.ts";
import { DefaultsReach } from "./reach.ts";
import { TopLevelDefaults } from "./top-level.ts";

export class DefaultsCompiler {
  private readonly reach: DefaultsReach;
  private readonly topLevel: TopLevelDefaults;
  private readonly fills: FillFunctions;

  constructor(compiler: ValidatorCompiler) {
    this.reach = new DefaultsReach(compiler);
    this.topLevel = new TopLevelDefaults(compiler);
    this.fills = new FillFunctions(compiler, this.reach);
  }

  /** Name of the fill function of a unit. */
  fillName(unit: Unit): string {
    return fillName(unit);
  }

  /** Whether the unit's schema has defaults to fill, directly or through the units it reaches. */
  unitHasDefaults(unit: Unit): boolean {
    return this.reach.unitHasDefaults(unit);
  }

  /** The properties with a default at the top level of the unit's schema: the ones the `withDefaults…` input may leave out. */
  topLevelDefaults(unit: Unit): string[] {
    return this.topLevel.names(unit);
  }

  /** The defaults of the top level, for the doc comment: `size: "1280*720"`. */
  describeTopLevel(unit: Unit): string[] {
    return this.topLevel.describe(unit);
  }

  /** `function f_X(o) { … }` */
  fillFunction(unit: Unit): Declaration {
    return this.fills.declaration(unit);
  }
}
