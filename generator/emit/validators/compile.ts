/**
 * Compiles JSON Schemas (2020-12) into plain TypeScript functions. Every `$ref` target, and every
 * entry schema, is a "unit" with two functions:
 *
 * - `c_<Stem>(v): boolean` — the fast path: straight-line checks that return false at the first
 *   failure, no allocation;
 * - `e_<Stem>(v, p, issues, s)` — the reporting path, run only on values the fast path rejected: it
 *   records every failure with the value's JSON pointer (`p` + segments) and the keyword's pointer
 *   into the contract (`s`, the schema's pointer, + the keyword's place below it).
 *
 * Schemas with the same JSON text share the pair of the first one (see `unitAt`): only `s` differs.
 *
 * Subschemas under a unit are inlined (schema.ts, keywords/). In boolean mode a failed check jumps
 * (`return false;`, or `break L;` inside `anyOf` branches, `not`, `if`, `contains`), so no
 * closures or temporary results are needed. Contract text reaches code only as data (see code.ts).
 */
import { createHash } from "node:crypto";
import { parsePointer } from "../../common/json-pointer.ts";
import { identifier } from "../../common/escape.ts";
import { SchemaAudit } from "./audit.ts";
import { code, functionDeclaration, name, raw, RETURN_FALSE, Scope, type Block, type Code, type Declaration } from "../code.ts";
import { ModuleConstants } from "./constants.ts";
import { Discriminators } from "./discriminator.ts";
import { ISSUES, PATH, SCHEMA_AT, VALUE, type Ctx, type Env } from "./context.ts";
import type { Unit } from "./unit.ts";
import { IGNORED_FORMATS } from "./vocabulary.ts";
import type { UnknownFormats } from "./keyword-definition.ts";
import { ASSERTION_KEYWORDS } from "./keyword-registry.ts";
import { Warnings } from "../../common/warnings.ts";
import { SameInstanceRefs } from "./recursion.ts";
import { REF_KEYWORDS, RefResolver, schemaAt, type RefKeyword } from "./resolve.ts";
import { runtime } from "./runtime-helpers.ts";
import { sameValueCode, schemaCode } from "./schema.ts";
import { Stems } from "./stems.ts";
import { isObject } from "./schema-object.ts";
import { ReadWriteMarks, type Direction } from "../../common/read-write.ts";

/** Keywords a schema of only a `$ref` (or only a `$dynamicRef`) may have beside it: annotations, which change no check. */
const REF_ONLY_KEYWORDS = new Set(["description", "title", "$comment", "deprecated", "examples"]);

/**
 * The text two schemas share when they compile to the same functions: their JSON text (a `$ref`
 * means the same wherever it is written: only the document's root `$id` sets a base), hashed
 * when long so the map stays small. A `$dynamicRef`'s anchor name means the declaration in its own
 * schema resource (resolve.ts): text holding one is keyed with that resource too.
 */
function sameTextKey(schema: unknown, resourceOf: () => string): string {
  const json = JSON.stringify(schema);
  const text = json.includes('"$dynamicRef"') ? `${resourceOf()}\n${json}` : json;
  return text.length <= 64 ? text : createHash("sha256").update(text).digest("base64");
}

export interface CompilerOptions {
  /** Formats that are annotations without a warning, on top of OpenAPI's data-type formats. */
  ignoredFormats?: readonly string[];
  /** An unknown format: an annotation told as a warning (the default), or an error. */
  unknownFormats?: UnknownFormats;
  /** Where annotations the validators ignore, and patterns compiled without `u`, are told. */
  warnings?: Warnings;
}

export class ValidatorCompiler implements Env {
  /** Per JSON pointer, its unit, in creation order (units sharing functions included). */
  readonly units = new Map<string, Unit>();
  readonly constants = new ModuleConstants();
  readonly recursion = new SameInstanceRefs();
  readonly assertionKeywords = ASSERTION_KEYWORDS;
  /** The document's read-only and write-only properties; undefined when it has none. */
  readonly marks: ReadWriteMarks | undefined;
  readonly discriminators: Discriminators;
  private readonly refs: RefResolver;
  private readonly audit: SchemaAudit;
  private readonly stems = new Stems();
  private readonly pending: Unit[] = [];
  /** Units that share another's functions: audited, not compiled. */
  private readonly auditOnly: Unit[] = [];
  /** Per schema text (see sameTextKey), the unit whose functions it has. */
  private readonly byText = new Map<string, Unit>();
  /** Schemas of only a `$ref` being followed: a cycle of them gets units of its own (and is refused as one). */
  private readonly following = new Set<string>();

  constructor(
    readonly document: unknown,
    options: CompilerOptions = {},
  ) {
    const ignoredFormats = new Set([...IGNORED_FORMATS, ...(options.ignoredFormats ?? [])]);
    this.refs = new RefResolver(document);
    const warnings = options.warnings ?? new Warnings();
    this.marks = ReadWriteMarks.of(document);
    this.audit = new SchemaAudit(document, this.refs, ignoredFormats, options.unknownFormats ?? "warn", warnings);
    this.discriminators = new Discriminators(document, this.refs, warnings, ASSERTION_KEYWORDS);
  }

  /**
   * The unit of the schema at `at` (a normalized JSON pointer), created on first use. A schema
   * that is only a `$ref` (and annotations) is its target's unit; one written exactly like an
   * earlier unit's schema shares that unit's functions (real contracts repeat the same parameter
   * and property schemas thousands of times). In a `view` (a direction) the schema is checked in
   * where that differs from checking it as written, it is a unit of its own; elsewhere the view is
   * dropped, so a schema without read-only or write-only properties has one unit.
   */
  unitAt(at: string, stemHint?: string, view?: Direction): Unit {
    const viewed = view !== undefined && this.marks?.differsIn(at, view) === true ? view : undefined;
    const key = viewed === undefined ? at : `${at} ${viewed}`;
    const existing = this.units.get(key);
    if (existing !== undefined) return existing;
    const schema = schemaAt(this.document, at);
    const target = this.refOnlyTarget(schema, at);
    if (target !== undefined) {
      this.following.add(at);
      try {
        const unit = this.unitAt(target, undefined, viewed);
        this.units.set(key, unit);
        return unit;
      } finally {
        this.following.delete(at);
      }
    }
    // A view's functions differ from the text's as written: they are shared only within the view.
    const textKey = `${viewed ?? ""}${sameTextKey(schema, () => this.refs.resourceOf(at))}`;
    const first = this.byText.get(textKey);
    if (first !== undefined) {
      const unit: Unit = { pointer: at, schema, stem: first.stem, check: first.check, collect: first.collect, functions: first, ...(viewed && { view: viewed }) };
      this.units.set(key, unit);
      this.auditOnly.push(unit);
      return unit;
    }
    const base = stemHint ?? identifier(parsePointer(at).at(-1) ?? "root");
    const stem = this.stems.take(viewed === undefined || stemHint !== undefined ? base : `${base}_${viewed}`);
    const unit = { pointer: at, schema, stem, check: `c_${stem}`, collect: `e_${stem}`, ...(viewed && { view: viewed }) } as Unit;
    unit.functions = unit;
    this.units.set(key, unit);
    this.byText.set(textKey, unit);
    this.pending.push(unit);
    return unit;
  }

  /** The functions' units so far, each once, in creation order. */
  functionUnits(): Unit[] {
    return [...this.byText.values()];
  }

  /** Where a schema of only `$ref` (or `$dynamicRef`) and annotations leads; undefined for any other (or a cycle of them). */
  private refOnlyTarget(schema: unknown, at: string): string | undefined {
    if (!isObject(schema) || this.following.has(at)) return undefined;
    const keywords = Object.keys(schema).filter((keyword) => !REF_ONLY_KEYWORDS.has(keyword));
    const keyword = keywords[0];
    if (keywords.length !== 1 || (keyword !== "$ref" && keyword !== "$dynamicRef")) return undefined;
    return this.resolveRef(schema[keyword], `${at}/${keyword}`, keyword);
  }

  /** The JSON pointer a `$ref` or `$dynamicRef` (found at `at`) leads to, normalized. */
  resolveRef(ref: unknown, at: string, keyword: RefKeyword = "$ref"): string {
    return keyword === "$ref" ? this.refs.resolve(ref, at) : this.refs.resolveDynamic(ref, at);
  }

  refTarget(ref: unknown, at: string, keyword: RefKeyword = "$ref", view?: Direction): Unit {
    return this.unitAt(this.resolveRef(ref, at, keyword), undefined, view);
  }

  /** The names of a schema's `required` that a unit in `view` leaves out (its hidden properties). */
  hiddenRequired(schema: Record<string, unknown>, view: Direction | undefined): readonly string[] {
    return view === undefined || this.marks === undefined ? [] : this.marks.hiddenRequired(schema, view);
  }

  /** The units a schema's `$ref` and then its `$dynamicRef` lead to. */
  refTargetsOf(schema: Record<string, unknown>, at: string): Unit[] {
    return REF_KEYWORDS.filter((keyword) => keyword in schema).map((keyword) => this.refTarget(schema[keyword], `${at}/${keyword}`, keyword));
  }

  /** Compiles every unit reached so far (and the ones they reach); returns their functions. */
  compilePending(): Declaration[] {
    const out: Declaration[] = [];
    // By index (the list grows while it is compiled), not shift(): no copying of what is left.
    for (let next = 0; next < this.pending.length; next++) {
      const unit = this.pending[next] as Unit;
      this.audit.auditUnit(unit.schema, unit.pointer);
      out.push(this.checkFunction(unit), this.collectFunction(unit));
    }
    this.pending.length = 0;
    for (const unit of this.auditOnly) this.audit.auditUnit(unit.schema, unit.pointer);
    this.auditOnly.length = 0;
    this.recursion.refuseCycles(this.byText.values());
    return out;
  }

  gen(schema: unknown, at: string, ctx: Ctx): Block {
    return schemaCode(schema, at, ctx);
  }

  genSame(schema: unknown, at: string, ctx: Ctx): Block {
    return sameValueCode(schema, at, ctx);
  }

  private checkFunction(unit: Unit): Declaration {
    const body = this.unitBody(unit, "bool").add(raw("return true;"));
    return functionDeclaration(unit.check, parameter(body, VALUE), body);
  }

  private collectFunction(unit: Unit): Declaration {
    const body = this.unitBody(unit, "collect");
    const params = code`${parameter(body, VALUE)}, ${parameter(body, PATH)}, ${parameter(body, ISSUES)}, ${parameter(body, SCHEMA_AT)}`;
    return functionDeclaration(unit.collect, params, body);
  }

  private unitBody(unit: Unit, mode: Ctx["mode"]): Block {
    const ctx: Ctx = { env: this, scope: new Scope(), mode, v: VALUE, fail: RETURN_FALSE, path: PATH, sameInstance: true, unit };
    return schemaCode(unit.schema, unit.pointer, ctx);
  }
}

/** The parameter, named with a leading "_" when the body never reads it. */
function parameter(body: Block, param: Code): Code {
  return body.uses(param) ? param : name(`_${param.text}`);
}
