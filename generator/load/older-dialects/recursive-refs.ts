/**
 * Draft 2019-09's `$recursiveAnchor: true` and `$recursiveRef: "#"`, read as 2020-12's
 * `$dynamicAnchor` and `$dynamicRef` (2019-09 core §8.2.4.2; 2020-12 core §8.2.3.2), in a schema of
 * any dialect (3.1 documents carry them without declaring 2019-09), so the emitters read one
 * dialect.
 *
 * What `"#"` means in an OpenAPI document: the fragment is resolved against the document, whose
 * root is no schema, and a component has no `$id` of its own, so read to the letter `"#"` names
 * nothing. What such a schema means is what it meant as a file of its own: `"#"` is its root, the
 * top-level schema it sits in (the component, or the `schema` member of a parameter, media type or
 * header). So:
 *
 * - `$recursiveAnchor: true` on a top-level schema becomes `$dynamicAnchor` of one name shared by
 *   every such schema (2019-09 has one recursive anchor, where 2020-12 names them);
 * - `$recursiveRef: "#"` becomes `$dynamicRef` to that name when its top-level schema is anchored,
 *   and otherwise to that schema's JSON pointer (then it is a `$ref`, as 2019-09 says);
 * - `$recursiveAnchor: false` says nothing and goes; `$recursiveAnchor: true` below a top-level
 *   schema is refused (it would need an `$id` of its own to be a `"#"`, and nested `$id`s are not
 *   supported), as is a `$recursiveRef` other than `"#"`.
 */
import { ContractError } from "../../common/errors.ts";
import { pointerRef } from "../../common/json-pointer.ts";
import { forEachSchema, hasAnyKey } from "../../common/schema-walk.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { Rename } from "./drafts.ts";

type Json = Record<string, unknown>;

const ANCHOR: Rename = { from: "$recursiveAnchor", to: "$dynamicAnchor" };
const REF: Rename = { from: "$recursiveRef", to: "$dynamicRef" };

/** Whether a document may have either keyword in a schema (see `hasAnyKey`). */
export function hasRecursiveKeywords(document: unknown): boolean {
  return hasAnyKey(document, ["$recursiveRef", "$recursiveAnchor"]);
}

/**
 * Rewrites both keywords in place (see above); each renamed keyword's pointer goes into `renamed`,
 * so messages name the keyword as written.
 */
export function recursiveAsDynamic(document: Json, warnings: Warnings, renamed: Map<string, Rename>): void {
  const anchored = new Set<string>();
  forEachSchema(document, (node, at, topLevel) => {
    if (!("$recursiveAnchor" in node)) return;
    const value = node["$recursiveAnchor"];
    const where = `${at}/$recursiveAnchor`;
    if (typeof value !== "boolean") throw new ContractError(where, `$recursiveAnchor must be true or false, not ${JSON.stringify(value)}`);
    if (value && at !== topLevel) {
      throw new ContractError(where, `$recursiveAnchor: true below the top-level schema ${topLevel}: only a schema resource's root is a target of $recursiveRef "#", and a nested one would need an $id, which is not supported`);
    }
    if (value && "$dynamicAnchor" in node) throw new ContractError(where, "$recursiveAnchor beside $dynamicAnchor: write one of them");
    if (value) anchored.add(at);
  });
  const name = unusedAnchorName(document, "recursive");
  forEachSchema(document, (node, at, topLevel) => {
    if ("$recursiveAnchor" in node) {
      warnings.add("draft:recursive-anchor", `${at}/$recursiveAnchor`, `$recursiveAnchor is draft 2019-09: read as 2020-12's $dynamicAnchor (${JSON.stringify(name)}), on the top-level schema (component or schema member) that $recursiveRef "#" means`);
      if (node["$recursiveAnchor"] === true) {
        node["$dynamicAnchor"] = name;
        renamed.set(`${at}/$dynamicAnchor`, ANCHOR);
      }
      delete node["$recursiveAnchor"];
    }
    if ("$recursiveRef" in node) {
      const where = `${at}/$recursiveRef`;
      if (node["$recursiveRef"] !== "#") throw new ContractError(where, `$recursiveRef must be "#" (the root of the schema it sits in), not ${JSON.stringify(node["$recursiveRef"])}`);
      if ("$dynamicRef" in node) throw new ContractError(where, "$recursiveRef beside $dynamicRef: write one of them");
      warnings.add("draft:recursive-ref", where, `$recursiveRef is draft 2019-09: read as 2020-12's $dynamicRef, "#" being the top-level schema (component or schema member) it sits in`);
      node["$dynamicRef"] = anchored.has(topLevel) ? `#${name}` : pointerRef(topLevel);
      delete node["$recursiveRef"];
      renamed.set(`${at}/$dynamicRef`, REF);
    }
  });
}

/** `base`, or `base-2`, `base-3`…: the first that no `$anchor` or `$dynamicAnchor` of the document uses. */
function unusedAnchorName(document: unknown, base: string): string {
  const taken = new Set<unknown>();
  forEachSchema(document, (node) => {
    taken.add(node["$anchor"]);
    taken.add(node["$dynamicAnchor"]);
  });
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}
