/**
 * Strict type-checking of many generated packages in one TypeScript program: the standard library
 * and the shared dependencies (openapi-fetch…) are parsed and bound once, not once per package.
 * Each package's own compiler options are used, less what only an emit needs (rootDir, outDir).
 */
import path from "node:path";
import ts from "typescript";

/**
 * Diagnostics per package folder, each `file: message` relative to its package. Files for which
 * `checked` says false are in the program (their types are used) but their own bodies are not
 * checked.
 */
export function typeCheckPackages(dirs: readonly string[], checked?: (fileName: string) => boolean): Map<string, string[]> {
  const byDir = new Map<string, string[]>(dirs.map((dir) => [dir, []]));
  if (dirs.length === 0) return byDir;
  const parsed = dirs.map((dir) => ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile).config, ts.sys, dir));
  const options: ts.CompilerOptions = { ...parsed[0]!.options, noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
  delete options.rootDir;
  delete options.outDir;
  const program = ts.createProgram(parsed.flatMap((p) => p.fileNames), options);
  const diagnostics =
    checked === undefined
      ? ts.getPreEmitDiagnostics(program)
      : [
          ...program.getOptionsDiagnostics(),
          ...program.getGlobalDiagnostics(),
          ...program.getSourceFiles().flatMap((file) => (checked(file.fileName) ? [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)] : [])),
        ];
  for (const diagnostic of diagnostics) {
    const file = diagnostic.file?.fileName ?? "";
    const dir = dirs.find((d) => file.startsWith(`${d}/`)) ?? dirs[0]!;
    const where = diagnostic.file && diagnostic.start !== undefined ? `${path.relative(dir, file)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}` : "(program)";
    byDir.get(dir)!.push(`${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
  }
  return byDir;
}

/** One file on its own under strict (openapi-typescript's output): no package, no types from node_modules/@types. */
export function typeCheckFile(file: string): string[] {
  const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, skipLibCheck: true, types: [] });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
}
