/**
 * Compiles JSON Schemas (2020-12) into plain TypeScript statements. Every `$ref` target, and every
 * entry schema, is a "unit" with two functions:
 *
 * - `c_<Stem>(v): boolean` — the fast path: straight-line checks that return false at the first
 *   failure, no allocation;
 * - `e_<Stem>(v, p, issues)` — the reporting path, run only on values the fast path rejected: it
 *   records every failure with the value's JSON pointer (`p` + segments) and the keyword's pointer
 *   into the contract.
 *
 * Subschemas under a unit are inlined. In boolean mode a failed check jumps (`return false;`, or
 * `break L;` inside `anyOf` branches, `not`, `if`, `contains`), so no closures or temporary results
 * are needed. Contract text reaches code only through `stringLiteral`/`identifier`.
 */
import { ContractError } from "../../errors.ts";
import { escapeSegment, parsePointer, pointer } from "../../json-pointer.ts";
import { identifier, stringLiteral } from "../../escape.ts";
import { Block, breakTo, emitterWork, indent, RETURN_FALSE, Scope, usesName, type Jump } from "./code.ts";
import { ASSERTION_KEYWORDS, checkKeywords, FORMAT_CHECKERS, IGNORED_FORMATS } from "./keywords.ts";
import { parsePattern, patternScan } from "./patterns.ts";

export type SchemaObject = Record<string, unknown>;

/** A module-level declaration of the emitted code and the name it declares. */
export interface Declaration {
  name: string;
  lines: string[];
}

export interface Unit {
  /** JSON pointer of the schema in the document. */
  pointer: string;
  schema: unknown;
  stem: string;
  /** Name of the boolean function. */
  check: string;
  /** Name of the issue-collecting function. */
  collect: string;
}

interface Ctx {
  scope: Scope;
  mode: "bool" | "collect";
  /** Identifier holding the value being checked. */
  v: string;
  /** Boolean mode: where a failed check goes. */
  fail: Jump;
  /** Collect mode: expression of the value's JSON pointer. */
  path: string;
  /** False once the code has descended into a property or item (for the recursion check). */
  sameInstance: boolean;
  unit: Unit;
}

type TypeName = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";
const TYPE_NAMES: ReadonlySet<string> = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);
const TYPE_NOUNS: Record<TypeName, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};
const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A dynamic message: code of a string expression rather than a fixed text. */
interface DynamicMessage {
  code: string;
}

export class ValidatorCompiler {
  readonly units = new Map<string, Unit>();
  /** Pointers whose schema `audit` has checked (units, their subschemas, `$ref` targets). */
  private readonly audited = new Set<string>();
  private readonly refsToAudit: string[] = [];
  /** Module-level constants (regular expressions, pattern scans, JSON data, sets), in creation order. */
  readonly constants: Declaration[] = [];
  /** `$ref`s evaluated on the same value as their schema: a cycle of them would never end. */
  private readonly sameInstanceRefs = new Map<Unit, Map<Unit, string>>();
  private readonly pending: Unit[] = [];
  private readonly stems = new Set<string>();
  /**
   * Per stem base already taken, the suffix to try next: many units share a base (every
   * parameter's schema is a "schema"), and trying 2, 3, … from the start each time is quadratic.
   */
  private readonly nextSuffix = new Map<string, number>();
  private readonly regexes = new Map<string, string>();
  private readonly jsonConstants = new Map<string, string>();
  /** `resolveRef` answers per `$ref` string: a much-referenced schema is resolved once. */
  private readonly resolvedRefs = new Map<string, string>();
  private anchors: Map<string, string[]> | undefined;
  private readonly rootId: string | undefined;

  private readonly ignoredFormats: ReadonlySet<string>;

  constructor(
    readonly document: unknown,
    ignoredFormats: readonly string[] = [],
  ) {
    this.ignoredFormats = new Set([...IGNORED_FORMATS, ...ignoredFormats]);
    this.rootId = isObject(document) && typeof document["$id"] === "string" ? document["$id"].replace(/#$/, "") : undefined;
  }

  /** The unit of the schema at `at` (a normalized JSON pointer), created on first use. */
  unitAt(at: string, stemHint?: string): Unit {
    const existing = this.units.get(at);
    if (existing !== undefined) return existing;
    const schema = valueAt(this.document, parsePointer(at));
    if (schema === undefined) throw new ContractError(at, "no schema here");
    const base = stemHint ?? identifier(parsePointer(at).at(-1) ?? "root");
    let stem = base;
    if (this.stems.has(stem)) {
      // The first free suffix from 2 on: stems are never released, so every suffix below the
      // one this base stopped at last time is still taken.
      const separator = /[0-9]$/.test(base) ? "_" : "";
      let n = this.nextSuffix.get(base) ?? 2;
      while (this.stems.has((stem = `${base}${separator}${n}`))) {
        emitterWork.stemProbes++;
        n++;
      }
      this.nextSuffix.set(base, n + 1);
    }
    this.stems.add(stem);
    const unit: Unit = { pointer: at, schema, stem, check: `c_${stem}`, collect: `e_${stem}` };
    this.units.set(at, unit);
    this.pending.push(unit);
    return unit;
  }

  /** Compiles every unit reached so far (and the ones they reach); returns their functions. */
  compilePending(): Declaration[] {
    const out: Declaration[] = [];
    // By index (the list grows while it is compiled), not shift(): no copying of what is left.
    for (let next = 0; next < this.pending.length; next++) {
      const unit = this.pending[next] as Unit;
      this.audit(unit.schema, unit.pointer);
      for (let target = this.refsToAudit.pop(); target !== undefined; target = this.refsToAudit.pop()) {
        if (this.audited.has(target)) continue;
        const targetSchema = valueAt(this.document, parsePointer(target));
        if (targetSchema === undefined) throw new ContractError(target, "no schema here");
        this.audit(targetSchema, target);
      }
      out.push({ name: unit.check, lines: this.checkFunction(unit) }, { name: unit.collect, lines: this.collectFunction(unit) });
    }
    this.pending.length = 0;
    this.refuseEndlessRecursion();
    return out;
  }

  /**
   * The name of a runtime helper (`templates/runtime/validation.ts`); the module imports the
   * helpers its kept code uses (see RUNTIME_VALUES in validators.ts).
   */
  helper(name: string): string {
    return name;
  }

  /** A module-level constant holding a copy of JSON data (parsed, so `__proto__` stays data). */
  jsonConstant(value: unknown): string {
    const text = JSON.stringify(value);
    let name = this.jsonConstants.get(text);
    if (name === undefined) {
      name = `k_${this.jsonConstants.size}`;
      this.jsonConstants.set(text, name);
      this.constants.push({ name, lines: [`const ${name}: unknown = /* @__PURE__ */ JSON.parse(${stringLiteral(text)});`] });
    }
    return name;
  }

  /** The JSON pointer a `$ref` leads to, normalized. */
  resolveRef(ref: unknown, at: string): string {
    if (typeof ref !== "string") throw new ContractError(at, "$ref must be a string");
    // Only answers are kept: a refused `$ref` is refused again, at each place that uses it.
    const known = this.resolvedRefs.get(ref);
    if (known !== undefined) return known;
    const target = this.resolveNewRef(ref, at);
    this.resolvedRefs.set(ref, target);
    return target;
  }

  private resolveNewRef(ref: string, at: string): string {
    const hash = ref.indexOf("#");
    const resource = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    if (resource !== "" && resource !== this.rootId) {
      throw new ContractError(at, `$ref ${JSON.stringify(ref)} points outside the document: only internal references ("#/...") are supported`);
    }
    let target: string;
    if (fragment === "" || fragment.startsWith("/")) {
      target = pointer(...parsePointer(`#${fragment}`));
    } else {
      this.anchors ??= collectAnchors(this.document);
      const declared = this.anchors.get(fragment) ?? [];
      if (declared.length === 0) throw new ContractError(at, `$ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(fragment)} in the document`);
      if (declared.length > 1) {
        throw new ContractError(at, `$ref ${JSON.stringify(ref)}: $anchor ${JSON.stringify(fragment)} is declared ${declared.length} times (${declared.join(", ")})`);
      }
      target = declared[0] as string;
    }
    const schema = valueAt(this.document, parsePointer(target));
    if (schema === undefined) throw new ContractError(at, `$ref ${JSON.stringify(ref)} points at nothing`);
    if (typeof schema !== "boolean" && !isObject(schema)) throw new ContractError(at, `$ref ${JSON.stringify(ref)} does not point at a schema`);
    return target;
  }

  /* ------------------------------------------------------------ unit functions */

  private checkFunction(unit: Unit): string[] {
    const scope = new Scope();
    const ctx: Ctx = { scope, mode: "bool", v: "v", fail: RETURN_FALSE, path: "p", sameInstance: true, unit };
    const body = this.gen(unit.schema, unit.pointer, ctx);
    body.add("return true;");
    const v = usesName(body.lines, "v") ? "v" : "_v";
    return [`function ${unit.check}(${v}: any): boolean {`, ...indent(body.lines), "}"];
  }

  private collectFunction(unit: Unit): string[] {
    const scope = new Scope();
    const ctx: Ctx = { scope, mode: "collect", v: "v", fail: RETURN_FALSE, path: "p", sameInstance: true, unit };
    const body = this.gen(unit.schema, unit.pointer, ctx);
    const params = [
      `${usesName(body.lines, "v") ? "v" : "_v"}: any`,
      `${usesName(body.lines, "p") ? "p" : "_p"}: string`,
      `${usesName(body.lines, "issues") ? "issues" : "_issues"}: ValidationIssue[]`,
    ];
    return [`function ${unit.collect}(${params.join(", ")}): void {`, ...indent(body.lines), "}"];
  }

  /**
   * A depth-first walk over the same-instance `$ref`s, with its own stack: a long chain of
   * `allOf: [{$ref}]` schemas must not overflow the call stack.
   */
  private refuseEndlessRecursion(): void {
    const state = new Map<Unit, "visiting" | "done">();
    const edgesOf = (unit: Unit) => (this.sameInstanceRefs.get(unit) ?? new Map<Unit, string>()).entries();
    for (const root of this.units.values()) {
      if (state.has(root)) continue;
      state.set(root, "visiting");
      const stack = [{ unit: root, edges: edgesOf(root) }];
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as (typeof stack)[number];
        const edge = top.edges.next();
        if (edge.done === true) {
          state.set(top.unit, "done");
          stack.pop();
          continue;
        }
        const [target, at] = edge.value;
        const seen = state.get(target);
        if (seen === "visiting") {
          throw new ContractError(at, "$ref cycle that never descends into the value: validation would not terminate");
        }
        if (seen === undefined) {
          state.set(target, "visiting");
          stack.push({ unit: target, edges: edgesOf(target) });
        }
      }
    }
  }

  /* ------------------------------------------------------------ audit */

  /**
   * Checks every keyword of a unit's schema and of all its subschemas before any code is made:
   * also those the code leaves out (string keywords under `type: number`, the other branches of an
   * `anyOf` with a `true` one, `then` without `if`), so that what is refused does not depend on
   * neighbouring keywords. Entries under `$defs` are audited whether used or not (an unsupported
   * keyword there would be one ignored silently); `$ref` targets are audited too, also those of a
   * branch the code leaves out, whose targets never become units. Each pointer is audited once.
   */
  private audit(schema: unknown, at: string): void {
    if (this.audited.has(at)) return;
    this.audited.add(at);
    if (typeof schema === "boolean") return;
    if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");
    checkKeywords(schema, at, at === "");
    typeList(schema, at);
    if ("enum" in schema && !Array.isArray(schema["enum"])) throw new ContractError(at + "/enum", "enum must be an array");
    stringArray(schema, "required", at);
    for (const keyword of ["minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties"]) {
      if (keyword in schema) count(schema, keyword, at);
    }
    for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      if (keyword in schema) finiteNumber(schema, keyword, at);
    }
    if ("multipleOf" in schema) divisorOf(schema, at);
    if ("uniqueItems" in schema) uniqueItemsOf(schema, at);
    if ("pattern" in schema) checkPattern(schema["pattern"], at + "/pattern");
    if ("format" in schema) this.formatChecker(schema["format"], at + "/format");
    if ("dependentRequired" in schema) dependentRequiredOf(schema, at);
    // Queued, not followed: a chain of $refs may be longer than the call stack is deep.
    if ("$ref" in schema) this.refsToAudit.push(this.resolveRef(schema["$ref"], at + "/$ref"));
    for (const keyword of ["properties", "patternProperties", "dependentSchemas", "$defs"]) {
      for (const [name, sub] of Object.entries(schemaMap(schema, keyword, at))) {
        if (keyword === "patternProperties") checkPattern(name, at + pointer(keyword, name));
        this.audit(sub, at + pointer(keyword, name));
      }
    }
    for (const keyword of ["prefixItems", "allOf", "anyOf", "oneOf"]) {
      if (keyword in schema) schemaArray(schema, keyword, at).forEach((sub, index) => this.audit(sub, `${at}/${keyword}/${index}`));
    }
    if ("items" in schema) this.audit(itemsOf(schema, at), at + "/items");
    for (const keyword of ["additionalProperties", "propertyNames", "contains", "not", "if", "then", "else"]) {
      if (keyword in schema) this.audit(schema[keyword], at + pointer(keyword));
    }
  }

  /* ------------------------------------------------------------ schemas */

  private gen(schema: unknown, at: string, ctx: Ctx): Block {
    const b = new Block();
    if (schema === true) return b;
    if (schema === false) {
      this.failAlways(b, ctx, "false schema", "no value is allowed here", at);
      return b;
    }
    if (!isObject(schema)) throw new ContractError(at, "a schema must be an object or a boolean");

    const types = typeList(schema, at);
    const known = types === undefined ? undefined : new Set<TypeName>(types);
    const rest = new Block();
    this.group(rest, ctx, known, ["number", "integer"], typeGuard("number", ctx.v), (g) => this.numberKeywords(schema, at, ctx, g));
    this.group(rest, ctx, known, ["string"], typeGuard("string", ctx.v), (g) => this.stringKeywords(schema, at, ctx, g));
    this.group(rest, ctx, known, ["array"], typeGuard("array", ctx.v), (g) => this.arrayKeywords(schema, at, ctx, g));
    this.group(rest, ctx, known, ["object"], typeGuard("object", ctx.v), (g) => this.objectKeywords(schema, at, ctx, g));
    if ("$ref" in schema) this.ref(schema["$ref"], at + "/$ref", ctx, rest);
    this.combinators(schema, at, ctx, rest);
    // Last: TypeScript narrows `v` after `if (v !== "a") return false;`, so nothing may follow.
    this.enumAndConst(schema, at, ctx, rest, known);

    if (types === undefined) return b.append(rest);
    if (types.length === 0) {
      this.failAlways(b, ctx, "type", "no value is allowed here (empty type list)", at + "/type");
      return b;
    }
    const failed = typeFails(types, ctx.v);
    const message = `must be ${joinWords(types.map((t) => TYPE_NOUNS[t]))}`;
    if (ctx.mode === "bool") {
      b.add(`if (${failed}) ${this.failStatement(ctx, "type", message, at + "/type")}`);
      return b.append(rest);
    }
    b.add(`if (${failed}) {`, `  ${this.failStatement(ctx, "type", message, at + "/type")}`);
    if (rest.isEmpty) return b.add("}");
    return b.add("} else {").addIndented(rest.lines).add("}");
  }

  /**
   * A subschema applied to the same value (allOf, anyOf, oneOf, not, if/then/else,
   * dependentSchemas) reads it through a fresh `any` alias: TypeScript narrows `v` after
   * `if (typeof v !== "string") return false;` (or inside the `else` of a type check), and the
   * subschema's object checks would then meet `never`.
   */
  private genSame(schema: unknown, at: string, ctx: Ctx): Block {
    // A plain `$ref` only passes the value to a function: nothing to narrow.
    const refOnly = isObject(schema) && Object.keys(schema).every((keyword) => keyword === "$ref" || !ASSERTION_KEYWORDS.has(keyword));
    if (typeof schema === "boolean" || refOnly) return this.gen(schema, at, ctx);
    const alias = ctx.scope.local("v");
    const inner = this.gen(schema, at, { ...ctx, v: alias });
    if (!usesName(inner.lines, alias)) return inner;
    return new Block().add(`const ${alias}: any = ${ctx.v};`).append(inner);
  }

  /**
   * Keywords that apply to some types only: skipped when the declared type rules them out, run
   * without a guard when it guarantees them, guarded otherwise.
   */
  private group(
    b: Block,
    ctx: Ctx,
    known: ReadonlySet<TypeName> | undefined,
    applies: TypeName[],
    guard: string,
    emit: (block: Block) => void,
  ): void {
    if (known !== undefined && !applies.some((t) => known.has(t))) return;
    const g = new Block();
    emit(g);
    if (g.isEmpty) return;
    const guaranteed = known !== undefined && [...known].every((t) => applies.includes(t));
    if (guaranteed) b.append(g);
    else b.wrap(`if (${guard}) {`, g);
  }

  /* ------------------------------------------------------------ failures */

  /** The statement that records a failure: a jump in boolean mode, an `addIssue` call otherwise. */
  private failStatement(ctx: Ctx, keyword: string, message: string | DynamicMessage, schemaPath: string, path = ctx.path): string {
    if (ctx.mode === "bool") return ctx.scope.use(ctx.fail);
    const text = typeof message === "string" ? stringLiteral(message) : message.code;
    return `${this.helper("addIssue")}(issues, ${path}, ${stringLiteral(keyword)}, ${text}, ${stringLiteral(schemaPath)});`;
  }

  private check(b: Block, ctx: Ctx, condition: string, keyword: string, message: string | DynamicMessage, schemaPath: string): void {
    b.add(`if (${condition}) ${this.failStatement(ctx, keyword, message, schemaPath)}`);
  }

  private failAlways(b: Block, ctx: Ctx, keyword: string, message: string, schemaPath: string): void {
    if (ctx.mode === "bool") {
      ctx.scope.use(ctx.fail);
      b.jump(ctx.fail);
    } else {
      b.add(this.failStatement(ctx, keyword, message, schemaPath));
    }
  }

  /* ------------------------------------------------------------ enum, const */

  /**
   * Values of another type than the declared ones can never match: they are left out of the
   * comparison (TypeScript would also reject comparing a narrowed string with a number).
   */
  private enumAndConst(schema: SchemaObject, at: string, ctx: Ctx, b: Block, known: ReadonlySet<TypeName> | undefined): void {
    const possible = (value: unknown) => known === undefined || jsonTypes(value).some((t) => known.has(t));
    if ("enum" in schema) {
      const values = schema["enum"];
      if (!Array.isArray(values)) throw new ContractError(at + "/enum", "enum must be an array");
      const listed = values.map((value) => JSON.stringify(value)).join(", ");
      const message = values.length === 0 ? "no value is allowed (empty enum)" : `must be one of ${truncate(listed)}`;
      this.equalityCheck(b, ctx, values.filter(possible), "enum", message, at + "/enum");
    }
    if ("const" in schema) {
      const value = schema["const"];
      this.equalityCheck(b, ctx, [value].filter(possible), "const", `must be equal to ${truncate(JSON.stringify(value))}`, at + "/const");
    }
  }

  private equalityCheck(b: Block, ctx: Ctx, values: unknown[], keyword: string, message: string, schemaPath: string): void {
    if (values.length === 0) this.failAlways(b, ctx, keyword, message, schemaPath);
    else this.check(b, ctx, this.notAnyOf(values, ctx.v), keyword, message, schemaPath);
  }

  /** A condition true when `v` equals none of `values` (JSON equality). */
  private notAnyOf(values: readonly unknown[], v: string): string {
    if (values.length === 0) return "true";
    const primitives = values.filter((value) => value === null || typeof value !== "object");
    const composites = values.filter((value) => value !== null && typeof value === "object");
    const parts: string[] = [];
    if (primitives.length > 6) {
      const name = `set_${this.constants.length}`;
      this.constants.push({ name, lines: [`const ${name}: ReadonlySet<unknown> = /* @__PURE__ */ new Set<unknown>([${primitives.map(literal).join(", ")}]);`] });
      parts.push(`!${name}.has(${v})`);
    } else {
      // Compared as unknown: a comparison narrows `v`, and a second check on it (enum then const, two
      // allOf branches) against a value the first excluded would not compile ("no overlap").
      for (const value of primitives) parts.push(`(${v} as unknown) !== ${literal(value)}`);
    }
    for (const value of composites) parts.push(`!${this.helper("deepEqual")}(${v}, ${this.jsonConstant(value)})`);
    return parts.join(" && ");
  }

  /* ------------------------------------------------------------ numbers */

  private numberKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const v = ctx.v;
    const bound = (keyword: string, operator: string, relation: string) => {
      if (!(keyword in schema)) return;
      const limit = finiteNumber(schema, keyword, at);
      this.check(b, ctx, `${v} ${operator} ${numberLiteral(limit)}`, keyword, `must be ${relation} ${String(limit)}`, at + pointer(keyword));
    };
    bound("minimum", "<", ">=");
    bound("maximum", ">", "<=");
    bound("exclusiveMinimum", "<=", ">");
    bound("exclusiveMaximum", ">=", "<");
    if ("multipleOf" in schema) {
      const divisor = divisorOf(schema, at);
      // A remainder in binary is exact only for safe integers: beyond 2^53 (1e24) the value is read as
      // its decimal text, as for fractional divisors, and only a failing remainder pays for that.
      const decimal = `!${this.helper("decimalMultiple")}(${v}, ${numberLiteral(divisor)})`;
      const condition = Number.isSafeInteger(divisor) ? `(${v} % ${numberLiteral(divisor)} !== 0 || !Number.isSafeInteger(${v})) && ${decimal}` : decimal;
      this.check(b, ctx, condition, "multipleOf", `must be a multiple of ${String(divisor)}`, at + "/multipleOf");
    }
  }

  /* ------------------------------------------------------------ strings */

  private stringKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const v = ctx.v;
    if ("minLength" in schema) {
      const n = count(schema, "minLength", at);
      if (n > 0) {
        const condition = n === 1 ? `${v}.length < 1` : `${v}.length < ${n} || (${v}.length < ${2 * n} && ${this.helper("ucs2length")}(${v}) < ${n})`;
        this.check(b, ctx, condition, "minLength", `must be at least ${plural(n, "character")} long`, at + "/minLength");
      }
    }
    if ("maxLength" in schema) {
      const n = count(schema, "maxLength", at);
      const condition = `${v}.length > ${n} && ${this.helper("ucs2length")}(${v}) > ${n}`;
      this.check(b, ctx, condition, "maxLength", `must be at most ${plural(n, "character")} long`, at + "/maxLength");
    }
    if ("pattern" in schema) {
      const source = schema["pattern"];
      const matches = this.pattern(source, at + "/pattern");
      this.check(b, ctx, `!${matches(v)}`, "pattern", `must match pattern ${JSON.stringify(source)}`, at + "/pattern");
    }
    if ("format" in schema) {
      const format = schema["format"];
      const checker = this.formatChecker(format, at + "/format");
      if (checker !== undefined) {
        this.check(b, ctx, `!${this.helper(checker.helper)}(${v})`, "format", `must be ${checker.noun} (format ${JSON.stringify(format)})`, at + "/format");
      }
    }
  }

  /** The runtime check of a format, or undefined for one of the ignored annotations; any other is refused. */
  private formatChecker(format: unknown, at: string): { helper: string; noun: string } | undefined {
    if (typeof format !== "string") throw new ContractError(at, "format must be a string");
    const checker = FORMAT_CHECKERS.get(format);
    if (checker !== undefined || this.ignoredFormats.has(format)) return checker;
    throw new ContractError(
      at,
      `format ${JSON.stringify(format)} is not supported: the validators check ${[...FORMAT_CHECKERS.keys()].join(", ")} and ignore only ${[...this.ignoredFormats].join(", ")} (OpenAPI's annotations); anything else would go unchecked, so generation stops`,
    );
  }

  /**
   * The test of a `pattern` (ECMAScript semantics with the `u` flag, as JSON Schema asks), as a
   * function from the tested expression to code: a module-level scan function where the pattern
   * compiles to one (validators/patterns.ts), else a module-level RegExp.
   */
  private pattern(pattern: unknown, at: string): (value: string) => string {
    const source = checkPattern(pattern, at);
    let name = this.regexes.get(source);
    if (name === undefined) {
      const scan = parsePattern(source);
      name = `${scan === undefined ? "re" : "match"}_${this.regexes.size}`;
      this.regexes.set(source, name);
      const lines =
        scan === undefined
          ? [`const ${name} = /* @__PURE__ */ new RegExp(${stringLiteral(source)}, "u");`]
          : [`function ${name}(s: string): boolean {`, ...indent(patternScan(scan)), "}"];
      this.constants.push({ name, lines });
    }
    const compiled = name;
    return compiled.startsWith("re_") ? (value) => `${compiled}.test(${value})` : (value) => `${compiled}(${value})`;
  }

  /* ------------------------------------------------------------ arrays */

  private arrayKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const v = ctx.v;
    if ("minItems" in schema) {
      const n = count(schema, "minItems", at);
      if (n > 0) this.check(b, ctx, `${v}.length < ${n}`, "minItems", `must have at least ${plural(n, "item")}`, at + "/minItems");
    }
    if ("maxItems" in schema) {
      const n = count(schema, "maxItems", at);
      this.check(b, ctx, `${v}.length > ${n}`, "maxItems", `must have at most ${plural(n, "item")}`, at + "/maxItems");
    }
    if ("uniqueItems" in schema) {
      if (uniqueItemsOf(schema, at)) {
        const duplicates = this.helper("duplicatePair");
        if (ctx.mode === "bool") {
          this.check(b, ctx, `${duplicates}(${v}) !== undefined`, "uniqueItems", "", at + "/uniqueItems");
        } else {
          const d = ctx.scope.local("d");
          const message = { code: `"must not have duplicate items (items " + ${d}[0] + " and " + ${d}[1] + " are equal)"` };
          b.add(`const ${d} = ${duplicates}(${v});`);
          this.check(b, ctx, `${d} !== undefined`, "uniqueItems", message, at + "/uniqueItems");
        }
      }
    }

    let start = 0;
    if ("prefixItems" in schema) {
      const prefix = schemaArray(schema, "prefixItems", at);
      start = prefix.length;
      prefix.forEach((item, index) => {
        if (item === true) return;
        const x = ctx.scope.local("x");
        const inner = this.gen(item, `${at}/prefixItems/${index}`, this.child(ctx, x, `${ctx.path} + ${stringLiteral(`/${index}`)}`));
        b.wrap(`if (${v}.length > ${index}) {`, this.bind(x, `${v}[${index}]`, inner));
      });
    }
    if ("items" in schema) {
      const items = itemsOf(schema, at);
      if (items === false) {
        const message = start === 0 ? "must be an empty array" : `must have at most ${plural(start, "item")}`;
        this.check(b, ctx, `${v}.length > ${start}`, "items", message, at + "/items");
      } else if (items !== true) {
        const i = ctx.scope.local("i");
        const x = ctx.scope.local("x");
        const inner = this.gen(items, at + "/items", this.child(ctx, x, `${ctx.path} + "/" + ${i}`));
        b.wrap(`for (let ${i} = ${start}; ${i} < ${v}.length; ${i}++) {`, this.bind(x, `${v}[${i}]`, inner));
      }
    }
    if ("contains" in schema) this.contains(schema, at, ctx, b);
  }

  private contains(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const v = ctx.v;
    const sub = schema["contains"];
    const min = "minContains" in schema ? count(schema, "minContains", at) : 1;
    const max = "maxContains" in schema ? count(schema, "maxContains", at) : undefined;
    const minKeyword = "minContains" in schema ? "minContains" : "contains";
    const minMessage = `must contain at least ${min === 1 ? "one item" : `${min} items`} matching the "contains" schema`;
    const maxMessage = `must contain at most ${plural(max ?? 0, "item")} matching the "contains" schema`;
    const minAt = at + (minKeyword === "contains" ? "/contains" : "/minContains");
    if (min === 0 && max === undefined) return;
    if (sub === true) {
      if (min > 0) this.check(b, ctx, `${v}.length < ${min}`, minKeyword, minMessage, minAt);
      if (max !== undefined) this.check(b, ctx, `${v}.length > ${max}`, "maxContains", maxMessage, at + "/maxContains");
      return;
    }
    if (sub === false) {
      if (min > 0) this.failAlways(b, ctx, minKeyword, minMessage, minAt);
      return;
    }
    const c = ctx.scope.local("c");
    const i = ctx.scope.local("i");
    const x = ctx.scope.local("x");
    const label = ctx.scope.local("L");
    const matches = this.gen(sub, at + "/contains", { ...this.child(ctx, x, ctx.path), mode: "bool", fail: breakTo(label) });
    matches.add(`${c}++;`);
    // Stop early once the answer is known: enough matches (no maximum), or too many.
    if (max === undefined) matches.add(`if (${c} >= ${min}) break;`);
    else matches.add(`if (${c} > ${max}) break;`);
    const loop = new Block().labeled(label, matches);
    b.add(`let ${c} = 0;`);
    b.wrap(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, this.bind(x, `${v}[${i}]`, loop));
    if (min > 0) this.check(b, ctx, `${c} < ${min}`, minKeyword, minMessage, minAt);
    if (max !== undefined) this.check(b, ctx, `${c} > ${max}`, "maxContains", maxMessage, at + "/maxContains");
  }

  /* ------------------------------------------------------------ objects */

  private objectKeywords(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const v = ctx.v;
    const properties = schemaMap(schema, "properties", at);
    const required = stringArray(schema, "required", at);
    const requiredSet = new Set(required);

    for (const name of requiredSet) {
      const sub = Object.hasOwn(properties, name) ? properties[name] : true;
      if (sub !== true) continue; // checked together with the property's schema below
      this.check(b, ctx, `${read(this, v, name)} === undefined`, "required", requiredMessage(name), at + "/required");
    }
    for (const [name, sub] of Object.entries(properties)) {
      if (sub === true) continue;
      const x = ctx.scope.local("x");
      const inner = this.gen(sub, at + pointer("properties", name), this.child(ctx, x, `${ctx.path} + ${stringLiteral(`/${escapeSegment(name)}`)}`));
      const value = usesName(inner.lines, x) ? x : read(this, v, name);
      if (value === x) b.add(`const ${x} = ${read(this, v, name)};`);
      if (!requiredSet.has(name)) {
        b.wrap(`if (${value} !== undefined) {`, inner);
      } else if (ctx.mode === "bool") {
        // A type check rejects undefined too (it is no JSON type): no separate presence check.
        if (!(isObject(sub) && "type" in sub)) this.check(b, ctx, `${value} === undefined`, "required", "", at + "/required");
        b.append(inner);
      } else {
        b.add(`if (${value} === undefined) {`, `  ${this.failStatement(ctx, "required", requiredMessage(name), at + "/required")}`);
        if (inner.isEmpty) b.add("}");
        else b.add("} else {").addIndented(inner.lines).add("}");
      }
    }

    this.propertyLoop(schema, at, ctx, b, Object.keys(properties));

    for (const [keyword, relation] of [["minProperties", "at least"], ["maxProperties", "at most"]] as const) {
      if (!(keyword in schema)) continue;
      const n = count(schema, keyword, at);
      if (keyword === "minProperties" && n === 0) continue;
      const operator = keyword === "minProperties" ? "<" : ">";
      this.check(b, ctx, `${this.helper("countProperties")}(${v}) ${operator} ${n}`, keyword, `must have ${relation} ${plural(n, "property", "properties")}`, at + "/" + keyword);
    }

    if ("dependentRequired" in schema) {
      for (const [name, needed] of dependentRequiredOf(schema, at)) {
        if (needed.length === 0) continue;
        const inner = new Block();
        for (const other of needed) {
          const message = `must have property ${JSON.stringify(other)} when property ${JSON.stringify(name)} is present`;
          this.check(inner, ctx, `${read(this, v, other)} === undefined`, "dependentRequired", message, at + pointer("dependentRequired", name));
        }
        b.wrap(`if (${read(this, v, name)} !== undefined) {`, inner);
      }
    }
    if ("dependentSchemas" in schema) {
      const dependencies = schemaMap(schema, "dependentSchemas", at);
      for (const [name, sub] of Object.entries(dependencies)) {
        const inner = this.genSame(sub, at + pointer("dependentSchemas", name), ctx);
        b.wrap(`if (${read(this, v, name)} !== undefined) {`, inner);
      }
    }
  }

  /** One `for…in` for patternProperties, additionalProperties and propertyNames. */
  private propertyLoop(schema: SchemaObject, at: string, ctx: Ctx, b: Block, declared: string[]): void {
    const v = ctx.v;
    const patterns = Object.entries(schemaMap(schema, "patternProperties", at));
    const additional = "additionalProperties" in schema ? schema["additionalProperties"] : true;
    const names = "propertyNames" in schema ? schema["propertyNames"] : true;
    if (names === true && additional === true && patterns.every(([, sub]) => sub === true)) return;
    const k = ctx.scope.local("k");
    const x = ctx.scope.local("x");
    const memberPath = `${ctx.path} + "/" + ${this.helper("escapeSegment")}(${k})`;
    const body = new Block();

    if (names !== true) {
      const namesAt = at + "/propertyNames";
      // The key goes through an `any` alias: as a string, TypeScript would reject `enum: [1]`'s comparison.
      const name = ctx.scope.local("v");
      const checks = this.gen(names, namesAt, this.child(ctx, name, ctx.path));
      const aliased = usesName(checks.lines, name) ? new Block().add(`const ${name}: any = ${k};`).append(checks) : checks;
      if (ctx.mode === "bool") {
        body.append(aliased);
      } else {
        const n = ctx.scope.local("n");
        const inner = new Block().add(`const ${n} = issues.length;`);
        inner.append(aliased);
        const prefix = `"property name " + JSON.stringify(${k}) + " is invalid"`;
        inner.add(`if (issues.length !== ${n}) ${this.helper("collapseIssues")}(issues, ${n}, ${ctx.path}, "propertyNames", ${prefix}, ${stringLiteral(namesAt)});`);
        body.wrap("{", inner);
      }
    }

    const unmatched: string[] = declared.map((name) => `${k} !== ${stringLiteral(name)}`);
    for (const [source, sub] of patterns) {
      const patternAt = at + pointer("patternProperties", source);
      const matches = this.pattern(source, patternAt);
      unmatched.push(`!${matches(k)}`);
      if (sub === true) continue;
      body.wrap(`if (${matches(k)}) {`, this.gen(sub, patternAt, this.child(ctx, x, memberPath)));
    }

    if (additional === false) {
      const message = { code: `"must not have additional property " + JSON.stringify(${k})` };
      const statement = this.failStatement(ctx, "additionalProperties", message, at + "/additionalProperties");
      if (unmatched.length === 0) {
        if (ctx.mode === "bool") body.jump(ctx.fail);
        else body.add(statement);
      } else {
        body.add(`if (${unmatched.join(" && ")}) ${statement}`);
      }
    } else if (additional !== true) {
      const inner = this.gen(additional, at + "/additionalProperties", this.child(ctx, x, memberPath));
      if (unmatched.length === 0) body.append(inner);
      else body.wrap(`if (${unmatched.join(" && ")}) {`, inner);
    }

    if (body.isEmpty) return;
    const loop = usesName(body.lines, x) ? new Block().add(`const ${x} = ${v}[${k}];`).append(body) : body;
    if (usesName(loop.lines, k)) b.wrap(`for (const ${k} in ${v}) {`, loop);
    else b.wrap(`if (${this.helper("countProperties")}(${v}) !== 0) {`, loop);
  }

  /* ------------------------------------------------------------ $ref */

  private ref(ref: unknown, at: string, ctx: Ctx, b: Block): void {
    const target = this.unitAt(this.resolveRef(ref, at));
    if (target.schema === true) return;
    if (ctx.sameInstance) {
      let edges = this.sameInstanceRefs.get(ctx.unit);
      if (edges === undefined) this.sameInstanceRefs.set(ctx.unit, (edges = new Map()));
      if (!edges.has(target)) edges.set(target, at);
    }
    if (ctx.mode === "bool") {
      b.add(`if (!${target.check}(${ctx.v})) ${ctx.scope.use(ctx.fail)}`);
    } else {
      b.add(`if (!${target.check}(${ctx.v})) ${target.collect}(${ctx.v}, ${ctx.path}, issues);`);
    }
  }

  /* ------------------------------------------------------------ combinators */

  private combinators(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    if ("allOf" in schema) {
      schemaArray(schema, "allOf", at).forEach((sub, index) => b.append(this.genSame(sub, `${at}/allOf/${index}`, ctx)));
    }
    if ("anyOf" in schema) this.anyOf(schemaArray(schema, "anyOf", at), at, ctx, b);
    if ("oneOf" in schema) this.oneOf(schemaArray(schema, "oneOf", at), at, ctx, b);
    if ("not" in schema) this.not(schema["not"], at, ctx, b);
    if ("if" in schema) this.ifThenElse(schema, at, ctx, b);
  }

  private anyOf(branches: unknown[], at: string, ctx: Ctx, b: Block): void {
    if (branches.includes(true)) return;
    const live = branches.map((sub, index) => ({ sub, at: `${at}/anyOf/${index}` })).filter(({ sub }) => sub !== false);
    const message = "must match at least one schema in anyOf";
    if (live.length === 0) return this.failAlways(b, ctx, "anyOf", message, at + "/anyOf");
    if (live.length === 1) {
      const only = live[0] as { sub: unknown; at: string };
      b.append(this.genSame(only.sub, only.at, ctx));
      return;
    }
    const done = ctx.scope.local("L");
    const outer = new Block();
    if (ctx.mode === "bool") {
      // Order does not change a boolean anyOf: try the cheapest branches first (an open enum's
      // `{type: string}` before its `{type: string, enum: [...]}`). Each branch but the last jumps
      // out of the whole when it passes; the last one's failure is the anyOf's.
      const ordered = live
        .map((branch, index) => ({ ...branch, cost: cost(branch.sub, 2), index }))
        .sort((a, b) => a.cost - b.cost || a.index - b.index);
      ordered.forEach(({ sub, at: branchAt }, index) => {
        if (index === ordered.length - 1) {
          outer.append(this.genSame(sub, branchAt, ctx));
          return;
        }
        const next = ctx.scope.local("L");
        const inner = this.genSame(sub, branchAt, { ...ctx, fail: breakTo(next) });
        inner.jump(breakTo(done));
        outer.labeled(next, inner);
      });
    } else {
      // Every branch records its issues; the first one to pass removes them all again.
      const mark = ctx.scope.local("m");
      outer.add(`const ${mark} = issues.length;`);
      for (const { sub, at: branchAt } of live) {
        const n = ctx.scope.local("n");
        const inner = new Block().add(`const ${n} = issues.length;`).append(this.genSame(sub, branchAt, ctx));
        inner.add(`if (issues.length === ${n}) {`, `  issues.length = ${mark};`, `  break ${done};`, "}");
        outer.wrap("{", inner);
      }
      outer.add(this.failStatement(ctx, "anyOf", message, at + "/anyOf"));
    }
    b.labeled(done, outer);
  }

  private oneOf(branches: unknown[], at: string, ctx: Ctx, b: Block): void {
    const live = branches.map((sub, index) => ({ sub, at: `${at}/oneOf/${index}` })).filter(({ sub }) => sub !== false);
    const message = "must match exactly one schema in oneOf";
    if (live.length === 0) return this.failAlways(b, ctx, "oneOf", message, at + "/oneOf");
    if (live.length === 1) {
      const only = live[0] as { sub: unknown; at: string };
      b.append(this.genSame(only.sub, only.at, ctx));
      return;
    }
    const c = ctx.scope.local("c");
    b.add(`let ${c} = 0;`);
    if (ctx.mode === "bool") {
      live.forEach(({ sub, at: branchAt }, index) => {
        const label = ctx.scope.local("L");
        const inner = this.genSame(sub, branchAt, { ...ctx, fail: breakTo(label) });
        // A second match settles it.
        inner.add(index === 0 ? `${c}++;` : `if (++${c} > 1) ${ctx.scope.use(ctx.fail)}`);
        b.labeled(label, inner);
      });
      this.check(b, ctx, `${c} === 0`, "oneOf", message, at + "/oneOf");
      return;
    }
    const mark = ctx.scope.local("m");
    b.add(`const ${mark} = issues.length;`);
    for (const { sub, at: branchAt } of live) {
      const n = ctx.scope.local("n");
      const inner = new Block().add(`const ${n} = issues.length;`).append(this.genSame(sub, branchAt, ctx));
      inner.add(`if (issues.length === ${n}) ${c}++;`);
      b.wrap("{", inner);
    }
    b.add(`if (${c} !== 0) issues.length = ${mark};`);
    const many = { code: `"must match exactly one schema in oneOf, but matches " + ${c}` };
    b.add(`if (${c} === 0) ${this.failStatement(ctx, "oneOf", message, at + "/oneOf")}`);
    b.add(`else if (${c} > 1) ${this.failStatement(ctx, "oneOf", many, at + "/oneOf")}`);
  }

  private not(sub: unknown, at: string, ctx: Ctx, b: Block): void {
    const message = 'must not match the "not" schema';
    if (sub === false) return;
    if (sub === true) return this.failAlways(b, ctx, "not", message, at + "/not");
    const label = ctx.scope.local("L");
    const inner = this.genSame(sub, at + "/not", { ...ctx, mode: "bool", fail: breakTo(label) });
    this.failAlways(inner, ctx, "not", message, at + "/not");
    b.labeled(label, inner);
  }

  private ifThenElse(schema: SchemaObject, at: string, ctx: Ctx, b: Block): void {
    const condition = schema["if"];
    const thenSchema = "then" in schema ? schema["then"] : true;
    const elseSchema = "else" in schema ? schema["else"] : true;
    // No effect (the audit has still checked the subschemas).
    if (thenSchema === true && elseSchema === true) return;
    if (condition === true) return void b.append(this.genSame(thenSchema, at + "/then", ctx));
    if (condition === false) return void b.append(this.genSame(elseSchema, at + "/else", ctx));
    const passed = ctx.scope.local("L");
    const whole = ctx.scope.local("L");
    const inner = this.genSame(condition, at + "/if", { ...ctx, mode: "bool", fail: breakTo(passed) });
    inner.append(this.genSame(thenSchema, at + "/then", ctx));
    if (elseSchema === true) {
      b.labeled(passed, inner);
      return;
    }
    inner.jump(breakTo(whole));
    const outer = new Block().labeled(passed, inner);
    outer.append(this.genSame(elseSchema, at + "/else", ctx));
    b.labeled(whole, outer);
  }

  /* ------------------------------------------------------------ helpers */

  /** The context for a property or item held in `v`, at `path`. */
  private child(ctx: Ctx, v: string, path: string): Ctx {
    return { ...ctx, v, path, sameInstance: false };
  }

  /** `const x = expression;` before `inner` when `inner` reads `x`. */
  private bind(x: string, expression: string, inner: Block): Block {
    if (inner.isEmpty || !usesName(inner.lines, x)) return inner;
    return new Block().add(`const ${x} = ${expression};`).append(inner);
  }
}

/* ------------------------------------------------------------ free helpers */

/** A rough cost of checking a schema (keywords, enum values, `$ref` calls), looking `depth` levels down. */
function cost(schema: unknown, depth: number): number {
  if (!isObject(schema)) return 0;
  let total = 0;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "enum" && Array.isArray(value)) total += value.length;
    else if (keyword === "$ref") total += 8;
    else if (keyword === "pattern" || keyword === "format" || keyword === "uniqueItems") total += 4;
    else if (ASSERTION_KEYWORDS.has(keyword)) total += 1;
    if (depth > 0 && (isObject(value) || Array.isArray(value))) {
      for (const member of Object.values(value)) total += cost(member, depth - 1);
    }
  }
  return total;
}

export function isObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a JSON pointer, reading own members only (never `Object.prototype`). */
export function valueAt(root: unknown, segments: readonly string[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      current = /^(0|[1-9]\d*)$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (isObject(current)) {
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

/** `$anchor` names and the pointers of the schemas that declare them (data-valued members skipped). */
function collectAnchors(document: unknown): Map<string, string[]> {
  const anchors = new Map<string, string[]>();
  const walk = (node: unknown, segments: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...segments, String(index)]));
      return;
    }
    if (!isObject(node)) return;
    const anchor = node["$anchor"];
    if (typeof anchor === "string") {
      const list = anchors.get(anchor) ?? [];
      list.push(pointer(...segments));
      anchors.set(anchor, list);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "enum" || key === "const" || key === "default" || key === "examples" || key === "example") continue;
      walk(value, [...segments, key]);
    }
  };
  walk(document, []);
  return anchors;
}

/** How code reads property `name` of `v`: own members only for names `Object.prototype` also has. */
function read(compiler: ValidatorCompiler, v: string, name: string): string {
  if (name === "__proto__" || name in Object.prototype) return `${compiler.helper("own")}(${v}, ${stringLiteral(name)})`;
  return IDENTIFIER_NAME.test(name) ? `${v}.${name}` : `${v}[${stringLiteral(name)}]`;
}

export { read as readProperty };

function typeGuard(type: "number" | "string" | "array" | "object", v: string): string {
  switch (type) {
    case "number":
      return `typeof ${v} === "number"`;
    case "string":
      return `typeof ${v} === "string"`;
    case "array":
      return `Array.isArray(${v})`;
    case "object":
      return `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
  }
}

function typeTest(type: TypeName, v: string): string {
  switch (type) {
    case "null":
      return `${v} === null`;
    case "boolean":
      return `typeof ${v} === "boolean"`;
    case "string":
      return `typeof ${v} === "string"`;
    case "number":
      return `(typeof ${v} === "number" && isFinite(${v}))`;
    case "integer":
      return `Number.isInteger(${v})`;
    case "array":
      return `Array.isArray(${v})`;
    case "object":
      return `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`;
  }
}

/** A condition true when `v` has none of the types. */
function typeFails(types: readonly TypeName[], v: string): string {
  if (types.length > 1) return `!(${types.map((t) => typeTest(t, v)).join(" || ")})`;
  switch (types[0]) {
    case "null":
      return `${v} !== null`;
    case "boolean":
      return `typeof ${v} !== "boolean"`;
    case "string":
      return `typeof ${v} !== "string"`;
    case "number":
      return `typeof ${v} !== "number" || !isFinite(${v})`;
    case "integer":
      return `!Number.isInteger(${v})`;
    case "array":
      return `!Array.isArray(${v})`;
    case "object":
    default:
      return `typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})`;
  }
}

/** The JSON Schema types a JSON value has (an integral number is both "integer" and "number"). */
function jsonTypes(value: unknown): TypeName[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  switch (typeof value) {
    case "boolean":
      return ["boolean"];
    case "string":
      return ["string"];
    case "number":
      return Number.isInteger(value) ? ["integer", "number"] : ["number"];
    default:
      return ["object"];
  }
}

function literal(value: unknown): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return numberLiteral(value);
  return String(value);
}

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
  return value === 0 ? "0" : String(value);
}

/** The declared types, "integer" dropped when "number" is there. */
function typeList(schema: SchemaObject, at: string): TypeName[] | undefined {
  if (!("type" in schema)) return undefined;
  const raw = schema["type"];
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((t): t is TypeName => typeof t === "string" && TYPE_NAMES.has(t))) {
    throw new ContractError(at + "/type", "type must be a type name or an array of type names");
  }
  const unique = [...new Set(list)];
  return unique.includes("number") ? unique.filter((t) => t !== "integer") : unique;
}

function finiteNumber(schema: SchemaObject, keyword: string, at: string): number {
  const value = schema[keyword];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a number${typeof value === "boolean" ? " (the draft-04 boolean form is not 2020-12)" : ""}`);
  }
  return value;
}

function divisorOf(schema: SchemaObject, at: string): number {
  const divisor = schema["multipleOf"];
  if (typeof divisor !== "number" || !Number.isFinite(divisor) || divisor <= 0) {
    throw new ContractError(at + "/multipleOf", "multipleOf must be a number greater than 0");
  }
  return divisor;
}

function uniqueItemsOf(schema: SchemaObject, at: string): boolean {
  const unique = schema["uniqueItems"];
  if (typeof unique !== "boolean") throw new ContractError(at + "/uniqueItems", "uniqueItems must be a boolean");
  return unique;
}

function itemsOf(schema: SchemaObject, at: string): unknown {
  const items = schema["items"];
  if (Array.isArray(items)) throw new ContractError(at + "/items", "the array form of items is draft 2019-09; use prefixItems");
  return items;
}

/** `dependentRequired`: per property name, the names it requires. */
function dependentRequiredOf(schema: SchemaObject, at: string): Array<[string, string[]]> {
  const dependencies = schema["dependentRequired"];
  if (!isObject(dependencies)) throw new ContractError(at + "/dependentRequired", "dependentRequired must be an object");
  return Object.keys(dependencies).map((name) => [name, stringArray(dependencies, name, at + "/dependentRequired")]);
}

/** A `pattern` (or a `patternProperties` key): a string that compiles with the `u` flag, as JSON Schema asks. */
function checkPattern(source: unknown, at: string): string {
  if (typeof source !== "string") throw new ContractError(at, "a pattern must be a string");
  try {
    new RegExp(source, "u");
  } catch (error) {
    throw new ContractError(at, `not a valid ECMAScript regular expression (with the u flag): ${(error as Error).message}`);
  }
  return source;
}

function count(schema: SchemaObject, keyword: string, at: string): number {
  const value = schema[keyword];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a non-negative integer`);
  }
  return value;
}

function schemaArray(schema: SchemaObject, keyword: string, at: string): unknown[] {
  const value = schema[keyword];
  if (!Array.isArray(value) || (keyword !== "prefixItems" && value.length === 0)) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a non-empty array of schemas`);
  }
  return value;
}

function schemaMap(schema: SchemaObject, keyword: string, at: string): Record<string, unknown> {
  if (!(keyword in schema)) return {};
  const value = schema[keyword];
  if (!isObject(value)) throw new ContractError(at + pointer(keyword), `${keyword} must be an object of schemas`);
  return value;
}

function stringArray(schema: SchemaObject, keyword: string, at: string): string[] {
  if (!(keyword in schema)) return [];
  const value = schema[keyword];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be an array of strings`);
  }
  return value as string[];
}

function requiredMessage(name: string): string {
  return `must have required property ${JSON.stringify(name)}`;
}

function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function truncate(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
