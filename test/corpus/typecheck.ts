/**
 * Strict type-checking of many generated packages in one TypeScript program: the standard library
 * and the shared dependencies (openapi-fetch…) are parsed and bound once, not once per package.
 * Each package's own compiler options are used, less what only an emit needs (rootDir, outDir).
 */
import path from "node:path";
import ts from "typescript";

/** Diagnostics per package folder, each `file: message` relative to its package. */
export function typeCheckPackages(dirs: readonly string[]): Map<string, string[]> {
  const byDir = new Map<string, string[]>(dirs.map((dir) => [dir, []]));
  if (dirs.length === 0) return byDir;
  const parsed = dirs.map((dir) => ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile).config, ts.sys, dir));
  const options: ts.CompilerOptions = { ...parsed[0]!.options, noEmit: true, declaration: false, declarationMap: false, sourceMap: false };
  delete options.rootDir;
  delete options.outDir;
  const program = ts.createProgram(parsed.flatMap((p) => p.fileNames), options);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName ?? "";
    const dir = dirs.find((d) => file.startsWith(`${d}/`)) ?? dirs[0]!;
    const where = diagnostic.file && diagnostic.start !== undefined ? `${path.relative(dir, file)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}` : "(program)";
    byDir.get(dir)!.push(`${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
  }
  return byDir;
}
