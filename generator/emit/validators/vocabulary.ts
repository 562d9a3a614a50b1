/**
 * The keywords the validator emitter ignores as annotations and those it refuses (those it cannot
 * compile correctly), and the formats it knows; the ones it checks are the keyword definitions'
 * (keyword-registry.ts). A keyword it does not know is an annotation too, told once per keyword
 * as a warning: nothing is ignored silently.
 */
import { ACCEPTED_DIALECTS } from "../../common/dialects.ts";
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { SubschemaShape } from "./keyword-definition.ts";
import type { RuntimeValue } from "./runtime-helpers.ts";

/**
 * Keywords with no effect on validation. `$defs` only holds schemas for `$ref`; `default` is used
 * by `withDefaults…` only; `$schema` must name 2020-12 (or the OpenAPI 3.1 dialect: an older draft
 * is rewritten into 2020-12 before, by generator/load/older-dialects/); `$id` is
 * accepted at the document root only; `$anchor` names a `$ref` target, `$dynamicAnchor` a `$ref` or
 * `$dynamicRef` target (the `$dynamicRef` keyword resolves it, see resolve.ts). The `content*` keywords are
 * annotations by definition in 2020-12 (§8 of the validation vocabulary): they never assert.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "$defs",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "example",
  "deprecated",
  "readOnly",
  "writeOnly",
  "discriminator",
  "xml",
  "externalDocs",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

/** Annotations that hold schemas: audited like the others (an unsupported keyword there would be ignored silently), never compiled. */
export const ANNOTATION_SUBSCHEMAS: Readonly<Record<string, SubschemaShape>> = { $defs: "map" };

export interface FormatChecker {
  /** The runtime helper that checks the format. */
  helper: RuntimeValue;
  /** What a value of the format is, for messages: "a UUID". */
  noun: string;
}

/** Formats the generated code checks, and the runtime helper that checks each. */
export const FORMAT_CHECKERS: ReadonlyMap<string, FormatChecker> = new Map<string, FormatChecker>([
  ["date-time", { helper: "validDateTime", noun: "an RFC 3339 date-time" }],
  ["date", { helper: "validDate", noun: "an RFC 3339 date" }],
  ["uri", { helper: "validUri", noun: "an absolute URI" }],
  ["uri-reference", { helper: "validUriReference", noun: "a URI reference" }],
  ["uuid", { helper: "validUuid", noun: "a UUID" }],
  ["email", { helper: "validEmail", noun: "an email address" }],
]);

/**
 * OpenAPI's data-type formats (OpenAPI 3.1 §4.8.5.2: int32, int64, float, double, password) and
 * the 3.0-era `binary`/`byte` string hints: annotations by design, never checked, said nothing of.
 * Any other format is an annotation told as a warning (or refused, on request).
 */
export const IGNORED_FORMATS: ReadonlySet<string> = new Set(["int32", "int64", "float", "double", "password", "binary", "byte"]);

const REFUSALS: ReadonlyMap<string, string> = new Map([
  // The load stage rewrites them into $dynamicRef/$dynamicAnchor (generator/load/older-dialects/recursive-refs.ts): met here, the schemas did not come through it.
  ["$recursiveRef", "$recursiveRef is draft 2019-09: the validators read 2020-12's $dynamicRef (a contract's are rewritten when it is loaded)"],
  ["$recursiveAnchor", "$recursiveAnchor is draft 2019-09: the validators read 2020-12's $dynamicAnchor (a contract's are rewritten when it is loaded)"],
  ["$vocabulary", "$vocabulary is not supported: only the 2020-12 vocabularies apply"],
  ["nullable", 'nullable is OpenAPI 3.0; in 3.1 write type: [..., "null"]'],
  // Older drafts' keywords in a schema that does not declare its draft with $schema.
  ["dependencies", "dependencies is draft 7; use dependentRequired or dependentSchemas (or declare the draft with $schema)"],
  ["definitions", "definitions is draft 7; use $defs"],
  ["additionalItems", "additionalItems is draft 2019-09; use prefixItems and items (or declare the draft with $schema)"],
]);

/**
 * Refuses the keywords that cannot be compiled correctly and bad values of the annotations it
 * reads; tells of an unknown keyword (not an `x-` extension, not one of `assertions`), which is an
 * annotation.
 */
export function checkKeywords(schema: Record<string, unknown>, at: string, isDocumentRoot: boolean, assertions: ReadonlySet<string>, warnings: Warnings): void {
  for (const keyword of Object.keys(schema)) {
    if (assertions.has(keyword) || keyword.startsWith("x-")) continue;
    const where = at + pointer(keyword);
    const refusal = REFUSALS.get(keyword);
    if (refusal !== undefined) throw new ContractError(where, refusal);
    if (!ANNOTATION_KEYWORDS.has(keyword)) {
      warnings.add(`keyword:${keyword}`, where, `unknown schema keyword ${JSON.stringify(keyword)}: an annotation, the validators ignore it`);
      continue;
    }
    const value = schema[keyword];
    if (keyword === "$id" && !isDocumentRoot) {
      throw new ContractError(where, "$id is only supported at the document root (changes of base URI are not supported)");
    }
    if ((keyword === "$anchor" || keyword === "$dynamicAnchor") && (typeof value !== "string" || !/^[A-Za-z_][-A-Za-z0-9._]*$/.test(value))) {
      throw new ContractError(where, `${keyword} ${JSON.stringify(value)} is not a plain name (a letter or "_", then letters, digits, "-", "." or "_")`);
    }
    if (keyword === "$schema" && (typeof value !== "string" || !ACCEPTED_DIALECTS.has(value.replace(/#$/, "")))) {
      throw new ContractError(where, `$schema ${JSON.stringify(value)} is not JSON Schema 2020-12, nor a draft the generator reads as 2020-12 (2019-09, 07, 06, 04)`);
    }
  }
}
