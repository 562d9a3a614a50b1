/**
 * Where an operation's values hold dates (`--dates date`), worked out from its schemas once, at
 * generation: a graph of shapes, one per schema a `$ref` names (so a schema that holds itself is a
 * cycle, not an endless walk), which `index.ts` writes out for the runtime (`dates/convert.ts`).
 *
 * Followed: `properties`, `additionalProperties` (unless `patternProperties` share its keys),
 * `items`, `prefixItems`, `$ref` (and `$dynamicRef`, to its one target), `allOf`, and `anyOf` /
 * `oneOf`. A union is told apart when one branch holds dates and every other admits no string,
 * object or array (`[X, null]`, the usual nullable), or by its `discriminator` (the branch its
 * property's value names): converted as that branch. Otherwise each
 * branch's dates are converted where the string is one, and left as they are where not
 * (`loose`): the branch that holds the value is not known. Not followed: `patternProperties`,
 * `if`/`then`/`else`, `not`, `dependentSchemas`, `unevaluatedProperties`, `contains`.
 */
import { escapeSegment, unescapeSegment } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import { RefResolver, schemaAt } from "../validators/resolve.ts";
import { dateFormatOf, type DateFormat } from "./date-schema.ts";

export interface Shape {
  /** The value is a date when it is a string. */
  date?: DateFormat;
  properties?: Map<string, Shape>;
  additional?: Shape;
  prefix?: Array<Shape | undefined>;
  items?: Shape;
  /** Shapes that apply too (`allOf`, a `$ref` beside other keywords). */
  all?: Shape[];
  /** A union's branches, each with whether it may hold a string, object or array; `at` is the union's pointer. */
  union?: { at: string; branches: Array<{ shape: Shape | undefined; admitsContainers: boolean }> };
  /** A union whose `discriminator` names each branch: the branch's shape by the property's value. */
  discriminated?: { property: string; cases: Map<string, Shape> };
  /** The pointer of the schema a `$ref` names: such shapes are written once and referred to. */
  pointer?: string;
}

const LOCATIONS = ["path", "query", "header", "cookie"] as const;

export class DatePlanner {
  private readonly resolver: RefResolver;
  private readonly named = new Map<string, Shape>();

  constructor(
    private readonly document: unknown,
    private readonly warnings: Warnings,
  ) {
    this.resolver = new RefResolver(document);
  }

  /** The shape of the schema at `pointer` (its own, a `$ref`'s target named). */
  at(pointer: string): Shape | undefined {
    return this.shapeOf(schemaAt(this.document, pointer), pointer);
  }

  /** The shape of an operation's parameters (`{ path, query, header, cookie, body }`), from each parameter's and the body's schema. */
  params(parameters: ReadonlyArray<{ name: string; in: (typeof LOCATIONS)[number]; schemaPointer: string | undefined }>, bodySchema: string | undefined): Shape | undefined {
    const properties = new Map<string, Shape>();
    for (const location of LOCATIONS) {
      const members = new Map<string, Shape>();
      for (const parameter of parameters) {
        if (parameter.in !== location || parameter.schemaPointer === undefined) continue;
        const shape = this.at(parameter.schemaPointer);
        if (shape !== undefined) members.set(parameter.name, shape);
      }
      if (members.size > 0) properties.set(location, { properties: members });
    }
    const body = bodySchema === undefined ? undefined : this.at(bodySchema);
    if (body !== undefined) properties.set("body", body);
    return properties.size > 0 ? { properties } : undefined;
  }

  private shapeOf(schema: unknown, at: string): Shape | undefined {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return undefined;
    const node = schema as Record<string, unknown>;
    const all: Shape[] = [];
    for (const keyword of ["$ref", "$dynamicRef"] as const) {
      if (!(keyword in node)) continue;
      const target = keyword === "$ref" ? this.resolver.resolve(node[keyword], `${at}/$ref`) : this.resolver.resolveDynamic(node[keyword], `${at}/$dynamicRef`);
      all.push(this.namedShape(target));
    }
    const shape: Shape = {};
    const date = dateFormatOf(node, { typeList: true });
    if (date !== undefined) shape.date = date;
    const child = (value: unknown, pointer: string) => this.shapeOf(value, pointer);
    if (isRecord(node["properties"])) {
      for (const [key, value] of Object.entries(node["properties"])) {
        const found = child(value, `${at}/properties/${escapeSegment(key)}`);
        if (found !== undefined) (shape.properties ??= new Map()).set(key, found);
      }
    }
    if (!isRecord(node["patternProperties"]) || Object.keys(node["patternProperties"]).length === 0) {
      const additional = child(node["additionalProperties"], `${at}/additionalProperties`);
      if (additional !== undefined) shape.additional = additional;
    }
    if (Array.isArray(node["prefixItems"])) {
      const prefix = node["prefixItems"].map((value, index) => child(value, `${at}/prefixItems/${index}`));
      if (prefix.some((found) => found !== undefined)) shape.prefix = prefix;
    }
    const items = child(node["items"], `${at}/items`);
    if (items !== undefined) shape.items = items;
    if (Array.isArray(node["allOf"])) {
      node["allOf"].forEach((value, index) => {
        const found = child(value, `${at}/allOf/${index}`);
        if (found !== undefined) all.push(found);
      });
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      const discriminated = this.discriminated(node, branches, `${at}/${keyword}`);
      if (discriminated !== undefined) {
        if (discriminated.cases.size > 0) all.push({ discriminated });
        continue;
      }
      const union = branches.map((value, index) => ({ shape: child(value, `${at}/${keyword}/${index}`), admitsContainers: this.admitsContainers(value, `${at}/${keyword}/${index}`) }));
      if (union.some((branch) => branch.shape !== undefined)) all.push({ union: { at: `${at}/${keyword}`, branches: union } });
    }
    if (all.length > 0) shape.all = all;
    return Object.keys(shape).length > 0 ? shape : undefined;
  }

  /**
   * A union told apart by its `discriminator`: every branch a `$ref`, each named by the `mapping`
   * values that lead to it, or else by its component's name (OpenAPI's implicit mapping). Undefined
   * when a branch is not a `$ref` (nothing names it).
   */
  private discriminated(node: Record<string, unknown>, branches: unknown[], at: string): Shape["discriminated"] {
    const discriminator = node["discriminator"];
    if (!isRecord(discriminator) || typeof discriminator["propertyName"] !== "string") return undefined;
    if (!branches.every((branch) => isRecord(branch) && typeof branch["$ref"] === "string")) return undefined;
    const mapping = isRecord(discriminator["mapping"]) ? discriminator["mapping"] : {};
    const named = new Map<string, string[]>();
    for (const [value, ref] of Object.entries(mapping)) {
      const target = this.resolver.resolve(ref, `${at.slice(0, at.lastIndexOf("/"))}/discriminator/mapping/${escapeSegment(value)}`);
      named.set(target, [...(named.get(target) ?? []), value]);
    }
    const cases = new Map<string, Shape>();
    branches.forEach((branch, index) => {
      const target = this.resolver.resolve((branch as { $ref: unknown }).$ref, `${at}/${index}/$ref`);
      const shape = this.namedShape(target);
      const values = named.get(target) ?? [unescapeSegment(target.slice(target.lastIndexOf("/") + 1))];
      for (const value of values) cases.set(value, shape);
    });
    return { property: discriminator["propertyName"], cases };
  }

  /** One shape per named schema, made before its parts, so that a schema holding itself refers to it. */
  private namedShape(pointer: string): Shape {
    let shape = this.named.get(pointer);
    if (shape !== undefined) return shape;
    shape = { pointer };
    this.named.set(pointer, shape);
    const found = this.shapeOf(schemaAt(this.document, pointer), pointer);
    if (found !== undefined) Object.assign(shape, found, { pointer });
    return shape;
  }

  /** Whether a union's branch may hold a string, object or array (a value that a date-holding branch could also describe). */
  private admitsContainers(schema: unknown, at: string, seen = new Set<unknown>()): boolean {
    if (schema === false) return false;
    if (schema === null || typeof schema !== "object" || Array.isArray(schema) || seen.has(schema)) return true;
    seen.add(schema);
    const node = schema as Record<string, unknown>;
    if (typeof node["$ref"] === "string") {
      const target = this.resolver.resolve(node["$ref"], `${at}/$ref`);
      return this.admitsContainers(schemaAt(this.document, target), target, seen);
    }
    const types = typeof node["type"] === "string" ? [node["type"]] : Array.isArray(node["type"]) ? node["type"] : undefined;
    if (types !== undefined) return types.some((type) => type === "string" || type === "object" || type === "array");
    if ("const" in node) return node["const"] !== null && typeof node["const"] === "object" ? true : typeof node["const"] === "string";
    if (Array.isArray(node["enum"])) return node["enum"].some((value) => typeof value === "string" || (value !== null && typeof value === "object"));
    return true;
  }

  /** Says, once per kind, where a union's dates could not be told apart. */
  warnLoose(at: string): void {
    this.warnings.add(
      "dates:loose-union",
      at,
      "an anyOf/oneOf whose branches are not told apart holds date-time or date strings: each becomes a Date where it is one and stays a string where not",
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
