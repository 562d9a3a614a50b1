/**
 * What an OpenAPI `discriminator` beside a `oneOf` (or, without one, an `anyOf`) tells the
 * validators: which branch each value of `propertyName` selects, and where that selection is
 * exact. JSON Schema does not change for it (it is an annotation), so the validators use it only
 * where the result stays what the plain `oneOf`/`anyOf` gives:
 *
 * - a value selects a branch through `mapping` (a `$ref` to that branch's target), or, for a
 *   branch no mapping value names, through the name of the component the branch `$ref`s (OpenAPI's
 *   implicit mapping, as openapi-typescript types it); any other value a branch allows for the
 *   property (its `const` or `enum`, as ajv's `discriminator` reads them) selects that branch too;
 * - the selection is exact for a value when every other branch rules that value out (its
 *   `properties[propertyName]` holds a `const` or `enum` without it, through `$ref` and `allOf`),
 *   or the schema itself does: then only the selected branch can pass, and only it is checked;
 * - an object whose property is missing or selects no branch fails at once when that is what every
 *   branch would do (each requires the property and allows only selecting values; or the schema
 *   itself does) ("closed"); otherwise every branch is tried, as without a discriminator;
 * - a value whose selection is not exact has every branch tried, told once as a warning: the
 *   document's branches do not say what its discriminator says.
 *
 * Messages use it everywhere: a failed selected branch is reported alone, naming the value and
 * the branch, and a missing or unknown value by itself, naming the property and its values.
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { RefResolver } from "./resolve.ts";
import { isObject, valueAt, type SchemaObject } from "./schema-object.ts";

/** One value of the property and the branch (index into the keyword's array) it selects. */
export interface DiscriminatorCase {
  value: string;
  branch: number;
  /** Whether every other branch rules the value out, so that only `branch` is checked. */
  exact: boolean;
}

export interface Discriminated {
  keyword: "oneOf" | "anyOf";
  property: string;
  /** In the order of `mapping`, then of the branches. */
  cases: DiscriminatorCase[];
  /** Whether an object whose property is missing or selects no branch fails whatever the branches say. */
  closed: boolean;
  /** Per branch index, how messages name it: its component's name, or `oneOf/2`. */
  names: Map<number, string>;
}

export class Discriminators {
  private readonly known = new Map<string, Discriminated | undefined>();

  constructor(
    private readonly document: unknown,
    private readonly refs: RefResolver,
    private readonly warnings: Warnings,
    private readonly assertionKeywords: ReadonlySet<string>,
  ) {}

  /** The selection the discriminator of the schema at `at` gives, undefined where it gives none. */
  of(schema: SchemaObject, at: string): Discriminated | undefined {
    if (!("discriminator" in schema)) return undefined;
    if (this.known.has(at)) return this.known.get(at);
    const found = this.read(schema, at);
    this.known.set(at, found);
    return found;
  }

  private read(schema: SchemaObject, at: string): Discriminated | undefined {
    const keyword = "oneOf" in schema ? "oneOf" : "anyOf" in schema ? "anyOf" : undefined;
    const branches = keyword === undefined ? undefined : schema[keyword];
    if (keyword === undefined || !Array.isArray(branches)) return undefined;
    const discriminator = schema["discriminator"];
    const where = `${at}/discriminator`;
    if (!isObject(discriminator) || typeof discriminator["propertyName"] !== "string") {
      this.warnings.add("discriminator:shape", where, "a discriminator without a string propertyName: ignored by the validators");
      return undefined;
    }
    const property = discriminator["propertyName"];
    const targets = new Map<string, number>();
    const names = new Map<number, string>();
    branches.forEach((sub, index) => {
      const target = this.refTarget(sub, `${at}/${keyword}/${index}`);
      names.set(index, target === undefined ? `${keyword}/${index}` : (parsePointer(target).at(-1) ?? target));
      if (target !== undefined && !targets.has(target)) targets.set(target, index);
    });
    const named = this.selections(discriminator["mapping"], where, targets, keyword);
    const found = this.exactness(schema, at, keyword, branches, property, named);
    return found.cases.length === 0 ? undefined : { keyword, property, names, ...found };
  }

  /** The values that select a branch: `mapping`'s, then the component names of branches it does not name. */
  private selections(mapping: unknown, where: string, targets: ReadonlyMap<string, number>, keyword: string): Array<{ value: string; branch: number }> {
    const cases: Array<{ value: string; branch: number }> = [];
    const mapped = new Set<number>();
    if (isObject(mapping)) {
      for (const [value, ref] of Object.entries(mapping)) {
        const at = where + pointer("mapping", value);
        const target = this.resolveMapping(ref, at);
        const branch = target === undefined ? undefined : targets.get(target);
        if (branch === undefined) {
          // A value that resolves to nothing is named, so its typo can be found.
          const nothing = target === undefined ? ` (${JSON.stringify(ref)} is no component schema's name and no $ref that resolves)` : "";
          this.warnings.add("discriminator:mapping", at, `discriminator mapping ${JSON.stringify(value)} names no branch of the ${keyword}${nothing}: the validators try every branch for that value`);
          continue;
        }
        cases.push({ value, branch });
        mapped.add(branch);
      }
    }
    const taken = new Set(cases.map((c) => c.value));
    for (const [target, branch] of targets) {
      const segments = parsePointer(target);
      const name = segments[2];
      if (mapped.has(branch) || segments.length !== 3 || segments[0] !== "components" || segments[1] !== "schemas" || name === undefined || taken.has(name)) continue;
      cases.push({ value: name, branch });
      taken.add(name);
    }
    return cases;
  }

  private resolveMapping(ref: unknown, at: string): string | undefined {
    try {
      return this.refs.resolve(ref, at);
    } catch (error) {
      if (error instanceof ContractError) return undefined;
      throw error;
    }
  }

  private exactness(schema: SchemaObject, at: string, keyword: string, branches: unknown[], property: string, selecting: Array<{ value: string; branch: number }>) {
    const live = branches.map((sub, index) => ({ sub, index, at: `${at}/${keyword}/${index}` })).filter(({ sub }) => sub !== false);
    const tags = new TagConstraints(this.document, this.refs, property);
    const own = tags.values(schema, at);
    const allowed = live.map((branch) => ({ ...branch, values: tags.values(branch.sub, branch.at) }));
    // A branch's own string values select it too (as ajv's discriminator reads them): inline branches have no name.
    const taken = new Set(selecting.map((c) => c.value));
    for (const { index, values } of allowed) {
      for (const text of values ?? []) {
        const value: unknown = JSON.parse(text);
        if (typeof value !== "string" || taken.has(value)) continue;
        selecting.push({ value, branch: index });
        taken.add(value);
      }
    }
    const cases = selecting.map(({ value, branch }) => {
      const text = JSON.stringify(value);
      const exact = (own !== undefined && !own.has(text)) || allowed.every((other) => other.index === branch || (other.values !== undefined && !other.values.has(text)));
      return { value, branch, exact };
    });
    const inexact = cases.find((c) => !c.exact);
    if (inexact !== undefined) {
      const other = allowed.find((b) => b.index !== inexact.branch && (b.values === undefined || b.values.has(JSON.stringify(inexact.value))));
      this.warnings.add(
        "discriminator:overlap",
        `${at}/discriminator`,
        `discriminator ${JSON.stringify(property)}: ${other?.at ?? "another branch"} does not rule out ${JSON.stringify(inexact.value)}, which selects ${keyword}/${inexact.branch}, so the validators try every branch for it, as JSON Schema does (give each branch's ${JSON.stringify(property)} a const or enum to have only the selected one checked)`,
      );
    }
    const keys = new Set(cases.map((c) => JSON.stringify(c.value)));
    const within = (values: ReadonlySet<string> | undefined) => values !== undefined && [...values].every((v) => keys.has(v));
    const valuesClosed = within(own) || allowed.every((b) => within(b.values));
    const requiredClosed = tags.requires(schema, at) || live.every((b) => tags.requires(b.sub, b.at));
    return { cases, closed: valuesClosed && requiredClosed };
  }

  /** A branch that is a `$ref` (and annotations only): the pointer of its target. */
  private refTarget(sub: unknown, at: string): string | undefined {
    if (!isObject(sub) || typeof sub["$ref"] !== "string") return undefined;
    if (Object.keys(sub).some((keyword) => keyword !== "$ref" && this.assertionKeywords.has(keyword))) return undefined;
    return this.refs.resolve(sub["$ref"], `${at}/$ref`);
  }
}

/**
 * What a schema says of one property of an object: the values it allows there (a `const` or
 * `enum` under `properties`, through `$ref` and `allOf`; undefined when it says nothing) and
 * whether it requires it. Values are kept as JSON text. A cycle of `$ref`s says nothing.
 */
export class TagConstraints {
  private readonly visiting = new Set<string>();

  constructor(
    private readonly document: unknown,
    private readonly refs: RefResolver,
    private readonly property: string,
  ) {}

  /** The values an object passing `schema` may hold in the property (when it has it). */
  values(schema: unknown, at: string): Set<string> | undefined {
    if (schema === false) return new Set();
    if (!isObject(schema)) return undefined;
    let result: Set<string> | undefined;
    const meet = (values: Set<string> | undefined) => {
      if (values !== undefined) result = result === undefined ? values : new Set([...result].filter((v) => values.has(v)));
    };
    const properties = schema["properties"];
    if (isObject(properties) && Object.hasOwn(properties, this.property)) meet(this.allowed(properties[this.property], at + pointer("properties", this.property)));
    this.each(schema, at, (sub, subAt) => meet(this.values(sub, subAt)));
    return result;
  }

  /** Whether an object passing `schema` has the property. */
  requires(schema: unknown, at: string): boolean {
    if (schema === false) return true;
    if (!isObject(schema)) return false;
    const required = schema["required"];
    if (Array.isArray(required) && required.includes(this.property)) return true;
    let found = false;
    this.each(schema, at, (sub, subAt) => (found ||= this.requires(sub, subAt)));
    return found;
  }

  /** The values a property schema allows: its `const` or `enum`, through `$ref` and `allOf`. */
  private allowed(schema: unknown, at: string): Set<string> | undefined {
    if (schema === false) return new Set();
    if (!isObject(schema)) return undefined;
    let result: Set<string> | undefined;
    const meet = (values: Set<string> | undefined) => {
      if (values !== undefined) result = result === undefined ? values : new Set([...result].filter((v) => values.has(v)));
    };
    if ("const" in schema) meet(new Set([JSON.stringify(schema["const"])]));
    if (Array.isArray(schema["enum"])) meet(new Set(schema["enum"].map((v) => JSON.stringify(v))));
    this.each(schema, at, (sub, subAt) => meet(this.allowed(sub, subAt)));
    return result;
  }

  /** Calls `visit` on the schemas that apply to the same value in full: the `$ref` target and each `allOf` member. */
  private each(schema: SchemaObject, at: string, visit: (sub: unknown, at: string) => void): void {
    if (typeof schema["$ref"] === "string") {
      const target = this.refs.resolve(schema["$ref"], `${at}/$ref`);
      if (!this.visiting.has(target)) {
        this.visiting.add(target);
        try {
          visit(valueAt(this.document, parsePointer(target)), target);
        } finally {
          this.visiting.delete(target);
        }
      }
    }
    const allOf = schema["allOf"];
    if (Array.isArray(allOf)) allOf.forEach((sub, index) => visit(sub, `${at}/allOf/${index}`));
  }
}
