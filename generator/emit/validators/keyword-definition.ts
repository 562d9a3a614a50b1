/**
 * The shape of a keyword definition: everything the compiler knows of one keyword family, in one
 * object. The registry (keyword-registry.ts) lists the definitions in emission order; the
 * assertion vocabulary, the audit's checks and walk, and the order of a schema's code all come
 * from it.
 */
import type { RefKeyword } from "./resolve.ts";
import type { Block, Code } from "../code.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { Ctx } from "./context.ts";
import type { TypeName } from "./keyword-values.ts";
import type { SchemaObject } from "./schema-object.ts";

/**
 * The values a definition's checks apply to: its code is emitted behind a guard of that type
 * (left out when `type` rules the type out, unguarded when `type` guarantees it); `"any"` for
 * keywords that apply to every value (`$ref`, the in-place applicators, `enum`, `const`).
 */
export type KeywordGroup = "number" | "string" | "array" | "object" | "any";

/**
 * How a keyword holds subschemas: one schema, an array of schemas, an object of named schemas, or
 * one whose names are patterns (each checked as one before its schema).
 */
export type SubschemaShape = "single" | "array" | "map" | "patternMap";

/** How a format the validators do not check (and the caller did not list as ignored) is met. */
export type UnknownFormats = "warn" | "error";

/** What the audit lends a keyword's value check. */
export interface AuditScope {
  readonly warnings: Warnings;
  /** Formats that are annotations without a warning. */
  readonly ignoredFormats: ReadonlySet<string>;
  readonly unknownFormats: UnknownFormats;
  /** Audits the target of a `$ref` or `$dynamicRef` (found at `at`) too. */
  followRef(ref: unknown, at: string, keyword?: RefKeyword): void;
}

/** Checks a keyword's value (present in `schema`): throws a ContractError at `at` + the keyword's pointer if it cannot be compiled. */
export type ValueCheck = (schema: SchemaObject, keyword: string, at: string, audit: AuditScope) => unknown;

/** A message: a text, or a function of the contract's values giving a text or code of a string expression. */
export type Message = string | ((...args: never[]) => string | Code);

/** What the vocabulary and the audit know of a keyword family. */
export interface VocabularyEntry {
  /** The keywords it owns (the ones one emitter must see together, e.g. `if`, `then`, `else`). */
  readonly keywords: readonly string[];
  /** Per owned keyword whose value needs checking beyond holding schemas, its check. */
  readonly values?: Readonly<Record<string, ValueCheck>>;
  /** Per owned keyword that holds subschemas, how: the audit walks them, also where no code is made for them. */
  readonly subschemas?: Readonly<Record<string, SubschemaShape>>;
  /** The texts of the issues its code records. */
  readonly messages: Readonly<Record<string, Message>>;
}

/** A keyword family whose code goes among the others'. */
export interface KeywordDefinition extends VocabularyEntry {
  readonly group: KeywordGroup;
  /**
   * Appends the family's checks of `ctx.v` to `b` (nothing when its keywords are absent). `types`
   * holds the types `type` declares (undefined without `type`).
   */
  emit(schema: SchemaObject, at: string, ctx: Ctx, b: Block, types: ReadonlySet<TypeName> | undefined): void;
}

/** `type`, whose check goes around the code of all the others. */
export interface WrappingDefinition extends VocabularyEntry {
  /** `rest` (the other keywords' code) behind the check of `types` (undefined: no `type` keyword). */
  wrap(types: readonly TypeName[] | undefined, at: string, ctx: Ctx, rest: Block): Block;
}
