/**
 * JSON Schema drafts before 2020-12 (2019-09, draft-07, -06, -04), for a schema that declares one
 * with `$schema` (or a document whose `jsonSchemaDialect` does): its keywords rewritten into the
 * 2020-12 keywords that mean what the draft meant, in place, so the types and the validators read
 * one dialect. What no 2020-12 keyword can say (draft-04's `id`) is refused, with its JSON pointer,
 * by the validators' vocabulary or here; 2019-09's `$recursiveRef`/`$recursiveAnchor` are rewritten
 * after this, in any dialect (recursive-refs.ts).
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";

type Json = Record<string, unknown>;

export interface Draft {
  /** As messages name it: `draft 2019-09`. */
  name: string;
  /** 2020-12 keywords the draft does not have: unknown to it, they assert nothing there. */
  lacks: readonly string[];
  /** `$ref` makes its siblings ignored (draft-07 and before; 2019-09 applies them). */
  refAlone: boolean;
  /** `id` is the draft's `$id` (draft-04). */
  idKeyword: boolean;
}

/** A keyword written under one name and read under another (`items` → `prefixItems`). */
export interface Rename {
  from: string;
  to: string;
  /** For a map merged into one already there: the entries that moved. */
  entries?: readonly string[];
}

const DRAFT_2019_09: Draft = { name: "draft 2019-09", lacks: ["prefixItems", "$dynamicRef", "$dynamicAnchor"], refAlone: false, idKeyword: false };
const DRAFT_07: Draft = {
  name: "draft-07",
  lacks: [...DRAFT_2019_09.lacks, "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains", "$recursiveRef", "$recursiveAnchor"],
  refAlone: true,
  idKeyword: false,
};
const DRAFT_06: Draft = { ...DRAFT_07, name: "draft-06", lacks: [...DRAFT_07.lacks, "if", "then", "else"] };
const DRAFT_04: Draft = { ...DRAFT_06, name: "draft-04", lacks: [...DRAFT_06.lacks, "const", "contains", "propertyNames"], idKeyword: true };

/** Meta-schema URIs, without scheme and trailing "#": json-schema.org serves them over http and https alike. */
const DRAFTS: ReadonlyMap<string, Draft> = new Map([
  ["json-schema.org/draft/2019-09/schema", DRAFT_2019_09],
  ["json-schema.org/draft-07/schema", DRAFT_07],
  ["json-schema.org/draft-06/schema", DRAFT_06],
  ["json-schema.org/draft-04/schema", DRAFT_04],
  // Draft-05 only reworded draft-04 and published no meta-schema of its own; its URI still means draft-04's keywords.
  ["json-schema.org/draft-05/schema", { ...DRAFT_04, name: "draft-05" }],
]);

/** The older draft a `$schema` (or `jsonSchemaDialect`) value names, if it names one. */
export function draftOf(uri: unknown): Draft | undefined {
  if (typeof uri !== "string") return undefined;
  return DRAFTS.get(uri.replace(/^https?:\/\//, "").replace(/#$/, ""));
}

/** Keywords that may stand beside `$ref` in draft-07 and before: annotations and schema containers. */
const REF_COMPANIONS: ReadonlySet<string> = new Set(["$ref", "$defs", "definitions", "$comment", "title", "description", "examples", "example", "deprecated", "readOnly", "writeOnly"]);

/**
 * Rewrites one schema object of `draft` into 2020-12, in place, telling each kind of change once;
 * returns the keywords it renamed, so `$ref`s into them and messages about them can be mapped.
 */
export function translateDraft(node: Json, at: string, draft: Draft, warnings: Warnings): Rename[] {
  const renames: Rename[] = [];
  const dropped = (keyword: string, key: string, message: string) => {
    warnings.add(key, at + pointer(keyword), message);
    delete node[keyword];
  };
  for (const keyword of draft.lacks) {
    if (keyword in node) dropped(keyword, `dialect:lacks:${keyword}`, `${keyword} is not a keyword of ${draft.name}, which the schema declares: it asserts nothing there, so it is left out`);
  }
  if (draft.refAlone && "$ref" in node) {
    for (const keyword of Object.keys(node)) {
      if (REF_COMPANIONS.has(keyword) || keyword.startsWith("x-")) continue;
      dropped(keyword, "dialect:ref-siblings", `beside $ref, ${draft.name} ignores the other keywords: ${keyword} is left out`);
    }
  }
  // After the siblings of a $ref are dropped: an `id` beside one changes nothing.
  if (draft.idKeyword && typeof node["id"] === "string") {
    throw new ContractError(at + "/id", `id is ${draft.name}'s $id: a change of base URI, which is not supported`);
  }
  if (Array.isArray(node["items"])) {
    node["prefixItems"] = node["items"];
    delete node["items"];
    renames.push({ from: "items", to: "prefixItems" });
    if ("additionalItems" in node) {
      node["items"] = node["additionalItems"];
      delete node["additionalItems"];
      renames.push({ from: "additionalItems", to: "items" });
    }
  } else if ("additionalItems" in node) {
    dropped("additionalItems", "dialect:additionalItems-alone", `additionalItems without an array of items does nothing in ${draft.name}: it is left out`);
  }
  const dependencies = node["dependencies"];
  if (typeof dependencies === "object" && dependencies !== null && !Array.isArray(dependencies)) {
    for (const split of ["dependentRequired", "dependentSchemas"]) {
      if (split in node) throw new ContractError(at + pointer(split), `${split} beside ${draft.name}'s dependencies: write one or the other`);
    }
    // Names listed are required properties; a schema applies to the whole object.
    const entries = Object.entries(dependencies as Json);
    const required = entries.filter(([, value]) => Array.isArray(value));
    const schemas = entries.filter(([, value]) => !Array.isArray(value));
    if (required.length > 0) {
      node["dependentRequired"] = Object.fromEntries(required);
      renames.push({ from: "dependencies", to: "dependentRequired" });
    }
    if (schemas.length > 0) {
      node["dependentSchemas"] = Object.fromEntries(schemas);
      renames.push({ from: "dependencies", to: "dependentSchemas" });
    }
    delete node["dependencies"];
  }
  return renames;
}

/**
 * Draft-7's `definitions`, in any dialect: a container of schemas that `$ref`s point into, which is
 * what 2020-12 calls `$defs` (merged into it when both are there). Returns the rename, if any.
 */
export function definitionsAsDefs(node: Json, at: string, warnings: Warnings): Rename | undefined {
  const definitions = node["definitions"];
  if (typeof definitions !== "object" || definitions === null || Array.isArray(definitions)) return undefined;
  const defs = node["$defs"] ?? {};
  if (typeof defs !== "object" || defs === null || Array.isArray(defs)) return undefined;
  for (const name of Object.keys(definitions)) {
    if (Object.hasOwn(defs, name)) throw new ContractError(at + pointer("definitions", name), `"${name}" is also an entry of $defs beside it; name it once`);
  }
  warnings.add("draft:definitions", at + "/definitions", "definitions is draft-07: read as $defs (a container of schemas $refs point into); in 2020-12 write $defs");
  node["$defs"] = { ...defs, ...definitions };
  delete node["definitions"];
  return { from: "definitions", to: "$defs", entries: Object.keys(definitions) };
}
