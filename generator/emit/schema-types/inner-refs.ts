/**
 * `$ref`s into the inside of a schema (`#/components/schemas/X/allOf/0`, `…/properties/a/items`,
 * `…/$defs/y`, deeper into a response's or a parameter's schema), which openapi-typescript types as
 * indexes its own types do not have (`["allOf"][0]`, `["items"]` of an array type, a member of a
 * type that may be `undefined`). In place, on the emitter's copy of the document: each such target
 * becomes a component schema of its own, named by its pointer (a name with `/`, which no component
 * of a valid document has), its old place a `$ref` to it, and every ref to it names it. Then no
 * `$defs` is left to type: openapi-typescript would make it a required member of the object.
 */
import { escapeSegment, parsePointer, pointer, pointerRef } from "../../common/json-pointer.ts";
import { forEachSchema, hasAnyKey, holdsData } from "../../common/schema-walk.ts";

type Json = Record<string, unknown>;

/** What a schema says of itself that should still be said where it stood (its doc comment, its markers). */
const ANNOTATIONS = ["title", "description", "deprecated", "readOnly", "writeOnly"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function segmentsOf(ref: string): string[] | undefined {
  if (!ref.startsWith("#/")) return undefined;
  try {
    return parsePointer(ref);
  } catch {
    return undefined;
  }
}

/** Whether the pointer names a place inside a schema (not a component, a schema member itself is left to `refsIntoParameters`). */
function insideSchema(segments: readonly string[]): boolean {
  if (segments[0] === "components" && segments[1] === "schemas") return segments.length > 3;
  if (segments[0] !== "components" && segments[0] !== "paths" && segments[0] !== "webhooks") return false;
  const schema = segments.indexOf("schema", 2);
  return schema !== -1 && segments.length > schema + 1;
}

function forEachRef(node: unknown, visit: (holder: Json, ref: string) => void, parent?: string): void {
  if (Array.isArray(node)) return node.forEach((item) => forEachRef(item, visit));
  if (!isObject(node)) return;
  if (typeof node["$ref"] === "string") visit(node, node["$ref"]);
  for (const [key, value] of Object.entries(node)) if (!holdsData(key, parent)) forEachRef(value, visit, key);
}

export function hoistInnerRefs(document: Json): void {
  hoistTargets(document);
  if (!hasAnyKey(document, ["$defs"])) return;
  const withDefs: Json[] = [];
  forEachSchema(document, (node) => {
    if (isObject(node["$defs"])) withDefs.push(node);
  });
  for (const node of withDefs) delete node["$defs"];
}

function hoistTargets(document: Json): void {
  const targets = new Map<string, string[]>();
  forEachRef(document, (_, ref) => {
    const segments = segmentsOf(ref);
    if (segments !== undefined && insideSchema(segments)) targets.set(pointer(...segments), segments);
  });
  if (targets.size === 0) return;
  const components = (isObject(document["components"]) ? document["components"] : (document["components"] = {})) as Json;
  const schemas = (isObject(components["schemas"]) ? components["schemas"] : (components["schemas"] = {})) as Json;
  const renamed = new Map<string, string>();
  // Deepest first: a target inside another is moved out before the outer one moves.
  const ordered = [...targets].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0));
  for (const [at, segments] of ordered) {
    const parent = nodeAt(document, segments.slice(0, -1));
    const key = segments[segments.length - 1]!;
    const target = parent === undefined ? undefined : (parent as Json)[key];
    if (!isObject(target)) continue;
    let name = (segments[1] === "schemas" ? segments.slice(2) : segments).map(escapeSegment).join("/");
    while (Object.hasOwn(schemas, name)) name += "/";
    schemas[name] = target;
    const ref = pointerRef(pointer("components", "schemas", name));
    const stub: Json = { $ref: ref };
    for (const annotation of ANNOTATIONS) if (Object.hasOwn(target, annotation)) stub[annotation] = target[annotation];
    (parent as Json)[key] = stub;
    renamed.set(at, ref);
  }
  forEachRef(document, (holder, ref) => {
    const segments = segmentsOf(ref);
    const to = segments === undefined ? undefined : renamed.get(pointer(...segments));
    if (to !== undefined) holder["$ref"] = to;
  });
}

function nodeAt(document: unknown, segments: readonly string[]): unknown {
  let node: unknown = document;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Json)[segment];
  }
  return node;
}
