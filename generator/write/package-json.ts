/**
 * package.json is shared: the generator writes its fields, the team adds its own (scripts,
 * dependencies, publishConfig…). The merge rule, also in README.md ("Regenerating"):
 * - a field the generator writes takes the generator's value, except the maps merged by entry
 *   (`scripts` and the dependency maps), where the generator's entries take its values and the
 *   team's other entries stay;
 * - a field or map entry the generator wrote last time and no longer writes is removed;
 * - every other field or entry is the team's and stays as it is.
 * What the generator wrote last time is recorded in the manifest (`PackageJsonOwnership`).
 */
import { UsageError } from "../common/errors.ts";

/** Fields whose entries are merged one by one rather than replaced whole. */
const MERGED_BY_ENTRY = new Set(["scripts", "dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]);
/** Maps npm itself keeps sorted (`npm install --save`), so a merge sorts them the same way. */
const SORTED_BY_NPM = new Set(["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]);

/** What the generator set in package.json: its top-level fields, and its entries in the maps merged by entry. */
export interface PackageJsonOwnership {
  fields: string[];
  entries: Record<string, string[]>;
}

type JsonObject = Record<string, unknown>;

export function packageJsonOwnership(generatedText: string): PackageJsonOwnership {
  const generated = parseObject(generatedText, "the generated package.json");
  const entries: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(generated)) {
    if (MERGED_BY_ENTRY.has(field) && isObject(value)) entries[field] = Object.keys(value);
  }
  return { fields: Object.keys(generated), entries };
}

/**
 * The package.json to leave on disk: `onDiskText` itself when it already says what the merge
 * says (whatever its layout or key order, as `npm install` rewrites it), the generated text when
 * the team added nothing, else the merge as npm lays JSON out. `previous` is what the generator
 * wrote last time; without it (a folder generated before the manifest) it is what it writes now.
 */
export function mergePackageJson(generatedText: string, onDiskText: string, previous: PackageJsonOwnership | undefined, where: string): string {
  const generated = parseObject(generatedText, "the generated package.json");
  const onDisk = parseObject(onDiskText, where);
  const owned = previous ?? packageJsonOwnership(generatedText);
  const merged: Array<[string, unknown]> = [];
  for (const [field, value] of Object.entries(generated)) {
    const team = onDisk[field];
    merged.push([field, MERGED_BY_ENTRY.has(field) && isObject(value) && isObject(team) ? mergeEntries(field, value, team, owned.entries[field] ?? []) : value]);
  }
  for (const [field, team] of Object.entries(onDisk)) {
    if (Object.hasOwn(generated, field)) continue;
    if (!owned.fields.includes(field)) merged.push([field, team]);
    else if (MERGED_BY_ENTRY.has(field) && isObject(team)) {
      // A map the generator no longer writes keeps the entries the team added to it.
      const kept = mergeEntries(field, {}, team, owned.entries[field] ?? []);
      if (Object.keys(kept).length > 0) merged.push([field, kept]);
    }
  }
  const result = Object.fromEntries(merged);
  if (sameJson(result, onDisk)) return onDiskText;
  if (sameJson(result, generated)) return generatedText;
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** The generator's entries, then the team's others (not those the generator wrote before); dependency maps sorted as npm sorts them. */
function mergeEntries(field: string, generated: JsonObject, team: JsonObject, ownedBefore: readonly string[]): JsonObject {
  const entries = Object.entries(generated);
  for (const [name, value] of Object.entries(team)) {
    if (!Object.hasOwn(generated, name) && !ownedBefore.includes(name)) entries.push([name, value]);
  }
  if (SORTED_BY_NPM.has(field)) entries.sort(([a], [b]) => a.localeCompare(b, "en"));
  return Object.fromEntries(entries);
}

/** Equal as JSON values: objects whatever their key order, arrays in order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

function parseObject(text: string, where: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not valid JSON (${(error as Error).message}); fix it or delete it, then generate again`);
  }
  if (!isObject(value)) throw new UsageError(`${where} does not hold a JSON object; fix it or delete it, then generate again`);
  return value;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
