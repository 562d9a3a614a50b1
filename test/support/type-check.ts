/** Type-checks files with the project's strict settings: the diagnostics as `file:line message`. */
import path from "node:path";
import ts from "typescript";
import { repoRoot } from "./prism.ts";

export function typeCheck(files: string[], options: ts.CompilerOptions = {}): string[] {
  const config = ts.readConfigFile(path.join(repoRoot, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const program = ts.createProgram(files, { ...parsed.options, ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(repoRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
