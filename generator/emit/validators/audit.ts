/**
 * The schema audit: every keyword of a unit's schema and of all its subschemas is checked before
 * any code is made, also those the code leaves out (string keywords under `type: number`, the
 * other branches of an `anyOf` with a `true` one, `then` without `if`), so that what is refused
 * does not depend on neighbouring keywords. Entries under `$defs` are audited whether used or not
 * (an unsupported keyword there would be one ignored silently); `$ref` targets are audited too,
 * also those of a branch the code leaves out, whose targets never become units. Each pointer is
 * audited once. A refusal is a ContractError at the JSON pointer of the offending keyword.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import { auditFormat, type UnknownFormats } from "./keywords/format.ts";
import { BOUND_KEYWORDS } from "./keywords/number.ts";
import { checkKeywords } from "./vocabulary.ts";
import {
  checkPattern,
  count,
  dependentRequiredOf,
  divisorOf,
  enumValues,
  finiteNumber,
  itemsOf,
  schemaArray,
  schemaMap,
  stringArray,
  typeList,
  uniqueItemsOf,
} from "./keyword-values.ts";
import type { RefResolver } from "./resolve.ts";
import { schemaAt } from "./resolve.ts";
import { isObject, type SchemaObject } from "./schema-object.ts";

const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties"];
const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs"];
const SCHEMA_ARRAYS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SINGLE_SCHEMAS = ["additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"];

export class SchemaAudit {
  private readonly audited = new Set<string>();
  private readonly refsToAudit: string[] = [];

  constructor(
    private readonly document: unknown,
    private readonly refs: RefResolver,
    private readonly ignoredFormats: ReadonlySet<string>,
    private readonly unknownFormats: UnknownFormats,
    private readonly warnings: Warnings,
  ) {}

  /** Audits a unit's schema, then every `$ref` target it reaches (through other targets too). */
  auditUnit(schema: unknown, at: string): void {
    this.audit(schema, at);
    for (let target = this.refsToAudit.pop(); target !== undefined; target = this.refsToAudit.pop()) {
      if (!this.audited.has(target)) this.audit(schemaAt(this.document, target), target);
    }
  }

  private audit(schema: unknown, at: string): void {
    if (this.audited.has(at)) return;
    this.audited.add(at);
    if (typeof schema === "boolean") return;
    if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");
    checkKeywords(schema, at, at === "", this.warnings);
    this.checkValues(schema, at);
    // Queued, not followed: a chain of $refs may be longer than the call stack is deep.
    if ("$ref" in schema) this.refsToAudit.push(this.refs.resolve(schema["$ref"], at + "/$ref"));
    this.auditSubschemas(schema, at);
  }

  /** The values of the keywords that hold no schema. */
  private checkValues(schema: SchemaObject, at: string): void {
    typeList(schema, at);
    if ("enum" in schema) enumValues(schema, at);
    stringArray(schema, "required", at);
    for (const keyword of COUNTS) if (keyword in schema) count(schema, keyword, at);
    for (const keyword of BOUND_KEYWORDS) if (keyword in schema) finiteNumber(schema, keyword, at);
    if ("multipleOf" in schema) divisorOf(schema, at);
    if ("uniqueItems" in schema) uniqueItemsOf(schema, at);
    if ("pattern" in schema) this.pattern(schema["pattern"], at + "/pattern");
    if ("format" in schema) auditFormat(schema["format"], at + "/format", this.ignoredFormats, this.unknownFormats, this.warnings);
    if ("dependentRequired" in schema) dependentRequiredOf(schema, at);
  }

  /** A pattern valid only without the `u` flag is compiled so, and told. */
  private pattern(source: unknown, at: string): void {
    if (checkPattern(source, at).unicode) return;
    this.warnings.add("pattern:no-u-flag", at, `pattern ${JSON.stringify(source)} is invalid with the u flag JSON Schema asks for: compiled without it`);
  }

  private auditSubschemas(schema: SchemaObject, at: string): void {
    for (const keyword of SCHEMA_MAPS) {
      for (const [name, sub] of Object.entries(schemaMap(schema, keyword, at))) {
        if (keyword === "patternProperties") this.pattern(name, at + pointer(keyword, name));
        this.audit(sub, at + pointer(keyword, name));
      }
    }
    for (const keyword of SCHEMA_ARRAYS) {
      if (keyword in schema) schemaArray(schema, keyword, at).forEach((sub, index) => this.audit(sub, `${at}/${keyword}/${index}`));
    }
    if ("items" in schema) this.audit(itemsOf(schema, at), at + "/items");
    for (const keyword of SINGLE_SCHEMAS) {
      if (keyword in schema) this.audit(schema[keyword], at + pointer(keyword));
    }
  }
}
