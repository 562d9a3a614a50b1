/**
 * What the tool takes from the generator's reading of the contract, kept in this one file so that
 * each can be swapped for the generator's own in one edit: the package version declared in
 * `x-sdk` (with the semver pattern it is checked against) and how a `$ref` is followed.
 */
import type { LoadedContract } from "../../generator/load.ts";
export { packageVersion, SEMVER } from "../../generator/emit/package.ts";

/** A node of the parsed contract: YAML as parsed, not typed further. */
export type Json = any;

export interface Resolved {
  value: Json;
  /** Where `value` sits: the last `$ref` followed, else where the node itself was. */
  pointer: string;
}

/** Follows local `$ref`s from `node` (found at `at`); a cycle stops at the first ref seen twice, without an error. */
export function deref(contract: LoadedContract, node: Json, at = ""): Resolved {
  let value = node;
  let where = at;
  const seen = new Set<string>();
  while (value && typeof value === "object" && typeof value.$ref === "string" && value.$ref.startsWith("#") && !seen.has(value.$ref)) {
    seen.add(value.$ref);
    where = value.$ref.slice(1);
    value = contract.resolve(value.$ref);
  }
  return { value, pointer: where };
}
