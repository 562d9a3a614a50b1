/**
 * Schemas, compared as the package's user meets them: narrower is breaking for what they send
 * (input), wider is breaking for what they receive (output). Each component schema is an exported
 * type, compared once per direction it is used in; a `$ref` to the same component stops there.
 */
import { isDeepStrictEqual } from "node:util";
import { escapeSegment, pointer as toPointer } from "../../../generator/common/json-pointer.ts";
import type { Json } from "../contract.ts";
import type { Bump } from "../semver.ts";
import { DOC_KEYS, union, type DiffContext, type Direction } from "./context.ts";

/** `[keyword, which way is narrower]`. */
const BOUNDS: Array<[string, "min" | "max" | "flag" | "other"]> = [
  ["minimum", "min"],
  ["exclusiveMinimum", "min"],
  ["maximum", "max"],
  ["exclusiveMaximum", "max"],
  ["minLength", "min"],
  ["maxLength", "max"],
  ["minItems", "min"],
  ["maxItems", "max"],
  ["minProperties", "min"],
  ["maxProperties", "max"],
  ["uniqueItems", "flag"],
  ["multipleOf", "other"],
  ["pattern", "other"],
  ["format", "other"],
];
const HANDLED_SCHEMA_KEYS = new Set([
  "$ref", "type", "enum", "const", "default", "properties", "required", "additionalProperties", "items", "prefixItems", "allOf", "anyOf", "oneOf",
  ...BOUNDS.map(([k]) => k),
]);
/** Extensions the generator reads, compared by their own rules; any other `x-` key documents. */
const SCHEMA_EXTENSIONS_MINOR = new Set(["x-terminal-statuses"]);

export class SchemaDiff {
  /** Pairs of schema pointers already compared (refs can be cyclic). */
  readonly #compared = new Set<string>();

  constructor(
    readonly cx: DiffContext,
    /** Component schema name → the directions it is used in (both contracts together). */
    readonly usage: ReadonlyMap<string, ReadonlySet<Direction>>,
  ) {}

  #add(bump: Bump, at: string, message: string): void {
    this.cx.add(bump, at, message);
  }

  /** `components.schemas`, by name. */
  components(): void {
    const a = (this.cx.base.document as Json).components?.schemas ?? {};
    const b = (this.cx.head.document as Json).components?.schemas ?? {};
    for (const name of union(Object.keys(a), Object.keys(b))) {
      const at = toPointer("components", "schemas", name);
      if (!(name in b)) this.#add("major", at, `removed schema ${name} (its exported type goes)`);
      else if (!(name in a)) this.#add("minor", at, `new schema ${name}`);
      else {
        // A schema nothing uses is still an exported type: both directions count.
        const contexts = this.usage.get(name) ?? new Set<Direction>(["input", "output"]);
        for (const context of [...contexts].sort()) this.compare(a[name], b[name], at, at, context);
      }
    }
  }

  /**
   * Compares two schemas as seen from `context`. Component schemas reached by `$ref` are compared
   * once on their own (by `components`), so equal refs stop here.
   */
  compare(a: Json, b: Json, atA: string, atB: string, context: Direction): void {
    if (a === undefined && b === undefined) return;
    if (a === undefined || b === undefined) {
      if (a === undefined) this.#add(context === "input" ? "major" : "minor", atB, `a schema was added where there was none (${context})`);
      else this.#add(context === "input" ? "minor" : "major", atA, `the schema was removed (${context})`);
      return;
    }
    if (isRef(a) && isRef(b)) {
      // The target is compared on its own, as a component.
      if (a.$ref !== b.$ref) this.#add("major", atB, `now refers to ${b.$ref} instead of ${a.$ref} (${context})`);
      return;
    }
    if (isRef(a) || isRef(b)) {
      const ra = this.cx.base.deref<Json>(a, atA);
      const rb = this.cx.head.deref<Json>(b, atB);
      a = ra.value;
      b = rb.value;
      atA = ra.pointer;
      atB = rb.pointer;
    }
    const key = `${context}|${atA}|${atB}`;
    if (this.#compared.has(key)) return;
    this.#compared.add(key);
    if (typeof a === "boolean" || typeof b === "boolean") {
      if (a !== b) this.#add("major", atB, `schema changed from ${JSON.stringify(a)} to ${JSON.stringify(b)}`);
      return;
    }
    const narrowed = (what: string) => this.#add("major", atB, `${what} (${context})`);
    const widened = (what: string) => this.#add(context === "input" ? "minor" : "major", atB, `${what} (${context})`);

    // type
    const typesA = typeSet(a);
    const typesB = typeSet(b);
    if (!sameSet(typesA, typesB)) {
      const descA = typesA ? [...typesA].sort().join(" | ") : "any";
      const descB = typesB ? [...typesB].sort().join(" | ") : "any";
      if (typesB === undefined) widened(`type widened from ${descA} to any`);
      else if (typesA === undefined || isSubset(typesB, typesA)) narrowed(`type narrowed from ${descA} to ${descB}`);
      else if (isSubset(typesA, typesB)) widened(`type widened from ${descA} to ${descB}`);
      else narrowed(`type changed from ${descA} to ${descB}`);
    }

    // enum and const
    const enumA = enumOf(a);
    const enumB = enumOf(b);
    if (enumA === undefined && enumB !== undefined) narrowed(`restricted to the values ${list(enumB)}`);
    else if (enumA !== undefined && enumB === undefined) this.#add("minor", atB, `no longer restricted to ${list(enumA)} (${context})`);
    else if (enumA && enumB) {
      const removed = enumA.filter((v) => !enumB.some((w) => isDeepStrictEqual(v, w)));
      const added = enumB.filter((v) => !enumA.some((w) => isDeepStrictEqual(v, w)));
      for (const value of removed) this.#add("major", `${atB}/enum`, `removed enum value ${JSON.stringify(value)} (${context})`);
      for (const value of added) this.#add("minor", `${atB}/enum`, `new enum value ${JSON.stringify(value)} (${context})`);
    }

    // bounds
    for (const [bound, direction] of BOUNDS) {
      const va = a[bound];
      const vb = b[bound];
      if (isDeepStrictEqual(va, vb)) continue;
      let tighter: boolean;
      if (vb === undefined) tighter = false;
      else if (va === undefined) tighter = !(direction === "flag" && vb === false);
      else if (direction === "min") tighter = vb > va;
      else if (direction === "max") tighter = vb < va;
      else if (direction === "flag") tighter = vb === true;
      else tighter = true; // a new pattern, format or multipleOf: assume narrower
      const message = `${bound} ${va === undefined ? "added" : vb === undefined ? "removed" : "changed"}: ${JSON.stringify(va ?? null)} → ${JSON.stringify(vb ?? null)}`;
      const at = `${atB}/${escapeSegment(bound)}`;
      if (tighter) this.#add(context === "input" ? "major" : "minor", at, `${message}, narrower (${context})`);
      else this.#add("minor", at, `${message}, wider (${context})`);
    }

    // default
    if (!isDeepStrictEqual(a.default, b.default)) this.#add("minor", `${atB}/default`, `default changed from ${JSON.stringify(a.default ?? null)} to ${JSON.stringify(b.default ?? null)} (${context})`);

    this.#properties(a, b, atA, atB, context);

    // additionalProperties
    const apA = a.additionalProperties;
    const apB = b.additionalProperties;
    if (!isDeepStrictEqual(apA, apB)) {
      const closedA = apA === false;
      const closedB = apB === false;
      if (!closedA && closedB) this.#add(context === "input" ? "major" : "minor", `${atB}/additionalProperties`, `no longer allows other properties (${context})`);
      else if (closedA && !closedB) this.#add("minor", `${atB}/additionalProperties`, `now allows other properties (${context})`);
      else if (typeof apA === "object" && typeof apB === "object") this.compare(apA, apB, `${atA}/additionalProperties`, `${atB}/additionalProperties`, context);
      else if (apA === undefined || apA === true) narrowed("other properties now have a schema");
      else widened("other properties no longer have a schema");
    }

    // items, prefixItems
    if (a.items !== undefined || b.items !== undefined) this.compare(a.items, b.items, `${atA}/items`, `${atB}/items`, context);
    const prefixA: Json[] = a.prefixItems ?? [];
    const prefixB: Json[] = b.prefixItems ?? [];
    for (let i = 0; i < Math.max(prefixA.length, prefixB.length); i++) this.compare(prefixA[i], prefixB[i], `${atA}/prefixItems/${i}`, `${atB}/prefixItems/${i}`, context);

    // composition
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const la: Json[] = a[keyword] ?? [];
      const lb: Json[] = b[keyword] ?? [];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) this.compare(la[i], lb[i], `${atA}/${keyword}/${i}`, `${atB}/${keyword}/${i}`, context);
      const more = keyword === "allOf" ? narrowed : widened;
      const fewer = keyword === "allOf" ? widened : narrowed;
      for (let i = la.length; i < lb.length; i++) more(`new ${keyword} member ${i}`);
      for (let i = lb.length; i < la.length; i++) fewer(`removed ${keyword} member ${i}`);
    }

    // everything else
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (HANDLED_SCHEMA_KEYS.has(key) || isDeepStrictEqual(a[key], b[key])) continue;
      const at = `${atB}/${escapeSegment(key)}`;
      if (DOC_KEYS.has(key)) this.#add("patch", at, `${key} changed`);
      else if (key === "deprecated") this.#add(b[key] ? "minor" : "patch", at, b[key] ? "deprecated" : "no longer deprecated");
      else if (key === "readOnly" || key === "writeOnly") this.#add("minor", at, `${key} changed (${context})`);
      else if (SCHEMA_EXTENSIONS_MINOR.has(key)) this.#add("minor", at, `${key} changed`);
      else if (key.startsWith("x-")) this.#add("patch", at, `${key} changed`);
      else this.#add("major", at, `${key} changed (not classified, treated as major) (${context})`);
    }
  }

  /** `properties` and `required`: a property listed in either counts as present. */
  #properties(a: Json, b: Json, atA: string, atB: string, context: Direction): void {
    const propsA = a.properties ?? {};
    const propsB = b.properties ?? {};
    const reqA = new Set<string>(Array.isArray(a.required) ? a.required : []);
    const reqB = new Set<string>(Array.isArray(b.required) ? b.required : []);
    for (const name of union(Object.keys(propsA), Object.keys(propsB), [...reqA], [...reqB])) {
      const at = `${atB}/properties/${escapeSegment(name)}`;
      const inA = name in propsA || reqA.has(name);
      const inB = name in propsB || reqB.has(name);
      if (inA && !inB) {
        this.#add("major", `${atA}/properties/${escapeSegment(name)}`, `removed property \`${name}\` (${context})`);
        continue;
      }
      if (!inA && inB) {
        if (context === "input" && reqB.has(name)) this.#add("major", at, `new required property \`${name}\` (input)`);
        else this.#add("minor", at, `new ${reqB.has(name) ? "required" : "optional"} property \`${name}\` (${context})`);
        continue;
      }
      if (!reqA.has(name) && reqB.has(name)) this.#add(context === "input" ? "major" : "minor", at, `property \`${name}\` is now required (${context})`);
      if (reqA.has(name) && !reqB.has(name)) this.#add(context === "input" ? "minor" : "major", at, `property \`${name}\` is now optional${context === "output" ? ": it may be absent" : ""} (${context})`);
      if (name in propsA && name in propsB) this.compare(propsA[name], propsB[name], `${atA}/properties/${escapeSegment(name)}`, at, context);
    }
  }
}

function isRef(node: Json): boolean {
  return !!node && typeof node === "object" && typeof node.$ref === "string";
}

function typeSet(schema: Json): Set<string> | undefined {
  const t = schema.type;
  if (t === undefined) return undefined;
  const set = new Set<string>(Array.isArray(t) ? t : [t]);
  // integer is a subset of number: a number accepts every integer.
  if (set.has("number")) set.add("integer");
  return set;
}

function enumOf(schema: Json): unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function sameSet(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function isSubset(a: Set<string>, b: Set<string>): boolean {
  return [...a].every((x) => b.has(x));
}

function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}
