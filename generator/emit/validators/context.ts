/**
 * What the code of one (sub)schema is generated in: the unit it belongs to, the mode (boolean fast
 * path or issue collection), the value's expression and JSON pointer, where a failure jumps, and
 * the compilation's shared parts (constants, `$ref` targets, subschema code).
 */
import { name, type Block, type Code, type Jump, type Scope } from "../code.ts";
import type { ModuleConstants } from "./constants.ts";
import type { Discriminators } from "./discriminator.ts";
import type { SameInstanceRefs } from "./recursion.ts";
import type { RefKeyword } from "./resolve.ts";
import type { Unit } from "./unit.ts";
import type { Direction } from "../../common/read-write.ts";

/**
 * The compilation, as keyword code sees it. Subschema code is reached through here rather than by
 * importing schema.ts, which imports every keyword module.
 */
export interface Env {
  readonly constants: ModuleConstants;
  readonly recursion: SameInstanceRefs;
  /** What each `discriminator` selects (see discriminator.ts). */
  readonly discriminators: Discriminators;
  /** The keywords the validators check (the rest are annotations). */
  readonly assertionKeywords: ReadonlySet<string>;
  /** The unit of the schema a `$ref` or `$dynamicRef` (found at `at`) points to, checked in `view` (the referring unit's). */
  refTarget(ref: unknown, at: string, keyword?: RefKeyword, view?: Direction): Unit;
  /** The names of a schema's `required` that a unit in `view` leaves out. */
  hiddenRequired(schema: Record<string, unknown>, view: Direction | undefined): readonly string[];
  /** The code of a subschema. */
  gen(schema: unknown, at: string, ctx: Ctx): Block;
  /** The code of a subschema applied to the same value (see schema.ts). */
  genSame(schema: unknown, at: string, ctx: Ctx): Block;
}

export interface Ctx {
  env: Env;
  scope: Scope;
  mode: "bool" | "collect";
  /** Identifier holding the value being checked. */
  v: Code;
  /** Boolean mode: where a failed check goes. */
  fail: Jump;
  /** Collect mode: expression of the value's JSON pointer. */
  path: Code;
  /** False once the code has descended into a property or item (for the recursion check). */
  sameInstance: boolean;
  unit: Unit;
}

/** The parameters of the unit functions: the value, its JSON pointer, the issues collected. */
export const VALUE = name("v");
export const PATH = name("p");
export const ISSUES = name("issues");
/** The collecting function's fourth parameter: the JSON pointer of the schema it checks against. */
export const SCHEMA_AT = name("s");

/** The context for a property or item held in `v`, at `path`. */
export function child(ctx: Ctx, v: Code, path: Code): Ctx {
  return { ...ctx, v, path, sameInstance: false };
}
