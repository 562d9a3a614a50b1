/**
 * Every schema object of an OpenAPI 3.1 document, with its JSON pointer: `components.schemas`, each
 * `schema` member outside schemas (parameters, media types, headers, wherever they sit) and their
 * subschemas, parents first. Data (`example`, `examples`, `default`, `enum`, `const`) and `x-`
 * extensions are never entered: what looks like a schema there is a value.
 *
 * Each schema is told with its top-level schema (the component, or the `schema` member, it sits
 * in): what a standalone schema file would have had as its root.
 */
import { pointer } from "./json-pointer.ts";

type Json = Record<string, unknown>;

const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs"];
const SCHEMA_ARRAYS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SINGLE_SCHEMAS = ["items", "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"];
/** Members that hold data, never a schema or a `$ref` (see `holdsData`). */
const DATA_MEMBERS = new Set(["example", "examples", "default", "enum", "const"]);
/** Members whose keys are names (of properties, components, responses, media types), never keywords. */
const NAME_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "schemas", "responses", "parameters", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems", "paths", "webhooks", "content", "encoding"]);

/**
 * Whether member `key` of an object holds data (an example, a default, an enum's values), which a
 * walk for schemas or `$ref`s must not enter. `parent` is the key the object sits under: in a map of
 * names (`properties`, `responses`, `schemas`…) `default` is a property, the default response, a
 * component, and holds what any member does.
 */
export function holdsData(key: string, parent: string | undefined): boolean {
  return DATA_MEMBERS.has(key) && (parent === undefined || !NAME_MAPS.has(parent));
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Calls `visit` on each schema object; `visit` may change the node's own keywords, not its subschema members. */
export function forEachSchema(document: unknown, visit: (node: Json, at: string, topLevel: string) => void): void {
  let topLevel = "";
  const schema = (node: unknown, at: string): void => {
    if (!isObject(node)) return;
    visit(node, at, topLevel);
    forEachSubschema(node, at, schema);
  };
  const other = (node: unknown, at: string, parent?: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => other(item, `${at}/${index}`));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (holdsData(key, parent) || key.startsWith("x-")) continue;
      if (key === "schema") schema(value, (topLevel = at + pointer(key)));
      else if (key === "schemas" && at === "/components" && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) schema(sub, (topLevel = at + pointer(key, name)));
      } else other(value, at + pointer(key), key);
    }
  };
  other(document, "");
}

/** Calls `visit` on each immediate subschema of a schema object (any value where one stands), with its pointer. */
function forEachSubschema(node: Json, at: string, visit: (sub: unknown, at: string) => void): void {
  for (const keyword of SCHEMA_MAPS) {
    const map = node[keyword];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) visit(sub, at + pointer(keyword, name));
  }
  for (const keyword of SCHEMA_ARRAYS) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((sub, index) => visit(sub, `${at}/${keyword}/${index}`));
  }
  for (const keyword of SINGLE_SCHEMAS) if (keyword in node) visit(node[keyword], at + pointer(keyword));
}

/** The immediate subschemas of a schema object that are objects (boolean schemas hold none), without their pointers. */
export function subschemaObjects(node: Json): Json[] {
  const found: Json[] = [];
  for (const keyword of SCHEMA_MAPS) {
    const map = node[keyword];
    if (isObject(map)) for (const sub of Object.values(map)) if (isObject(sub)) found.push(sub);
  }
  for (const keyword of SCHEMA_ARRAYS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const sub of list) if (isObject(sub)) found.push(sub);
  }
  for (const keyword of SINGLE_SCHEMAS) if (isObject(node[keyword])) found.push(node[keyword] as Json);
  return found;
}

/**
 * Whether any object of the document has one of `keys`: a cheap look (no pointers built) before a
 * walk of the schemas, which a large document makes slow, for keywords most documents never use.
 * It may say yes for a key that is no keyword (in an example, or a property named so), never no
 * for one that is; the walk after it is exact.
 */
export function hasAnyKey(document: unknown, keys: readonly string[]): boolean {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    if (!isObject(node)) continue;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (keys.includes(key)) return true;
      const value = node[key];
      if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return false;
}
