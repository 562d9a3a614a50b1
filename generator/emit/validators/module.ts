/**
 * Assembles an emitted module: the declarations its exports reach, then the exports, after the
 * imports of the runtime helpers that kept code references. Reachability and imports come from
 * the names each fragment carries (code.ts), so unused code is left out without reading any text.
 */
import { stringLiteral } from "../../common/escape.ts";
import type { Block, Declaration } from "../code.ts";
import { FORMAT_VALUES, RUNTIME_TYPES, RUNTIME_VALUES } from "./runtime-helpers.ts";

/** Module specifiers of the runtime helpers. */
export interface RuntimeImports {
  validation: string;
  formats: string;
}

/**
 * A module: the declarations the exports reach (code behind a check that always fails, or a schema
 * compiled only to be checked, an `if` without `then`/`else`, leaves nothing unused behind), then
 * the exports, after the type import (when given) and the runtime imports.
 */
export function moduleText(available: readonly Declaration[], exported: Block, typeImport: string | undefined, runtime: RuntimeImports): string {
  const { kept, names } = reachable(available, exported.names);
  const code: string[] = [];
  for (const declaration of kept) {
    code.push(declaration.text);
    code.push("");
  }
  for (const line of exported.indented(0)) code.push(line);
  const values = RUNTIME_VALUES.filter((name) => names.has(name));
  const types = RUNTIME_TYPES.filter((name) => names.has(name)).map((name) => `type ${name}`);
  const imported = [...values, ...types];
  const formats = FORMAT_VALUES.filter((name) => names.has(name));

  const lines: string[] = [];
  if (typeImport !== undefined && typeImport !== "") lines.push(typeImport);
  if (imported.length > 0) lines.push(`import { ${imported.join(", ")} } from ${stringLiteral(runtime.validation)};`);
  if (formats.length > 0) lines.push(`import { ${formats.join(", ")} } from ${stringLiteral(runtime.formats)};`);
  if (lines.length > 0) lines.push("");
  // A loop, not push(...code): a large contract's module has more lines than a call takes arguments.
  for (const line of code) lines.push(line);
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
