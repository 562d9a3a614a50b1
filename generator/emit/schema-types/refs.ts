/**
 * `$ref`s openapi-typescript would type as an index into a type that has no such member, rewritten
 * (in place, on the emitter's copy of the document) into ones that name the same schema.
 */
import { parsePointer } from "../../common/json-pointer.ts";
import { holdsData } from "../../common/schema-walk.ts";

/**
 * openapi-typescript types a parameter (`components["parameters"]["X"]`) and a media type
 * (`…["content"]["application/json"]`) as its schema, so its type of a `$ref` to that schema
 * (`#/components/parameters/X/schema`, `…/content/application~1json/schema`: a recursive schema
 * written in place) would index a `schema` member that is not there: the ref loses that segment,
 * in place, and names the same type. (Refs deeper into such a schema: `refsIntoOperationSchemas`.)
 */
export function refsIntoParameters(node: unknown, parent?: string): void {
  if (Array.isArray(node)) return node.forEach((item) => refsIntoParameters(item));
  if (typeof node !== "object" || node === null) return;
  const members = node as Record<string, unknown>;
  const ref = members["$ref"];
  if (typeof ref === "string") members["$ref"] = ref.replace(/^(#\/components\/parameters\/[^/]+|#(?:(?!\/schemas?\/).)*\/content\/[^/]+)\/schema$/, "$1");
  for (const [key, value] of Object.entries(members)) if (!holdsData(key, parent)) refsIntoParameters(value, key);
}

/**
 * A ref to something below an operation or a path item's parameters (a request body's schema or a
 * property of it, a parameter, a parameter's schema), not to a path item or an operation itself.
 */
function intoOperationSchema(ref: string): boolean {
  return /^#\/(paths|webhooks)\/[^/]+\/[^/]+\/./.test(ref);
}

function nodeAt(document: unknown, ref: string): unknown {
  let node: unknown = document;
  try {
    for (const segment of parsePointer(ref)) node = typeof node === "object" && node !== null && Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
  } catch {
    return undefined;
  }
  return node;
}

function onlyRef(node: unknown): string | undefined {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
  const keys = Object.keys(node);
  const ref = (node as Record<string, unknown>)["$ref"];
  return keys.length === 1 && typeof ref === "string" ? ref : undefined;
}

/**
 * openapi-typescript types a `$ref` to something below an operation as a chain of indexes from
 * `paths` that its own types do not have (the request body is optional, the media type has no
 * `schema` member, properties no `properties`, parameters are grouped by where they go): such a
 * ref becomes the ref its target holds when the target is only that (followed until it leads out
 * of the operations), else a copy of the target in its place. A copy is not copied into itself
 * again (see `within`).
 */
export function refsIntoOperationSchemas(document: unknown): void {
  const walk = (node: unknown, copying: ReadonlySet<string>, at: readonly string[]): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => walk(item, copying, [...at, String(index)]));
    if (typeof node !== "object" || node === null) return;
    const members = node as Record<string, unknown>;
    const ref = members["$ref"];
    if (typeof ref === "string" && intoOperationSchema(ref)) {
      let target = ref;
      const followed = new Set<string>();
      for (let next = onlyRef(nodeAt(document, target)); next !== undefined && !followed.has(target); next = onlyRef(nodeAt(document, target))) {
        followed.add(target);
        target = next;
        if (!intoOperationSchema(target)) break;
      }
      if (!intoOperationSchema(target)) members["$ref"] = target;
      else {
        const schema = nodeAt(document, target);
        if (typeof schema === "object" && schema !== null && !Array.isArray(schema) && !copying.has(target) && !(within(at, target) && /\/schema$/.test(target))) {
          delete members["$ref"];
          for (const [key, value] of Object.entries(structuredClone(schema))) if (!Object.hasOwn(members, key)) members[key] = value;
          for (const [key, value] of Object.entries(members)) if (!holdsData(key, at[at.length - 1])) walk(value, new Set([...copying, target]), [...at, key]);
          return;
        }
      }
    }
    for (const [key, value] of Object.entries(members)) if (!holdsData(key, at[at.length - 1])) walk(value, copying, [...at, key]);
  };
  walk(document, new Set(), []);
}

/**
 * Whether the place `at` is inside what `ref` points to: a media type's or a parameter's schema that
 * holds itself is left to `refsIntoParameters` (typed as the media type, which TypeScript resolves);
 * deeper, one copy is made and the ref inside it left as written.
 */
function within(at: readonly string[], ref: string): boolean {
  let target: string[];
  try {
    target = parsePointer(ref);
  } catch {
    return false;
  }
  return target.length <= at.length && target.every((segment, index) => at[index] === segment);
}
