/**
 * The validator emitter: JSON Schemas (2020-12, as OpenAPI 3.1 uses them) in, one JavaScript
 * module and its declaration file out (module.ts says why not TypeScript), with for each entry `X`
 *
 * - `isX(value): value is T` — a fast guard (short-circuits, allocates nothing);
 * - `validateX(value): ValidationIssue[]` — every problem, with the value's and the contract's
 *   JSON pointers and a message for people; runs the guard first, so valid values cost the same;
 * - `withDefaultsX(value): T` — only when the schema has `default`s reachable through
 *   properties: a deep copy with missing properties filled in, the input left untouched.
 *
 * The code is plain statements: no runtime dependency but `runtime/validation.ts`, no `eval` or
 * `new Function` (strict CSP), one export per function for tree-shaking. Every `$ref` target is
 * one internal function pair, so recursive schemas work and nothing is emitted twice (schemas
 * written alike share one); an operation's parameters are a table the runtime walks. Keywords the
 * emitter cannot compile correctly stop generation with a ContractError at their JSON pointer;
 * unknown ones are annotations, told in `warnings` (see `validators/vocabulary.ts`).
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { jsDoc, stringLiteral } from "../../common/escape.ts";
import type { Warnings } from "../../common/warnings.ts";
import { Block, code, name, raw, type Code, type Declaration } from "../code.ts";
import type { UnknownFormats } from "./keyword-definition.ts";
import { ValidatorCompiler } from "./compile.ts";
import type { Unit } from "./unit.ts";
import { DefaultsCompiler } from "./defaults/index.ts";
import { moduleText, type Exports } from "./module.ts";
import type { EmittedModule } from "../output-file.ts";
import { ParameterTables, type ParameterTableSpec } from "./parameters.ts";
import { isIdentifierName } from "./property-access.ts";
import { runtime } from "./runtime-helpers.ts";
import { isObject, valueAt } from "./schema-object.ts";
import type { Direction } from "../../common/read-write.ts";

export interface ValidatorEntry {
  /** Exported stem, already a safe PascalCase identifier, e.g. "Pod", "ImageToVideoInput". */
  name: string;
  /** JSON pointer of the schema inside `document`, e.g. "/components/schemas/Pod" ("" for the root). */
  pointer: string;
  /** TypeScript type of a valid value (code, not contract text), e.g. `components["schemas"]["Pod"]`; default `unknown`. */
  typeName?: string;
  /**
   * For an operation's parameters: checked through a table (validators/parameters.ts), `pointer`
   * being the same parameters as one schema (for `withDefaults…` and the issues about the call's shape).
   */
  parameters?: ParameterTableSpec;
  /** The direction the value travels in (a response body), for a schema with read-only or write-only properties; default: as written. */
  view?: Direction;
}

export interface EmitValidatorsOptions {
  /** The whole bundled document: internal "#/..." `$ref`s resolve against it. */
  document: object;
  entries: ValidatorEntry[];
  /** A line placed at the top, e.g. `import type { components } from "./schema.js";`. */
  typeImport?: string;
  /** Module specifier of the runtime helpers; default "./runtime/validation.js". */
  runtimeImport?: string;
  /** Module specifier of the format checks; default "./runtime/formats.js". */
  formatsImport?: string;
  /**
   * Formats to treat as annotations without a warning, on top of OpenAPI's int32, int64, float,
   * double, password, binary and byte.
   */
  ignoredFormats?: readonly string[];
  /** Any other format the emitter does not check: an annotation told in `warnings` (default), or a ContractError. */
  unknownFormats?: UnknownFormats;
  /** Where unknown formats and keywords (annotations) and patterns compiled without `u` are told. */
  warnings?: Warnings;
  /**
   * Further modules from the same compilation, by name: each exports `validateX` for the listed
   * entries only, with just the code those reach, and imports nothing of the main module. (The
   * client's response validators are one: an app that never loads them never bundles them.)
   */
  views?: Readonly<Record<string, readonly string[] | ValidatorView>>;
}

/** A view that also exports each entry's `withDefaultsX`, from a module placed elsewhere than the main one. */
export interface ValidatorView {
  names: readonly string[];
  withDefaults: true;
  /** The type import line, and the runtime modules' specifiers, as seen from the view's module. */
  typeImport: string;
  runtimeImport: string;
  formatsImport: string;
}

export interface ValidatorModules {
  /** The module with every entry's exports. */
  source: EmittedModule;
  /** Per view name, its module. */
  views: Record<string, EmittedModule>;
  /** The entries (by name) that have a `withDefaults…` function, in entry order. */
  withDefaults: string[];
}

export function emitValidators(options: EmitValidatorsOptions): EmittedModule {
  return emitValidatorModules(options).source;
}

export function emitValidatorModules(options: EmitValidatorsOptions): ValidatorModules {
  const runtimeImports = { validation: options.runtimeImport ?? "./runtime/validation.js", formats: options.formatsImport ?? "./runtime/formats.js" };
  const compiler = new ValidatorCompiler(options.document, options);
  const defaults = new DefaultsCompiler(compiler);
  const tables = new ParameterTables(compiler);
  const roots = entryRoots(options, compiler, tables);
  const declarations: Declaration[] = compiler.compilePending().concat(tables.declarations);

  const exported = exportsBlock();
  /** Per entry name, its `validateX` function: what a view exports. */
  const validateFunctions = new Map<string, Exports>();
  const withDefaultsFunctions = new Map<string, Exports>();
  const withDefaults: string[] = [];
  for (const root of roots) {
    const { entry } = root;
    const validate = validateFunction(root);
    validateFunctions.set(entry.name, validate);
    appendExports(appendExports(exported, guardFunction(root)), validate);
    // A parameter table's schema gets its unit only now: its functions are never compiled.
    const unit = root.unit ?? compiler.unitAt(root.at, entry.name);
    if (!defaults.unitHasDefaults(unit)) continue;
    withDefaults.push(entry.name);
    const fill = withDefaultsFunction(entry, unit, defaults);
    withDefaultsFunctions.set(entry.name, fill);
    appendExports(exported, fill);
  }
  if (withDefaults.length > 0) {
    // Writing a fill function may create units (a `$ref` only the defaults walk follows): by index, until none is new.
    const units = compiler.functionUnits();
    for (let next = 0; next < units.length; next++) {
      if (defaults.unitHasDefaults(units[next]!)) declarations.push(defaults.fillFunction(units[next]!));
      if (next === units.length - 1) for (const added of compiler.functionUnits().slice(units.length)) units.push(added);
    }
  }

  const available = compiler.constants.declarations.concat(declarations);
  const views: Record<string, EmittedModule> = {};
  for (const [view, spec] of Object.entries(options.views ?? {})) {
    if (Array.isArray(spec)) {
      // A view's own functions: it needs no type import (validateX takes unknown).
      views[view] = moduleText(available, viewFunctions(view, spec as readonly string[], validateFunctions), undefined, runtimeImports);
      continue;
    }
    const { names, typeImport, runtimeImport, formatsImport } = spec as ValidatorView;
    const functions = viewFunctions(view, names, validateFunctions);
    for (const name of names) {
      const fill = withDefaultsFunctions.get(name);
      if (fill !== undefined) appendExports(functions, fill);
    }
    views[view] = moduleText(available, functions, typeImport, { validation: runtimeImport, formats: formatsImport });
  }
  return { source: moduleText(available, exported, options.typeImport, runtimeImports), views, withDefaults };
}

/** An entry as the exports see it: where its schema is, and the code that checks a `value`. */
interface Root {
  entry: ValidatorEntry;
  at: string;
  schema: unknown;
  /** The schema's unit; none for a parameter table. */
  unit: Unit | undefined;
  /** Whether `value` matches (an expression). */
  passes: Code;
  /** Every issue of `value` (an expression: an array, empty when it matches). */
  issues: Code;
}

/** Each entry, checked by its schema's unit or by its parameter table. */
function entryRoots(options: EmitValidatorsOptions, compiler: ValidatorCompiler, tables: ParameterTables): Root[] {
  const seen = new Set<string>();
  return options.entries.map((entry) => {
    if (!isIdentifierName(entry.name)) throw new TypeError(`validator entry name ${JSON.stringify(entry.name)} is not an identifier`);
    if (seen.has(entry.name)) throw new TypeError(`validator entry name ${JSON.stringify(entry.name)} is used twice`);
    seen.add(entry.name);
    const at = pointer(...parsePointer(entry.pointer));
    const schema = valueAt(options.document, parsePointer(at));
    if (schema === undefined) throw new ContractError(at, `no schema for the ${entry.name} validator`);
    if (entry.parameters !== undefined) {
      const table = tables.table(entry.name, at, entry.parameters);
      const passes = code`${runtime("checkParameters")}(value, ${table})`;
      return { entry, at, schema, unit: undefined, passes, issues: code`${runtime("parameterIssues")}(value, ${table}, ${at})` };
    }
    const unit = compiler.unitAt(at, entry.name, entry.view);
    return { entry, at, schema, unit, passes: code`${name(unit.check)}(value)`, issues: code`${runtime("issuesOf")}(value, ${name(unit.check)}, ${name(unit.collect)}, ${unit.pointer})` };
  });
}

function viewFunctions(view: string, names: readonly string[], validateFunctions: ReadonlyMap<string, Exports>): Exports {
  const functions = exportsBlock();
  for (const name of names) {
    const validate = validateFunctions.get(name);
    if (validate === undefined) throw new TypeError(`view ${JSON.stringify(view)} names ${JSON.stringify(name)}, which is not an entry`);
    appendExports(functions, validate);
  }
  return functions;
}

function exportsBlock(): Exports {
  return { code: new Block(), declarations: new Block() };
}

function appendExports(to: Exports, more: Exports): Exports {
  to.code.append(more.code);
  to.declarations.append(more.declarations);
  return to;
}

/** Where the entry's schema is, for doc comments: `` `Pod` (`#/components/schemas/Pod`) ``. */
function described(entry: ValidatorEntry, at: string): string {
  return `\`${entry.name}\` (\`#${at}\`)`;
}

/** An exported function `exported(value)`: its code, and its declaration (`typed` is what follows the name) after its doc comment. */
function exportedFunction(doc: string, exported: string, typed: Code, body: readonly Code[]): Exports {
  return {
    code: new Block().add(raw(`export function ${exported}(value) {`), ...body, raw("}"), raw("")),
    declarations: new Block().add(raw(jsDoc(doc)), code`export declare function ${raw(exported)}${typed};`, raw("")),
  };
}

function guardFunction({ entry, at, schema, passes }: Root): Exports {
  const description = isObject(schema) && typeof schema["description"] === "string" ? schema["description"] : undefined;
  return exportedFunction(
    `Whether a value matches the schema ${described(entry, at)}; agrees with \`validate${entry.name}\`, faster.${description === undefined ? "" : `\n\n${description}`}`,
    `is${entry.name}`,
    code`(value: unknown): value is ${raw(entry.typeName ?? "unknown")}`,
    [code`  return ${passes};`],
  );
}

function validateFunction({ entry, at, issues }: Root): Exports {
  return exportedFunction(`Every way a value breaks the schema ${described(entry, at)}; empty when it matches.`, `validate${entry.name}`, code`(value: unknown): ${runtime("ValidationIssue")}[]`, [code`  return ${issues};`]);
}

function withDefaultsFunction(entry: ValidatorEntry, unit: Unit, defaults: DefaultsCompiler): Exports {
  const type = raw(entry.typeName ?? "unknown");
  const optional = defaults.topLevelDefaults(unit);
  const omitted = raw(optional.length === 0 ? "never" : optional.map(stringLiteral).join(" | "));
  const typed = entry.typeName === undefined ? code`<T>(value: T): T` : code`(value: ${runtime("DefaultsInput")}<${type}, ${omitted}>): ${type}`;
  const topLevel = defaults.describeTopLevel(unit);
  return exportedFunction(
    "A deep copy of `value` with the schema's defaults filled in where properties are missing (nested objects too); `value` itself is not changed." +
      (topLevel.length === 0 ? "" : `\nTop-level defaults: ${topLevel.join(", ")}.`),
    `withDefaults${entry.name}`,
    typed,
    [code`  const copy = ${runtime("cloneJson")}(value);`, code`  ${name(defaults.fillName(unit))}(copy);`, raw("  return copy;")],
  );
}
