/**
 * What pagination reads of a schema, on the document as written (the extension's names are taken
 * before the model exists): internal `$ref`s followed, the properties an object has (its `allOf`
 * members' too), and the JSON types a schema admits.
 */
import { parsePointer } from "../../common/json-pointer.ts";

export type Follow = (node: unknown) => any;

/** Follows internal `$ref`s (a bounded number, so a cycle of references ends). */
export function follower(document: unknown): Follow {
  return (node) => {
    for (let depth = 0; depth < 16 && isObject(node) && typeof node.$ref === "string"; depth++) {
      const ref: string = node.$ref;
      if (!ref.startsWith("#")) return undefined;
      let segments: string[];
      try {
        segments = parsePointer(ref);
      } catch {
        return undefined;
      }
      node = segments.reduce<any>((value, key) => (typeof value === "object" && value !== null ? value[key] : undefined), document);
    }
    return node;
  };
}

export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Per schema object, what `typesOf` and `propertiesOf` found: a large document shares its schemas between many operations. */
const typesCache = new WeakMap<object, Set<string>>();
const propertiesCache = new WeakMap<object, Map<string, unknown>>();

/** The JSON types a schema admits, `null` left out; `object` and `array` read from `properties` and `items` when `type` is absent. */
export function typesOf(schema: unknown, follow: Follow): Set<string> {
  const value = follow(schema);
  if (!isObject(value)) return new Set();
  let types = typesCache.get(value);
  if (types === undefined) {
    // Set first: a schema that reaches itself through anyOf or allOf ends there.
    typesCache.set(value, (types = new Set()));
    for (const type of admittedTypes(value, follow)) types.add(type);
  }
  return types;
}

function admittedTypes(value: Record<string, any>, follow: Follow): Set<string> {
  const declared = Array.isArray(value.type) ? value.type : typeof value.type === "string" ? [value.type] : [];
  const types = new Set<string>(declared.filter((type: unknown): type is string => typeof type === "string" && type !== "null"));
  if (types.size === 0) {
    if (value.items !== undefined || value.prefixItems !== undefined) types.add("array");
    if (value.properties !== undefined) types.add("object");
    for (const member of Array.isArray(value.allOf) ? value.allOf : []) for (const type of typesOf(member, follow)) types.add(type);
    // A nullable union (`anyOf: [X, {type: null}]`, 3.0's `nullable` upgraded) admits what its members do.
    for (const key of ["anyOf", "oneOf"]) {
      const members = Array.isArray(value[key]) ? value[key] : [];
      for (const member of members) for (const type of typesOf(member, follow)) types.add(type);
    }
  }
  return types;
}

/** An object schema's properties by name (its own and its `allOf` members'), each followed. */
export function propertiesOf(schema: unknown, follow: Follow, depth = 0): Map<string, unknown> {
  const value = follow(schema);
  if (!isObject(value) || depth > 8) return new Map();
  const cached = propertiesCache.get(value);
  if (cached !== undefined) return cached;
  const found = new Map<string, unknown>();
  propertiesCache.set(value, found);
  for (const member of Array.isArray(value.allOf) ? value.allOf : []) for (const [name, property] of propertiesOf(member, follow, depth + 1)) found.set(name, property);
  if (isObject(value.properties)) for (const [name, property] of Object.entries(value.properties)) found.set(name, follow(property));
  return found;
}

/** The schema of an array's items, followed; undefined when the schema says none. */
export function itemsOf(schema: unknown, follow: Follow): unknown {
  const value = follow(schema);
  if (!isObject(value)) return undefined;
  if (value.items !== undefined && typeof value.items === "object") return follow(value.items);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    for (const member of Array.isArray(value[key]) ? value[key] : []) {
      const items = itemsOf(member, follow);
      if (items !== undefined) return items;
    }
  }
  return undefined;
}

/** The schema at `segments` (property names) below `schema`, or undefined when one is not a property. */
export function schemaAt(schema: unknown, segments: readonly string[], follow: Follow): unknown {
  let node = follow(schema);
  for (const segment of segments) {
    node = propertiesOf(node, follow).get(segment);
    if (node === undefined) return undefined;
  }
  return node;
}
