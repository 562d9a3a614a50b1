/**
 * Assembles an emitted module: JavaScript (the declarations its exports reach, then the exports,
 * after the imports of the runtime helpers that kept code references) and a declaration file of
 * its exports. The code is JavaScript so that a package's type-check reads only the declarations:
 * on a large API the validators are most of the package, and checking them again in every build
 * cost more than the rest of it. Reachability and imports come from the names each fragment
 * carries (code.ts), so unused code is left out without reading any text.
 */
import { stringLiteral } from "../../common/escape.ts";
import type { Block, Declaration } from "../code.ts";
import type { EmittedModule } from "../output-file.ts";
import { FORMAT_VALUES, RUNTIME_TYPES, RUNTIME_VALUES } from "./runtime-helpers.ts";

/** The exports of a module: their code, and their declarations (with their doc comments). */
export interface Exports {
  code: Block;
  declarations: Block;
}

/** Module specifiers of the runtime helpers. */
export interface RuntimeImports {
  validation: string;
  formats: string;
}

/**
 * A module: the declarations the exports reach (code behind a check that always fails, or a schema
 * compiled only to be checked, an `if` without `then`/`else`, leaves nothing unused behind), then
 * the exports, after the runtime imports; and its declaration file, after the type import (when
 * given) and the runtime types its declarations name.
 */
export function moduleText(available: readonly Declaration[], exported: Exports, typeImport: string | undefined, runtime: RuntimeImports): EmittedModule {
  const { kept, names } = reachable(available, exported.code.names);
  const code: string[] = [];
  for (const declaration of kept) {
    code.push(declaration.text);
    code.push("");
  }
  for (const line of exported.code.indented(0)) code.push(line);
  const values = RUNTIME_VALUES.filter((name) => names.has(name));
  const formats = FORMAT_VALUES.filter((name) => names.has(name));

  const lines: string[] = [];
  if (values.length > 0) lines.push(`import { ${values.join(", ")} } from ${stringLiteral(runtime.validation)};`);
  if (formats.length > 0) lines.push(`import { ${formats.join(", ")} } from ${stringLiteral(runtime.formats)};`);
  if (lines.length > 0) lines.push("");
  // A loop, not push(...code): a large contract's module has more lines than a call takes arguments.
  for (const line of code) lines.push(line);
  return { js: joined(lines), dts: declarationText(exported.declarations, typeImport, runtime) };
}

function declarationText(declarations: Block, typeImport: string | undefined, runtime: RuntimeImports): string {
  const types = RUNTIME_TYPES.filter((name) => declarations.names.has(name));
  const lines: string[] = [];
  if (typeImport !== undefined && typeImport !== "") lines.push(typeImport);
  if (types.length > 0) lines.push(`import type { ${types.join(", ")} } from ${stringLiteral(runtime.validation)};`);
  if (lines.length > 0) lines.push("");
  for (const line of declarations.indented(0)) lines.push(line);
  return joined(lines);
}

function joined(lines: string[]): string {
  while (lines.at(-1) === "") lines.pop();
  return `${lines.join("\n")}\n`;
}

/**
 * The declarations `roots` reference, directly or through each other, in their original order,
 * and every name the roots and those declarations reference: a walk over the graph of names,
 * each declaration's names read once.
 */
function reachable(declarations: readonly Declaration[], roots: Iterable<string>): { kept: Declaration[]; names: Set<string> } {
  const byName = new Map<string, Declaration>();
  for (const declaration of declarations) byName.set(declaration.name, declaration);
  const used = new Set<Declaration>();
  const names = new Set<string>();
  const queue: Iterable<string>[] = [roots];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const name of next) {
      names.add(name);
      const declaration = byName.get(name);
      if (declaration === undefined || used.has(declaration)) continue;
      used.add(declaration);
      queue.push(declaration.names);
    }
  }
  return { kept: declarations.filter((declaration) => used.has(declaration)), names };
}
