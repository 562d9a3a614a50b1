/**
 * Example values of a request's parameters and body, for the README's calls: the contract's own
 * example where it fits the schema's type, else a value made from the schema (its `const`, first
 * `enum` value, `default`, or one of its type, with every required property filled). What the
 * README shows must type-check against the package's types (openapi-typescript's reading of the
 * schema), so the rules follow that reading: a property not declared in a closed object is an
 * excess property, an integer is a number, a read-only property is left out of a request.
 */
import type { LoadedContract } from "../load/index.ts";
import { escapeSegment } from "../common/json-pointer.ts";
import { FORMAT_TEXT } from "./format-text.ts";

type Json = Record<string, any>;

/** A discriminator met in an object schema or one of its `allOf` branches, and where it is. */
interface Discriminator {
  property: string;
  mapping: Record<string, string>;
  owner: string;
}

interface Shape {
  /** Name to pointer. */
  properties: Map<string, string>;
  required: string[];
  /** Whether names beyond `properties` are allowed (`additionalProperties` given and not false). */
  open: boolean;
  discriminators: Discriminator[];
}

/** Deep enough for real bodies; deeper (or a schema met again) ends in the smallest value. */
const MAX_DEPTH = 8;

export class ExampleValues {
  /** Schema `$ref` to the discriminator value a mapping gives it, read once when first asked. */
  private mapped: Map<string, string> | undefined;

  constructor(private readonly contract: LoadedContract) {}

  /** `given` when it fits the schema at `pointer`, else a value made from the schema. */
  choose(given: unknown, pointer: string | undefined): unknown {
    if (pointer === undefined) return given ?? "…";
    if (given !== undefined && this.fits(given, pointer)) return given;
    return this.make(pointer);
  }

  /** A value of the schema at `pointer`, as a request sends it. */
  make(pointer: string): unknown {
    return this.value(pointer, 0, new Set());
  }

  private schemaAt(pointer: string): { schema: unknown; pointer: string } {
    const node = this.contract.at(pointer);
    if (isObject(node) && typeof node["$ref"] === "string") {
      try {
        const { value, pointer: target } = this.contract.deref(node, pointer);
        return { schema: value, pointer: target };
      } catch {
        return { schema: undefined, pointer };
      }
    }
    return { schema: node, pointer };
  }

  private value(at: string, depth: number, seen: Set<string>): unknown {
    const { schema, pointer } = this.schemaAt(at);
    if (!isObject(schema)) return "…";
    if (schema["const"] !== undefined) return schema["const"];
    const enumValue = Array.isArray(schema["enum"]) ? schema["enum"].find((v: unknown) => v !== null) : undefined;
    if (enumValue !== undefined) return enumValue;
    const types = typesOf(schema);
    const again = seen.has(pointer) || depth > MAX_DEPTH;
    if (again) return smallest(types);
    const inner = new Set(seen).add(pointer);
    for (const candidate of [...(Array.isArray(schema["examples"]) ? schema["examples"].slice(0, 1) : []), schema["default"]]) {
      if (candidate !== undefined && candidate !== null && this.fitsSchema(candidate, pointer, schema, 0)) return candidate;
    }
    const branches = (schema["oneOf"] ?? schema["anyOf"]) as unknown[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) {
      const key = schema["oneOf"] ? "oneOf" : "anyOf";
      const index = Math.max(0, branches.findIndex((branch, i) => !this.isNullOnly(`${pointer}/${key}/${i}`)));
      const picked = this.withDiscriminator(schema, branches[index], this.value(`${pointer}/${key}/${index}`, depth + 1, inner));
      // Properties beside the union: the type is their object and the branch together.
      if (!schema["properties"] && !schema["allOf"]) return picked;
      const own = this.object(pointer, schema, depth, inner);
      return isObject(picked) ? { ...own, ...picked } : own;
    }
    const type = types.find((t) => t !== "null") ?? types[0];
    switch (type) {
      case "object":
        return this.object(pointer, schema, depth, inner);
      case "array": {
        // Items of a schema met again would be the smallest value, which may lack what they require: none.
        const recursive = schema["items"] === undefined || inner.has(this.schemaAt(`${pointer}/items`).pointer) || depth + 1 > MAX_DEPTH;
        const items = recursive ? [] : [this.value(`${pointer}/items`, depth + 1, inner)];
        const minItems = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
        while (items.length > 0 && items.length < minItems) items.push(items[0]);
        return items;
      }
      case "string":
        return stringOf(schema);
      case "integer":
      case "number":
        return numberOf(schema, type);
      case "boolean":
        return true;
      case "null":
        return null;
      default:
        // `allOf` alone, or a schema of any type.
        if (Array.isArray(schema["allOf"])) {
          // One branch of another type (`allOf: [{ $ref: Size }]`) is that branch.
          if (this.shape(pointer, schema, new Set()).properties.size === 0 && schema["allOf"].length > 0) return this.value(`${pointer}/allOf/0`, depth + 1, inner);
          return this.object(pointer, schema, depth, inner);
        }
        return "…";
    }
  }

  private isNullOnly(pointer: string): boolean {
    const { schema } = this.schemaAt(pointer);
    return isObject(schema) && typesOf(schema).length === 1 && typesOf(schema)[0] === "null";
  }

  /** Every required property (but those a request leaves out), through `allOf`. */
  private object(pointer: string, schema: Json, depth: number, seen: Set<string>): Record<string, unknown> {
    const shape = this.shape(pointer, schema, new Set());
    const result: Record<string, unknown> = {};
    for (const name of [...shape.required, ...[...shape.properties.keys()].filter(inherited)]) {
      if (Object.hasOwn(result, name)) continue;
      const property = shape.properties.get(name);
      if (property === undefined) {
        // openapi-typescript types only declared properties: another name is an excess property.
        if (shape.open) define(result, name, "…");
        continue;
      }
      if (this.readOnly(property)) continue;
      define(result, name, this.value(property, depth + 1, seen));
    }
    for (const discriminator of shape.discriminators) {
      if (!Object.hasOwn(result, discriminator.property)) continue;
      const named = this.discriminatorValue(discriminator, pointer);
      if (named !== undefined) result[discriminator.property] = named;
    }
    return result;
  }

  /**
   * The value openapi-typescript types a discriminator's property with: in a schema that extends
   * the one holding it (`allOf`), the mapping's key for the schema, else its name; in the schema
   * holding it, one of the schemas that extend it.
   */
  private discriminatorValue(discriminator: Discriminator, pointer: string): string | undefined {
    const entries = Object.entries(discriminator.mapping).map(([key, target]) => [key, refOf(target)] as const);
    if (discriminator.owner !== pointer) {
      return entries.find(([, target]) => target === `#${pointer}`)?.[0] ?? this.mappedName(`#${pointer}`) ?? (pointer.startsWith("/components/schemas/") ? pointer.slice(pointer.lastIndexOf("/") + 1) : undefined);
    }
    if (entries.length > 0) return entries[0]![0];
    // The property's own enum types it: its value stands.
    const property = this.schemaAt(`${pointer}/properties/${escapeSegment(discriminator.property)}`).schema;
    if (isObject(property) && (property["enum"] !== undefined || property["const"] !== undefined)) return undefined;
    const schemas = this.contract.document.components?.schemas ?? {};
    const owner = `#${discriminator.owner}`;
    return Object.entries(schemas).find(([, schema]) => isObject(schema) && Array.isArray(schema["allOf"]) && schema["allOf"].some((branch: unknown) => isObject(branch) && branch["$ref"] === owner))?.[0];
  }

  /** Properties (name to pointer), required names and openness of an object schema, `allOf` merged in. */
  private shape(pointer: string, schema: Json, seen: Set<string>): Shape {
    const properties = new Map<string, string>();
    const required: string[] = [];
    const discriminators: Discriminator[] = [];
    const own = schema["discriminator"];
    if (isObject(own) && typeof own["propertyName"] === "string") {
      discriminators.push({ property: own["propertyName"], mapping: isObject(own["mapping"]) ? (own["mapping"] as Record<string, string>) : {}, owner: pointer });
    }
    let open = schema["additionalProperties"] !== undefined && schema["additionalProperties"] !== false;
    if (isObject(schema["properties"])) for (const name of Object.keys(schema["properties"])) properties.set(name, `${pointer}/properties/${escapeSegment(name)}`);
    if (Array.isArray(schema["required"])) required.push(...schema["required"].filter((n: unknown): n is string => typeof n === "string"));
    if (Array.isArray(schema["allOf"])) {
      schema["allOf"].forEach((_: unknown, i: number) => {
        const branch = this.schemaAt(`${pointer}/allOf/${i}`);
        if (!isObject(branch.schema) || seen.has(branch.pointer)) return;
        const inner = this.shape(branch.pointer, branch.schema, new Set(seen).add(branch.pointer));
        for (const [name, at] of inner.properties) if (!properties.has(name)) properties.set(name, at);
        required.push(...inner.required);
        discriminators.push(...inner.discriminators);
        open ||= inner.open;
      });
    }
    return { properties, required: [...new Set(required)], open, discriminators };
  }

  private readOnly(pointer: string): boolean {
    const { schema } = this.schemaAt(pointer);
    const declared = this.contract.at<Json>(pointer);
    const marked = (node: unknown, marker: string) => isObject(node) && node[marker] === true;
    const read = marked(schema, "readOnly") || marked(declared, "readOnly");
    const write = marked(schema, "writeOnly") || marked(declared, "writeOnly");
    return read && !write;
  }

  /** A branch picked from a union with a discriminator says which branch it is. */
  private withDiscriminator(schema: Json, branch: unknown, value: unknown): unknown {
    const discriminator = schema["discriminator"];
    const property = isObject(discriminator) ? discriminator["propertyName"] : undefined;
    if (typeof property !== "string" || !isObject(value) || !isObject(branch) || typeof branch["$ref"] !== "string") return value;
    const ref = branch["$ref"];
    const mapping = isObject(discriminator["mapping"]) ? (discriminator["mapping"] as Record<string, string>) : {};
    const named = Object.entries(mapping).find(([, target]) => refOf(target) === ref)?.[0] ?? this.mappedName(ref);
    if (named !== undefined) return { ...value, [property]: named };
    // A value the branch itself fixes (an enum or const) already selects it.
    const fixed = this.contract.at<Json>(`${ref.slice(1)}/properties/${escapeSegment(property)}`);
    if (isObject(fixed) && (fixed["enum"] !== undefined || fixed["const"] !== undefined)) return value;
    return { ...value, [property]: ref.slice(ref.lastIndexOf("/") + 1) };
  }

  /**
   * The key a discriminator's `mapping` anywhere in the document gives the schema `ref`: openapi-typescript
   * types the schema's property with it wherever the schema is used.
   */
  private mappedName(ref: string): string | undefined {
    if (this.mapped === undefined) {
      this.mapped = new Map();
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (isObject(node)) {
          const mapping = isObject(node["discriminator"]) ? node["discriminator"]["mapping"] : undefined;
          if (isObject(mapping)) for (const [key, target] of Object.entries(mapping)) if (typeof target === "string" && !this.mapped!.has(refOf(target))) this.mapped!.set(refOf(target), key);
          Object.values(node).forEach(walk);
        }
      };
      walk(this.contract.document);
    }
    return this.mapped.get(ref);
  }

  /** Whether `value` fits the schema at `pointer` as the package's types read it. */
  fits(value: unknown, pointer: string): boolean {
    const { schema, pointer: at } = this.schemaAt(pointer);
    return this.fitsSchema(value, at, schema, 0);
  }

  private fitsSchema(value: unknown, pointer: string, schema: unknown, depth: number): boolean {
    if (depth > MAX_DEPTH || schema === true || schema === undefined) return true;
    if (!isObject(schema)) return schema !== false;
    if (typeof schema["$ref"] === "string") return this.fits(value, pointer);
    if (schema["const"] !== undefined) return JSON.stringify(schema["const"]) === JSON.stringify(value);
    if (Array.isArray(schema["enum"])) return schema["enum"].some((v: unknown) => JSON.stringify(v) === JSON.stringify(value));
    const types = typesOf(schema);
    if (types.length > 0 && !types.includes(jsonType(value)) && !(jsonType(value) === "integer" && types.includes("number"))) return false;
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = schema[key];
      if (Array.isArray(branches) && !branches.some((_: unknown, i: number) => this.fits(value, `${pointer}/${key}/${i}`))) return false;
    }
    if (Array.isArray(value)) return schema["items"] === undefined || value.every((item) => this.fits(item, `${pointer}/items`));
    if (!isObject(value) || (types.length > 0 && !types.includes("object")) || (types.length === 0 && !schema["properties"] && !schema["allOf"])) return true;
    const shape = this.shape(pointer, schema, new Set());
    for (const name of [...shape.required, ...[...shape.properties.keys()].filter(inherited)]) {
      if (shape.properties.has(name) && !this.readOnly(shape.properties.get(name)!) && !Object.hasOwn(value, name)) return false;
    }
    for (const [name, member] of Object.entries(value)) {
      const at = shape.properties.get(name);
      if (at === undefined) {
        if (!shape.open) return false;
      } else if (!this.fits(member, at)) return false;
    }
    return true;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A property named like a member every object inherits (`constructor`, `toString`): TypeScript
 * checks the inherited member against the property's type when a literal leaves it out, so an
 * example gives it, even when it is optional.
 */
function inherited(name: string): boolean {
  return name !== "__proto__" && Object.hasOwn(Object.prototype, name);
}

/** An own member, also one named `__proto__` (an assignment would set the prototype). */
function define(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/** A mapping's target as a `$ref`: a bare name is a component schema's. */
function refOf(target: string): string {
  return target.includes("/") || target.startsWith("#") ? target : `#/components/schemas/${target}`;
}

function typesOf(schema: Json): string[] {
  const type = schema["type"];
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  if (isObject(schema["properties"]) || schema["additionalProperties"] !== undefined) return ["object"];
  if (schema["items"] !== undefined) return ["array"];
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** What a schema met again (or too deep) gets: nothing to fill in. */
function smallest(types: string[]): unknown {
  if (types.includes("null")) return null;
  if (types.includes("array")) return [];
  if (types.includes("string")) return "…";
  if (types.includes("integer") || types.includes("number")) return 1;
  if (types.includes("boolean")) return true;
  return {};
}

function stringOf(schema: Json): string {
  const format = typeof schema["format"] === "string" ? schema["format"] : "";
  let text = FORMAT_TEXT[format] ?? "example";
  const min = typeof schema["minLength"] === "number" ? schema["minLength"] : 0;
  const max = typeof schema["maxLength"] === "number" ? schema["maxLength"] : Infinity;
  if (text.length < min) text = text.padEnd(min, "x");
  if (text.length > max) text = text.slice(0, Math.max(max, 0));
  return text;
}

function numberOf(schema: Json, type: "integer" | "number"): number {
  const minimum = typeof schema["minimum"] === "number" ? schema["minimum"] : typeof schema["exclusiveMinimum"] === "number" ? schema["exclusiveMinimum"] + 1 : undefined;
  const maximum = typeof schema["maximum"] === "number" ? schema["maximum"] : typeof schema["exclusiveMaximum"] === "number" ? schema["exclusiveMaximum"] - 1 : undefined;
  let value = minimum ?? 1;
  if (maximum !== undefined && value > maximum) value = maximum;
  return type === "integer" ? Math.ceil(value) : value;
}
