/**
 * Older dialects' keywords in a loaded document, read as their dialect meant them, once, before the
 * schema emitters, so that the types (openapi-typescript) and the validators read the same
 * 2020-12 schemas; each kind is told once as a warning:
 *
 * - OpenAPI 3.0 keywords left in a document that says 3.1 (`older-dialects/openapi30.ts`; a 3.0
 *   document was upgraded at load);
 * - draft-07's `definitions`, in any schema: read as `$defs`;
 * - a schema declaring an older draft with `$schema` (2019-09, draft-07, -06, -05, -04), or a document
 *   declaring one with `jsonSchemaDialect`: its keywords rewritten into 2020-12's
 *   (`older-dialects/drafts.ts`), its `$schema` then dropped;
 * - draft 2019-09's `$recursiveRef`/`$recursiveAnchor`, in any schema (after the above, which
 *   drops them from a draft that lacks them): read as `$dynamicRef`/`$dynamicAnchor`
 *   (`older-dialects/recursive-refs.ts`).
 *
 * Renamed keywords (`items` → `prefixItems`, `definitions` → `$defs`…) move nodes: every `$ref`
 * into them is rewritten, and `sourcePointer` maps a pointer into the result back to the place
 * written. A document without any of these is returned as it is (same object).
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { holdsData } from "../../common/schema-walk.ts";
import type { LoadedContract } from "../contract.ts";
import { definitionsAsDefs, draftOf, translateDraft, type Draft, type Rename } from "./drafts.ts";
import { openApi30Leftovers } from "./openapi30.ts";
import { hasRecursiveKeywords, recursiveAsDynamic } from "./recursive-refs.ts";
import type { Warnings } from "../../common/warnings.ts";

type Json = Record<string, unknown>;

const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
const SCHEMA_ARRAYS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SINGLE_SCHEMAS = ["items", "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"];

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readOlderDialects(contract: LoadedContract, warnings: Warnings): LoadedContract {
  // A 3.0 document was upgraded at load: what is 3.0 in it is read already.
  const after30 = !String(contract.document["openapi"] ?? "").startsWith("3.0");
  const recursive = hasRecursiveKeywords(contract.document);
  if (!new DialectWalk(undefined, after30).document(contract.document) && !recursive) return contract;
  // The loaded document is frozen: the emitters get a corrected copy.
  const document = structuredClone(contract.document);
  const walk = new DialectWalk(warnings, after30);
  walk.document(document);
  if (walk.refTargets.size > 0) rewriteRefs(document, walk.refTargets);
  const names = walk.writtenNames;
  if (recursive) {
    try {
      recursiveAsDynamic(document, warnings, names);
    } catch (error) {
      // Its pointers are into the document as renamed (`definitions` → `$defs`): named as written.
      if (error instanceof ContractError && error.file === undefined && names.size > 0) throw new ContractError(pointerAsWritten(contract, names, error.pointer), error.reason);
      throw error;
    }
  }
  return { ...contract, document, sourcePointer: (p) => contract.sourcePointer(names.size === 0 ? p : pointerAsWritten(contract, names, p)) };
}

/**
 * One walk over the document's schemas. Without `warnings` it only says whether there is anything
 * to read otherwise; with them it corrects the document in place and tells.
 */
class DialectWalk {
  /** Written pointer of a renamed keyword → its name now (for `$ref`s written into it). */
  readonly refTargets = new Map<string, string>();
  /** Pointer of a renamed keyword now → how it was renamed (for messages). */
  readonly writtenNames = new Map<string, Rename>();

  constructor(
    private readonly warnings: Warnings | undefined,
    /** Whether OpenAPI 3.0 leftovers are read (a 3.1 document). */
    private readonly leftovers30: boolean,
  ) {}

  /** Whether the document has anything to read otherwise. */
  document(document: Json): boolean {
    let dialect: Draft | undefined;
    if ("jsonSchemaDialect" in document) {
      dialect = draftOf(document["jsonSchemaDialect"]);
      if (dialect !== undefined && this.warnings === undefined) return true;
      if (dialect !== undefined) {
        this.warnings!.add("dialect:document", "/jsonSchemaDialect", `${JSON.stringify(document["jsonSchemaDialect"])} is ${dialect.name}: every schema is read as that draft meant the keywords that changed (array items as prefixItems, additionalItems as items, dependencies split…), the rest as 2020-12`);
        delete document["jsonSchemaDialect"];
      }
    }
    return this.other(document, "", dialect);
  }

  /** Outside schemas: every `schema` member (parameters, media types, headers) and components.schemas. */
  private other(node: unknown, at: string, dialect: Draft | undefined, parent?: string): boolean {
    let found = false;
    if (Array.isArray(node)) {
      node.forEach((item, index) => (found = this.other(item, `${at}/${index}`, dialect) || found));
      return found;
    }
    if (!isObject(node)) return false;
    for (const [key, value] of Object.entries(node)) {
      if (holdsData(key, parent) || key.startsWith("x-")) continue;
      if (key === "schema") found = this.schema(value, at + pointer(key), at + pointer(key), dialect) || found;
      else if (key === "schemas" && at === "/components" && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) found = this.schema(sub, at + pointer(key, name), at + pointer(key, name), dialect) || found;
      } else found = this.other(value, at + pointer(key), dialect, key) || found;
    }
    return found;
  }

  /** A schema at `at` (in the document as it becomes) written at `written`. */
  private schema(node: unknown, at: string, written: string, inherited: Draft | undefined): boolean {
    if (!isObject(node)) return false;
    let found = false;
    let dialect = inherited;
    if ("$schema" in node) {
      const declared = draftOf(node["$schema"]);
      // Another dialect (2020-12, or one the validators refuse with its pointer) ends an older one.
      dialect = declared;
      if (declared !== undefined) {
        if (this.warnings === undefined) return true;
        // One kind, however many drafts: what is done is the same.
        this.warnings.add("dialect:schema", `${at}/$schema`, `$schema ${JSON.stringify(node["$schema"])} is ${declared.name}: a schema declaring an older draft is read as its draft meant the keywords that changed (array items as prefixItems, additionalItems as items, dependencies split…), the rest as 2020-12`);
        delete node["$schema"];
      }
    }
    if (dialect !== undefined && this.warnings === undefined) return true;
    const renames: Rename[] = [];
    if (dialect !== undefined) renames.push(...translateDraft(node, at, dialect, this.warnings!));
    if (this.leftovers30 && openApi30Leftovers(node, at, this.warnings)) found = true;
    if (isObject(node["definitions"])) {
      found = true;
      if (this.warnings !== undefined) {
        const rename = definitionsAsDefs(node, at, this.warnings);
        if (rename) renames.push(rename);
      }
    }
    const renamed = new Map<string, Rename>();
    for (const rename of renames) {
      const { from, to } = rename;
      renamed.set(to, rename);
      this.writtenNames.set(at + pointer(to), rename);
      // A `$ref` into `dependencies` means one of its schemas, now under dependentSchemas.
      if (from !== "dependencies" || to === "dependentSchemas") this.refTargets.set(written + pointer(from), to);
    }
    // Where a subschema is now, and where it was written.
    const sub = (keyword: string, ...rest: (string | number)[]) => {
      const rename = renamed.get(keyword);
      const moved = rename !== undefined && (rename.entries === undefined || rename.entries.includes(String(rest[0])));
      return [at + pointer(keyword, ...rest), written + pointer(moved ? rename.from : keyword, ...rest)] as const;
    };
    for (const keyword of SCHEMA_MAPS) {
      const map = node[keyword];
      if (isObject(map)) for (const [name, value] of Object.entries(map)) found = this.schema(value, ...sub(keyword, name), dialect) || found;
    }
    for (const keyword of SCHEMA_ARRAYS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((value, index) => (found = this.schema(value, ...sub(keyword, index), dialect) || found));
    }
    for (const keyword of SINGLE_SCHEMAS) if (keyword in node) found = this.schema(node[keyword], ...sub(keyword), dialect) || found;
    return found;
  }
}

/** Rewrites, in place, each internal `$ref` whose path runs through a renamed keyword. */
function rewriteRefs(document: Json, targets: ReadonlyMap<string, string>): void {
  const visit = (node: unknown, parent?: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item));
    if (!isObject(node)) return;
    const ref = node["$ref"];
    if (typeof ref === "string" && ref.startsWith("#/")) node["$ref"] = rewrittenRef(ref, targets);
    for (const [key, value] of Object.entries(node)) if (!holdsData(key, parent)) visit(value, key);
  };
  visit(document);
}

function rewrittenRef(ref: string, targets: ReadonlyMap<string, string>): string {
  let segments: string[];
  try {
    segments = parsePointer(ref);
  } catch (error) {
    // A malformed fragment is refused where it is resolved, with its own pointer.
    if (error instanceof ContractError) return ref;
    throw error;
  }
  // Only the renamed segments change; the others stay as written (percent-encoding included).
  const raw = ref.slice(2).split("/");
  if (raw.length !== segments.length) return ref;
  let changed = false;
  for (let index = 0; index < segments.length; index++) {
    const renamed = targets.get(pointer(...segments.slice(0, index + 1)));
    if (renamed === undefined) continue;
    raw[index] = renamed;
    changed = true;
  }
  return changed ? `#/${raw.join("/")}` : ref;
}

/**
 * A pointer into the corrected document as a place in the document loaded: one that is there
 * already (a load warning) stays; otherwise each renamed keyword on its path takes its written name.
 */
function pointerAsWritten(contract: LoadedContract, writtenNames: ReadonlyMap<string, Rename>, at: string): string {
  let segments: string[];
  try {
    segments = parsePointer(at);
  } catch {
    return at;
  }
  if (contract.at(at) !== undefined) return at;
  return pointer(
    ...segments.map((segment, index) => {
      const rename = writtenNames.get(pointer(...segments.slice(0, index + 1)));
      const next = segments[index + 1];
      const moved = rename !== undefined && (rename.entries === undefined || (next !== undefined && rename.entries.includes(next)));
      return moved ? rename.from : segment;
    }),
  );
}
