/** Type-checks files with the project's strict settings: the diagnostics as `file:line message`. */
import path from "node:path";
import ts from "typescript";
import { repoRoot } from "./prism.ts";

/**
 * The time a test that type-checks a generated package may take. The type-checker's work is the
 * test's work: one check has taken 78 s on the shared two-core machine while other suites ran (the
 * default 30 s is for tests that wait on I/O). A budget for that work, not a bound a test asserts.
 */
export const TYPE_CHECK_BUDGET_MS = 240_000;

export function typeCheck(files: string[], options: ts.CompilerOptions = {}): string[] {
  const config = ts.readConfigFile(path.join(repoRoot, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const program = ts.createProgram(files, { ...parsed.options, ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(repoRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}
