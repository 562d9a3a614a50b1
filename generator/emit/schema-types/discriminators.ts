/**
 * What openapi-typescript is shown of discriminators. Its scan (`scanDiscriminators`) types each
 * branch of a discriminated `oneOf` with the property set to the values that select it (the
 * mapping's, or the component's name), so that code can narrow on the property. Two changes, made
 * on the types' copy of the document:
 *
 * - a discriminated `anyOf` is shown to the scan as a `oneOf` (it reads no other), then taken back,
 *   so its branches narrow too;
 * - a branch whose property has values of its own (a `const` or `enum`, through `$ref` and `allOf`:
 *   what the validators check) is typed with those, not with a mapping value or name it rules out:
 *   `mapping` is rewritten so. The scan would otherwise type `type: "Share"` where the branch, and
 *   the data, say `"share"`.
 */
import type * as OpenapiTypescript from "openapi-typescript";
import { forEachSchema, hasAnyKey } from "../../common/schema-walk.ts";
import { RefResolver } from "../validators/resolve.ts";
import { TagConstraints } from "../validators/discriminator.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `scanDiscriminators` of the document, with the changes above (the mapping rewrites stay in `document`). */
export function scanDiscriminators(openapiTypescript: typeof OpenapiTypescript, document: OpenapiTypescript.OpenAPI3): ReturnType<typeof OpenapiTypescript.scanDiscriminators> {
  if (!hasAnyKey(document, ["discriminator"])) return openapiTypescript.scanDiscriminators(document, { silent: true });
  const shown: Json[] = [];
  const refs = new RefResolver(document);
  forEachSchema(document, (node, at) => {
    const discriminator = node["discriminator"];
    if (!isObject(discriminator) || typeof discriminator["propertyName"] !== "string") return;
    const keyword = Array.isArray(node["oneOf"]) ? "oneOf" : Array.isArray(node["anyOf"]) ? "anyOf" : undefined;
    if (keyword === undefined) return;
    ownValuesInMapping(node[keyword] as unknown[], discriminator, new TagConstraints(document, refs, discriminator["propertyName"]), `${at}/${keyword}`);
    if (keyword === "anyOf") shown.push(node);
  });
  for (const node of shown) node["oneOf"] = node["anyOf"];
  try {
    return openapiTypescript.scanDiscriminators(document, { silent: true });
  } finally {
    for (const node of shown) delete node["oneOf"];
  }
}

/** Each `$ref` branch with string values of its own is mapped from those, and only those. */
function ownValuesInMapping(branches: unknown[], discriminator: Json, tags: TagConstraints, at: string): void {
  const mapping: Json = isObject(discriminator["mapping"]) ? { ...discriminator["mapping"] } : {};
  let changed = false;
  branches.forEach((branch, index) => {
    if (!isObject(branch) || typeof branch["$ref"] !== "string") return;
    const ref = branch["$ref"];
    let own: string[];
    try {
      own = [...(tags.values(branch, `${at}/${index}`) ?? [])].map((text) => JSON.parse(text) as unknown).filter((v): v is string => typeof v === "string");
    } catch {
      return; // A reference the validators refuse, with its pointer; the types leave it as it is.
    }
    if (own.length === 0) return;
    for (const [value, target] of Object.entries(mapping)) {
      if (target === ref && !own.includes(value)) {
        delete mapping[value];
        changed = true;
      }
    }
    for (const value of own) {
      if (!(value in mapping)) {
        mapping[value] = ref;
        changed = true;
      }
    }
  });
  if (changed) discriminator["mapping"] = mapping;
}
