/**
 * The schema audit: every keyword of a unit's schema and of all its subschemas is checked before
 * any code is made, also those the code leaves out (string keywords under `type: number`, the
 * other branches of an `anyOf` with a `true` one, `then` without `if`), so that what is refused
 * does not depend on neighbouring keywords. Entries under `$defs` are audited whether used or not
 * (an unsupported keyword there would be one ignored silently); `$ref` targets are audited too,
 * also those of a branch the code leaves out, whose targets never become units. Each pointer is
 * audited once. A refusal is a ContractError at the JSON pointer of the offending keyword.
 *
 * What is checked and where subschemas are comes from the keyword definitions (keyword-registry.ts).
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { AuditScope, SubschemaShape, UnknownFormats } from "./keyword-definition.ts";
import { ASSERTION_KEYWORDS, VOCABULARY } from "./keyword-registry.ts";
import { auditPattern, schemaArray, schemaMap } from "./keyword-values.ts";
import type { RefKeyword, RefResolver } from "./resolve.ts";
import { schemaAt } from "./resolve.ts";
import { isObject, type SchemaObject } from "./schema-object.ts";
import { ANNOTATION_SUBSCHEMAS, checkKeywords } from "./vocabulary.ts";

/** Per keyword, how it holds subschemas, in the order the walk takes them. */
const SUBSCHEMAS: ReadonlyArray<readonly [keyword: string, shape: SubschemaShape]> = [
  ...VOCABULARY.flatMap((entry) => Object.entries(entry.subschemas ?? {})),
  ...Object.entries(ANNOTATION_SUBSCHEMAS),
];

export class SchemaAudit implements AuditScope {
  private readonly audited = new Set<string>();
  private readonly refsToAudit: string[] = [];

  constructor(
    private readonly document: unknown,
    private readonly refs: RefResolver,
    readonly ignoredFormats: ReadonlySet<string>,
    readonly unknownFormats: UnknownFormats,
    readonly warnings: Warnings,
  ) {}

  /** Audits a unit's schema, then every `$ref` target it reaches (through other targets too). */
  auditUnit(schema: unknown, at: string): void {
    this.audit(schema, at);
    for (let target = this.refsToAudit.pop(); target !== undefined; target = this.refsToAudit.pop()) {
      if (!this.audited.has(target)) this.audit(schemaAt(this.document, target), target);
    }
  }

  followRef(ref: unknown, at: string, keyword: RefKeyword = "$ref"): void {
    // Queued, not followed: a chain of $refs may be longer than the call stack is deep.
    this.refsToAudit.push(keyword === "$ref" ? this.refs.resolve(ref, at) : this.refs.resolveDynamic(ref, at));
  }

  private audit(schema: unknown, at: string): void {
    if (this.audited.has(at)) return;
    this.audited.add(at);
    if (typeof schema === "boolean") return;
    if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");
    checkKeywords(schema, at, at === "", ASSERTION_KEYWORDS, this.warnings);
    this.checkValues(schema, at);
    this.auditSubschemas(schema, at);
  }

  /** The values of the keywords present, each by its definition's check. */
  private checkValues(schema: SchemaObject, at: string): void {
    for (const entry of VOCABULARY) {
      if (entry.values === undefined) continue;
      for (const [keyword, check] of Object.entries(entry.values)) if (keyword in schema) check(schema, keyword, at, this);
    }
  }

  private auditSubschemas(schema: SchemaObject, at: string): void {
    for (const [keyword, shape] of SUBSCHEMAS) {
      if (!(keyword in schema)) continue;
      if (shape === "single") this.audit(schema[keyword], at + pointer(keyword));
      else if (shape === "array") schemaArray(schema, keyword, at).forEach((sub, index) => this.audit(sub, `${at}/${keyword}/${index}`));
      else {
        for (const [name, sub] of Object.entries(schemaMap(schema, keyword, at))) {
          if (shape === "patternMap") auditPattern(name, at + pointer(keyword, name), this.warnings);
          this.audit(sub, at + pointer(keyword, name));
        }
      }
    }
  }
}
