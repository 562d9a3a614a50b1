/**
 * Instances for a real document's schema, made from the schema itself with a seeded random source:
 * mostly valid (required properties, an `enum` or `const` value, a format's canonical example, the
 * schema's own `example`), so that mutations of them (discriminated-union.test.ts) sit near the
 * edge between valid and invalid, where a validator that checks the wrong branch would be found.
 * Not a solver: patterns, `not` and the like are not read, and the oracle says what is valid.
 */
import { parsePointer } from "../../generator/common/json-pointer.ts";

type Json = Record<string, unknown>;

/** A small seeded generator (mulberry32), so a failing case is reproduced from its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2024-05-01T12:30:00Z",
  date: "2024-05-01",
  uri: "https://example.com/a",
  "uri-reference": "/a/b",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  email: "someone@example.com",
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class InstanceMaker {
  constructor(
    private readonly document: unknown,
    private readonly next: () => number,
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** The schema a local `$ref` names. */
  target(ref: string): unknown {
    let node: unknown = this.document;
    for (const segment of parsePointer(ref.slice(ref.indexOf("#")))) node = isObject(node) || Array.isArray(node) ? (node as Json)[segment] : undefined;
    return node;
  }

  /** A value for `schema`, `depth` levels down (recursion ends in empty objects and arrays). */
  make(schema: unknown, depth = 0): unknown {
    if (schema === true || schema === undefined) return this.pick(["x", 1, true, null, {}]);
    if (!isObject(schema)) return null;
    if (typeof schema["$ref"] === "string") {
      const target = this.make(this.target(schema["$ref"]), depth + 1);
      return this.merge(target, this.own(schema, depth));
    }
    if ("const" in schema) return schema["const"];
    if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return this.pick(schema["enum"]);
    if ("example" in schema && this.next() < 0.3) return structuredClone(schema["example"]);
    if (Array.isArray(schema["examples"]) && schema["examples"].length > 0 && this.next() < 0.3) return structuredClone(schema["examples"][0]);
    let value = this.own(schema, depth);
    for (const member of Array.isArray(schema["allOf"]) ? schema["allOf"] : []) value = this.merge(value, this.make(member, depth + 1));
    for (const keyword of ["oneOf", "anyOf"]) {
      const branches = schema[keyword];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const index = Math.floor(this.next() * branches.length);
      value = this.merge(value, this.make(branches[index], depth + 1));
      const tag = discriminatorValue(schema, branches[index]);
      if (tag !== undefined && isObject(value)) value[tag.property] = tag.value;
    }
    return value;
  }

  /** The value the schema's own type keywords describe (undefined when it has none). */
  private own(schema: Json, depth: number): unknown {
    const types = Array.isArray(schema["type"]) ? schema["type"] : typeof schema["type"] === "string" ? [schema["type"]] : [];
    const type = types.find((t) => t !== "null") ?? (isObject(schema["properties"]) || Array.isArray(schema["required"]) ? "object" : "items" in schema ? "array" : undefined);
    if (type === undefined) return types.includes("null") ? null : undefined;
    switch (type) {
      case "object":
        return this.object(schema, depth);
      case "array": {
        const min = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
        const count = depth > 4 ? min : Math.min(min + Math.floor(this.next() * 3), typeof schema["maxItems"] === "number" ? schema["maxItems"] : 3);
        return Array.from({ length: count }, () => this.make(schema["items"], depth + 1));
      }
      case "string": {
        const format = typeof schema["format"] === "string" ? FORMAT_EXAMPLES[schema["format"]] : undefined;
        if (format !== undefined) return format;
        const min = typeof schema["minLength"] === "number" ? schema["minLength"] : 1;
        return "s".repeat(Math.max(1, Math.min(min, 50)));
      }
      case "integer":
      case "number": {
        const low = typeof schema["minimum"] === "number" ? schema["minimum"] : typeof schema["exclusiveMinimum"] === "number" ? schema["exclusiveMinimum"] + 1 : 0;
        return type === "integer" ? Math.ceil(low) : low;
      }
      case "boolean":
        return this.next() < 0.5;
      default:
        return null;
    }
  }

  private object(schema: Json, depth: number): Json {
    const out: Json = {};
    const properties = isObject(schema["properties"]) ? schema["properties"] : {};
    const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []);
    for (const [name, sub] of Object.entries(properties)) {
      if (required.has(name) || (depth < 4 && this.next() < 0.4)) out[name] = this.make(sub, depth + 1);
    }
    for (const name of required) if (!(name in out)) out[name] = "s";
    return out;
  }

  /** Objects merged (the later's members win), else the later value when it says anything. */
  private merge(a: unknown, b: unknown): unknown {
    if (isObject(a) && isObject(b)) return { ...a, ...b };
    return b === undefined ? a : b;
  }
}

/** The value of a discriminator that names `branch` (mapping first, else the component's name), as OpenAPI reads it. */
export function discriminatorValue(schema: Json, branch: unknown): { property: string; value: string } | undefined {
  const discriminator = schema["discriminator"];
  if (!isObject(discriminator) || typeof discriminator["propertyName"] !== "string" || !isObject(branch) || typeof branch["$ref"] !== "string") return undefined;
  const ref = branch["$ref"];
  const mapping = isObject(discriminator["mapping"]) ? discriminator["mapping"] : {};
  const mapped = Object.entries(mapping).find(([, target]) => target === ref);
  const value = mapped !== undefined ? mapped[0] : ref.split("/").at(-1);
  return value === undefined ? undefined : { property: discriminator["propertyName"], value: decodeURIComponent(value) };
}
