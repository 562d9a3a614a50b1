/**
 * The validator emitter: JSON Schemas (2020-12, as OpenAPI 3.1 uses them) in, one TypeScript
 * module out, with for each entry `X`
 *
 * - `isX(value): value is T` — a fast guard (short-circuits, allocates nothing);
 * - `validateX(value): ValidationIssue[]` — every problem, with the value's and the contract's
 *   JSON pointers and a message for people; runs the guard first, so valid values cost the same;
 * - `withDefaultsX(value): T` — only when the schema has `default`s reachable through
 *   properties: a deep copy with missing properties filled in, the input left untouched.
 *
 * The code is plain statements: no runtime dependency but `runtime/validation.ts`, no `eval` or
 * `new Function` (strict CSP), one export per function for tree-shaking. Every `$ref` target is
 * one internal function pair, so recursive schemas work and nothing is emitted twice. Keywords the
 * emitter cannot check stop generation with a ContractError at their JSON pointer (see
 * `validators/keywords.ts` for the supported, ignored and refused keywords).
 */
import { ContractError } from "../errors.ts";
import { parsePointer, pointer } from "../json-pointer.ts";
import { jsDoc, stringLiteral } from "../escape.ts";
import { forEachIdentifier } from "./validators/code.ts";
import { isObject, valueAt, ValidatorCompiler, type Declaration } from "./validators/compile.ts";
import { DefaultsCompiler } from "./validators/defaults.ts";

export interface ValidatorEntry {
  /** Exported stem, already a safe PascalCase identifier, e.g. "Pod", "ImageToVideoInput". */
  name: string;
  /** JSON pointer of the schema inside `document`, e.g. "/components/schemas/Pod" ("" for the root). */
  pointer: string;
  /** TypeScript type of a valid value (code, not contract text), e.g. `components["schemas"]["Pod"]`; default `unknown`. */
  typeName?: string;
}

export interface EmitValidatorsOptions {
  /** The whole bundled document: internal "#/..." `$ref`s resolve against it. */
  document: object;
  entries: ValidatorEntry[];
  /** A line placed at the top, e.g. `import type { components } from "./schema.js";`. */
  typeImport?: string;
  /** Module specifier of the runtime helpers; default "./runtime/validation.js". */
  runtimeImport?: string;
  /**
   * Formats to treat as annotations (not checked), on top of OpenAPI's int32, int64, float,
   * double, password, binary and byte. Any other format the emitter does not check is refused
   * with a ContractError, so each one ignored is a decision the caller states here.
   */
  ignoredFormats?: readonly string[];
  /**
   * Further modules from the same compilation, by name: each exports `validateX` for the listed
   * entries only, with just the code those reach, and imports nothing of the main module. (The
   * client's response validators are one: an app that never loads them never bundles them.)
   */
  views?: Readonly<Record<string, readonly string[]>>;
}

export interface ValidatorModules {
  /** The module with every entry's exports. */
  source: string;
  /** Per view name, its module. */
  views: Record<string, string>;
}

const EXPORT_STEM = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Runtime helpers (values) and types the generated code may use; only the used ones are imported. */
const RUNTIME_VALUES = [
  "addIssue",
  "cloneJson",
  "collapseIssues",
  "countProperties",
  "decimalMultiple",
  "deepEqual",
  "duplicatePair",
  "escapeSegment",
  "own",
  "setOwn",
  "ucs2length",
  "validDate",
  "validDateTime",
  "validEmail",
  "validUri",
  "validUriReference",
  "validUuid",
];
const RUNTIME_TYPES = ["DefaultsInput", "ValidationIssue"];
const RUNTIME_NAMES: ReadonlySet<string> = new Set([...RUNTIME_VALUES, ...RUNTIME_TYPES]);

export function emitValidators(options: EmitValidatorsOptions): string {
  return emitValidatorModules(options).source;
}

export function emitValidatorModules(options: EmitValidatorsOptions): ValidatorModules {
  const { document, entries } = options;
  const runtimeImport = options.runtimeImport ?? "./runtime/validation.js";
  const compiler = new ValidatorCompiler(document, options.ignoredFormats ?? []);
  const defaults = new DefaultsCompiler(compiler);

  const seen = new Set<string>();
  const roots = entries.map((entry) => {
    if (!EXPORT_STEM.test(entry.name)) throw new TypeError(`validator entry name ${JSON.stringify(entry.name)} is not an identifier`);
    if (seen.has(entry.name)) throw new TypeError(`validator entry name ${JSON.stringify(entry.name)} is used twice`);
    seen.add(entry.name);
    const at = pointer(...parsePointer(entry.pointer));
    if (valueAt(document, parsePointer(at)) === undefined) throw new ContractError(at, `no schema for the ${entry.name} validator`);
    return { entry, unit: compiler.unitAt(at, entry.name) };
  });
  const declarations: Declaration[] = compiler.compilePending();

  const exported: string[] = [];
  /** Per entry name, its `validateX` function: what a view exports. */
  const validateFunctions = new Map<string, string[]>();
  let withDefaults = false;
  for (const { entry, unit } of roots) {
    const type = entry.typeName ?? "unknown";
    const description = isObject(unit.schema) && typeof unit.schema["description"] === "string" ? unit.schema["description"] : undefined;
    const where = `\`${entry.name}\` (\`#${unit.pointer}\`)`;
    const validate = [
      jsDoc(`Every way a value breaks the schema ${where}; empty when it matches.`),
      `export function validate${entry.name}(value: unknown): ValidationIssue[] {`,
      "  const issues: ValidationIssue[] = [];",
      `  if (!${unit.check}(value)) ${unit.collect}(value, "", issues);`,
      "  return issues;",
      "}",
      "",
    ];
    validateFunctions.set(entry.name, validate);
    exported.push(
      jsDoc(`Whether a value matches the schema ${where}; agrees with \`validate${entry.name}\`, faster.${description === undefined ? "" : `\n\n${description}`}`),
      `export function is${entry.name}(value: unknown): value is ${type} {`,
      `  return ${unit.check}(value);`,
      "}",
      "",
      ...validate,
    );
    if (!defaults.unitHasDefaults(unit)) continue;
    withDefaults = true;
    const optional = defaults.topLevelDefaults(unit);
    const signature =
      entry.typeName === undefined
        ? `withDefaults${entry.name}<T>(value: T): T`
        : `withDefaults${entry.name}(value: DefaultsInput<${type}, ${optional.length === 0 ? "never" : optional.map(stringLiteral).join(" | ")}>): ${type}`;
    const described = defaults.describeTopLevel(unit);
    exported.push(
      jsDoc(
        "A deep copy of `value` with the schema's defaults filled in where properties are missing (nested objects too); `value` itself is not changed." +
          (described.length === 0 ? "" : `\nTop-level defaults: ${described.join(", ")}.`),
      ),
      `export function ${signature} {`,
      "  const copy: any = cloneJson(value);",
      `  ${defaults.fillName(unit)}(copy);`,
      "  return copy;",
      "}",
      "",
    );
  }
  if (withDefaults) {
    for (const unit of compiler.units.values()) {
      if (defaults.unitHasDefaults(unit)) declarations.push({ name: defaults.fillName(unit), lines: defaults.fillFunction(unit) });
    }
  }

  const available = compiler.constants.concat(declarations);
  const views: Record<string, string> = {};
  for (const [view, names] of Object.entries(options.views ?? {})) {
    const lines: string[] = [];
    for (const name of names) {
      const validate = validateFunctions.get(name);
      if (validate === undefined) throw new TypeError(`view ${JSON.stringify(view)} names ${JSON.stringify(name)}, which is not an entry`);
      for (const line of validate) lines.push(line);
    }
    // A view's own functions: it needs no type import (validateX takes unknown).
    views[view] = moduleText(available, lines, undefined, runtimeImport);
  }
  return { source: moduleText(available, exported, options.typeImport, runtimeImport), views };
}

/**
 * A module: the declarations the exports reach (code behind a check that always fails, or a schema
 * compiled only to be checked, an `if` without `then`/`else`, leaves nothing unused behind), then
 * the exports, after the imports of the runtime helpers the kept code mentions.
 */
function moduleText(available: readonly Declaration[], exported: readonly string[], typeImport: string | undefined, runtimeImport: string): string {
  const mentioned = new Set<string>();
  const kept = reachable(available, exported, (name) => {
    if (RUNTIME_NAMES.has(name)) mentioned.add(name);
  });
  const code: string[] = [];
  for (const declaration of kept) {
    for (const line of declaration.lines) code.push(line);
    code.push("");
  }
  for (const line of exported) code.push(line);
  const values = RUNTIME_VALUES.filter((name) => mentioned.has(name));
  const types = RUNTIME_TYPES.filter((name) => mentioned.has(name)).map((name) => `type ${name}`);
  const imported = [...values, ...types];

  const lines: string[] = [];
  if (typeImport !== undefined && typeImport !== "") lines.push(typeImport);
  if (imported.length > 0) lines.push(`import { ${imported.join(", ")} } from ${stringLiteral(runtimeImport)};`);
  if (lines.length > 0) lines.push("");
  // A loop, not push(...code): a large contract's module has more lines than a call takes arguments.
  for (const line of code) lines.push(line);
  while (lines.at(-1) === "") lines.pop();
  return `${lines.join("\n")}\n`;
}

/**
 * The declarations `roots` use, directly or through each other, in their original order: a walk
 * over the graph of names (a name→declaration map), the roots' and each reached declaration's
 * code scanned once, so O(size of the code). `visit` sees every identifier of the scanned code
 * (roots and kept declarations), repeats included.
 */
function reachable(declarations: readonly Declaration[], roots: readonly string[], visit: (name: string) => void = () => {}): Declaration[] {
  const byName = new Map<string, Declaration>();
  for (const declaration of declarations) byName.set(declaration.name, declaration);
  const used = new Set<Declaration>();
  const queue: (readonly string[])[] = [roots];
  for (let lines = queue.pop(); lines !== undefined; lines = queue.pop()) {
    forEachIdentifier(lines, (name) => {
      visit(name);
      const declaration = byName.get(name);
      if (declaration === undefined || used.has(declaration)) return;
      used.add(declaration);
      queue.push(declaration.lines);
    });
  }
  return declarations.filter((declaration) => used.has(declaration));
}
