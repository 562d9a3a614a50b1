/**
 * The defaults at the top level of a unit's schema (its own properties', and those it reaches
 * through `allOf` and `$ref`): the property names a `withDefaults…` input may leave out, and the
 * defaults its doc comment lists.
 */
import type { ValidatorCompiler } from "../compile.ts";
import type { Unit } from "../unit.ts";
import { isObject, type SchemaObject } from "../schema-object.ts";
import { hasDefault } from "./scan.ts";

const NO_SCHEMAS: readonly SchemaObject[] = [];

export class TopLevelDefaults {
  /** Per schema object, its list of schemas (see `memoized`). */
  private readonly lists = new Map<SchemaObject, readonly SchemaObject[]>();

  constructor(private readonly compiler: ValidatorCompiler) {}

  /** Names of the properties with a default. */
  names(unit: Unit): string[] {
    return [...new Set(this.defaults(unit).map(([name]) => name))];
  }

  /** The defaults, for the doc comment: `size: "1280*720"`. */
  describe(unit: Unit): string[] {
    return this.defaults(unit).map(([name, value]) => `${name}: ${JSON.stringify(value)}`);
  }

  /** Each property default, in the order of `schemas`, repeats included. */
  private defaults(unit: Unit): Array<[name: string, value: unknown]> {
    const found: Array<[string, unknown]> = [];
    for (const schema of this.schemas(unit)) {
      for (const [name, sub] of Object.entries(schema["properties"] as SchemaObject)) if (hasDefault(sub)) found.push([name, sub["default"]]);
    }
    return found;
  }

  /**
   * The schemas with a property default at the top level of the unit's schema: itself and what it
   * reaches through `allOf` and `$ref`, depth first (own properties, then `allOf` in order, then
   * the `$ref` target), each schema once, in the order first met.
   */
  private schemas(unit: Unit): readonly SchemaObject[] {
    return this.memoized(unit) ?? this.walk(unit);
  }

  /**
   * `schemas`, each schema's list computed once and reused by every unit that reaches it (an
   * inheritance chain of `allOf: [{$ref}]` would otherwise be walked again from each of its units:
   * quadratic), with its own stack. A schema's list is its own entry, then its `allOf` items'
   * lists, then its target's, the repeats dropped: on an acyclic graph exactly the order of the
   * walk. The validators refuse a cycle of same-value `$ref`s, so there is none here; undefined
   * if there is one anyway (the caller then walks).
   */
  private memoized(unit: Unit): readonly SchemaObject[] | undefined {
    return new ListWalk(this.lists, this.compiler).run(unit);
  }

  /** `schemas` by a plain walk: for the case `memoized` declines. */
  private walk(unit: Unit): SchemaObject[] {
    const found: SchemaObject[] = [];
    const seen = new Set<unknown>();
    const walk = (schema: unknown, at: string): void => {
      if (!isObject(schema) || seen.has(schema)) return;
      seen.add(schema);
      if (hasOwnDefaults(schema)) found.push(schema);
      const allOf = schema["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${at}/allOf/${index}`));
      for (const target of this.compiler.refTargetsOf(schema, at)) walk(target.schema, target.pointer);
    };
    walk(unit.schema, unit.pointer);
    return found;
  }
}

/** Whether one of the schema's own `properties` has a `default`. */
function hasOwnDefaults(schema: SchemaObject): boolean {
  const properties = schema["properties"];
  if (!isObject(properties)) return false;
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    if (hasDefault(properties[name])) return true;
  }
  return false;
}

/** The lists one after another, each schema at its first place only; a list is reused when it alone is not empty. */
function mergeFirstMet(lists: readonly (readonly SchemaObject[])[]): readonly SchemaObject[] {
  const filled = lists.filter((list) => list.length > 0);
  if (filled.length <= 1) return filled[0] ?? NO_SCHEMAS;
  const merged = new Set<SchemaObject>();
  for (const list of filled) for (const schema of list) merged.add(schema);
  return [...merged];
}

interface Frame {
  schema: SchemaObject;
  at: string;
  allOf: readonly unknown[];
  /** Next child: allOf items by index, then the `$ref` and `$dynamicRef` targets. */
  next: number;
  parts: (readonly SchemaObject[])[];
}

/** A schema's list, "cycle" when it is being computed, or undefined when its frame was pushed. */
type Entered = readonly SchemaObject[] | "cycle" | undefined;

/** One walk of `memoized`, with its own stack of frames; the lists it finishes go in `lists`. */
class ListWalk {
  private readonly active = new Set<SchemaObject>();
  private readonly frames: Frame[] = [];
  private result: readonly SchemaObject[] | undefined;

  constructor(
    private readonly lists: Map<SchemaObject, readonly SchemaObject[]>,
    private readonly compiler: ValidatorCompiler,
  ) {}

  run(unit: Unit): readonly SchemaObject[] | undefined {
    const first = this.enter(unit.schema, unit.pointer);
    if (first === "cycle") return undefined;
    if (first !== undefined) return first;
    while (this.frames.length > 0) {
      const frame = this.frames[this.frames.length - 1] as Frame;
      const child = this.nextChild(frame);
      if (child === "done") this.finish(frame);
      else if (child === "cycle") return undefined;
      else if (child !== undefined) frame.parts.push(child);
    }
    return this.result;
  }

  private enter(schema: unknown, at: string): Entered {
    if (!isObject(schema)) return NO_SCHEMAS;
    const known = this.lists.get(schema);
    if (known !== undefined) return known;
    if (this.active.has(schema)) return "cycle";
    this.active.add(schema);
    const allOf = schema["allOf"];
    const own = hasOwnDefaults(schema) ? [schema] : NO_SCHEMAS;
    this.frames.push({ schema, at, allOf: Array.isArray(allOf) ? allOf : [], next: 0, parts: [own] });
    return undefined;
  }

  /** The frame's next child entered, or "done" when it has none left. */
  private nextChild(frame: Frame): Entered | "done" {
    if (frame.next < frame.allOf.length) {
      const index = frame.next++;
      return this.enter(frame.allOf[index], `${frame.at}/allOf/${index}`);
    }
    const target = this.compiler.refTargetsOf(frame.schema, frame.at)[frame.next - frame.allOf.length];
    if (target !== undefined) {
      frame.next++;
      return this.enter(target.schema, target.pointer);
    }
    return "done";
  }

  /** The frame's list, memoized and handed to the frame below, or out as the result. */
  private finish(frame: Frame): void {
    this.frames.pop();
    this.active.delete(frame.schema);
    const list = mergeFirstMet(frame.parts);
    this.lists.set(frame.schema, list);
    const below = this.frames[this.frames.length - 1];
    if (below === undefined) this.result = list;
    else below.parts.push(list);
  }
}
