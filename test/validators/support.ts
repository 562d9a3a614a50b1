/**
 * Test helpers: run emitted validator modules in memory. Tests may evaluate code (the generated
 * modules themselves never do): the module's JavaScript is transpiled to CommonJS and run with
 * `new Function`, its one import answered with the runtime module.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import * as formats from "../../templates/runtime/formats.ts";
import * as validation from "../../templates/runtime/validation.ts";
import type { ValidationIssue } from "../../templates/runtime/validation.ts";
import { moduleFiles as outputFiles, type EmittedModule } from "../../generator/emit/output-file.ts";

export type { ValidationIssue };

export interface LoadedValidators {
  [name: string]: (value: unknown) => any;
}

export function transpile(source: string): string {
  return ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    reportDiagnostics: false,
  }).outputText;
}

/** The runtime helpers under test, both modules as one (each import of an emitted module reads its own names from it). */
export const runtime = { ...validation, ...formats };

/**
 * Evaluates an emitted module; `./runtime/validation.js` and `./runtime/formats.js` resolve to the
 * runtime under test (or to `runtimeModule`).
 */
export function loadValidators(module: EmittedModule | string, runtimeSpecifier = "./runtime/validation.js", runtimeModule: object = runtime): LoadedValidators {
  const js = transpile(typeof module === "string" ? module : module.js);
  const exports: Record<string, unknown> = {};
  const require = (specifier: string): unknown => {
    if (specifier === runtimeSpecifier || specifier === "./runtime/formats.js") return runtimeModule;
    throw new Error(`unexpected import ${specifier}`);
  };
  new Function("exports", "require", js)(exports, require);
  return exports as LoadedValidators;
}

/**
 * An emitted module as the files of a virtual program (the generator's own file names):
 * `<path>.js`, read as JavaScript (its syntax is checked, not its types), and `<path>.d.ts`.
 */
export function moduleFiles(pathWithoutExtension: string, module: EmittedModule): Array<[string, string]> {
  return outputFiles(pathWithoutExtension, module).map((file) => [file.path, file.contents]);
}

/**
 * Type-checks modules (under /virtual/) together in memory: strict and then some, ES2022 library
 * only; declaration files are checked too, JavaScript files for their syntax (no TypeScript in them).
 */
export function diagnosticsOf(modules: Map<string, string>, extra: ts.CompilerOptions = {}): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    allowUnreachableCode: false,
    allowUnusedLabels: false,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    target: ts.ScriptTarget.ES2022,
    // ES modules throughout; "./x.js" specifiers resolve to the virtual "./x.ts" as under NodeNext.
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    noEmit: true,
    allowJs: true,
    checkJs: false,
    skipLibCheck: false,
    ...extra,
  };
  const host = ts.createCompilerHost(options);
  const readLibrary = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const directoryExists = host.directoryExists?.bind(host);
  host.fileExists = (fileName) => modules.has(fileName) || fileExists(fileName);
  host.directoryExists = (name) => [...modules.keys()].some((file) => file.startsWith(`${name}/`)) || (directoryExists?.(name) ?? false);
  host.readFile = (fileName) => modules.get(fileName) ?? readFile(fileName);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const source = modules.get(fileName);
    return source === undefined
      ? readLibrary(fileName, languageVersion, onError)
      : ts.createSourceFile(fileName, source, languageVersion, true);
  };
  const program = ts.createProgram([...modules.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

/**
 * The runtime files a generated validator module imports, keyed by their path beside a module at
 * `/virtual/validators.js`: for type-checking emitted code in memory.
 */
export function virtualRuntimeFiles(): Array<[string, string]> {
  const dir = path.resolve(import.meta.dirname, "../../templates/runtime");
  return ["validation.ts", "formats.ts", "json-pointer.ts"].map((name) => [`/virtual/runtime/${name}`, fs.readFileSync(path.join(dir, name), "utf8")]);
}
