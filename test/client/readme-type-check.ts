/**
 * Type-checks every TypeScript block of a generated package's README against the package's own
 * sources, as its users would compile them (the package's strict settings): the blocks gathered
 * by `readmeExamplesSource`, the package's imports pointed at its `src/`.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { readmeExampleBlocks, readmeExamplesSource } from "../publish/support.ts";

export interface ReadmeCheck {
  /** How many blocks the module holds (each one function). */
  blocks: number;
  /** `line: message` of each diagnostic, with the block's source beside it. */
  diagnostics: string[];
}

/** `packageDir` holds the generated package (its `README.md`, `tsconfig.json`, `src/`); the examples' module is written to `scratchDir`. */
export function typeCheckReadme(packageDir: string, packageName: string, className: string, scratchDir: string): ReadmeCheck {
  const readme = fs.readFileSync(path.join(packageDir, "README.md"), "utf8");
  const src = path.join(packageDir, "src");
  const source = readmeExamplesSource(readme, className).replace(/from "([^"]+)";/g, (whole, from: string) => {
    if (from === packageName) return `from ${JSON.stringify(path.join(src, "index.js"))};`;
    if (from.startsWith(`${packageName}/`)) return `from ${JSON.stringify(path.join(src, `${from.slice(packageName.length + 1)}.js`))};`;
    return whole;
  });
  fs.mkdirSync(scratchDir, { recursive: true });
  const file = path.join(scratchDir, "readme-examples.ts");
  fs.writeFileSync(file, source);
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(packageDir, "tsconfig.json"), ts.sys.readFile).config, ts.sys, packageDir);
  // The examples declare `process` themselves, as an app without @types/node would.
  const program = ts.createProgram([file], { ...config.options, rootDir: undefined, noEmit: true, types: [] });
  const lines = source.split("\n");
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const where = d.file ? `${path.basename(d.file.fileName)}:${line + 1}` : "";
    const text = d.file?.fileName === file ? ` (${lines[line]?.trim()})` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}${text}`;
  });
  return { blocks: (source.match(/^export async function example/gm) ?? []).length, diagnostics };
}

/** The README's ```ts blocks that `typeCheckReadme` checks (see `readmeExampleBlocks`). */
export function typeScriptBlocks(readme: string): string[] {
  return readmeExampleBlocks(readme);
}
