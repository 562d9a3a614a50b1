/**
 * The pipeline: load → model → emit → write, each stage timed so the benchmark can report them.
 * Each stage takes what the one before produced: the emitters get the model (`ApiModel`); only the
 * schema emitters (`src/schema.ts`, the validators) also get the contract, for its schemas.
 */
import fs from "node:fs";
import path from "node:path";
import type { IndentationText, SourceFile } from "ts-morph";
import { Project } from "./emit/ts-morph.ts";
import { baseErrorName, clientClassName, emitClient } from "./emit/client.ts";
import { emitBin, emitJobs } from "./extensions/model-endpoints/emit-jobs.ts";
import { ContractError } from "./common/errors.ts";
import { emitModels } from "./extensions/model-endpoints/emit-models.ts";
import { emitOperationValidators } from "./emit/validators/operation-validators.ts";
import { emitOperationFunctions, emitOperationSpecs } from "./emit/operations.ts";
import { emitPackageFiles, type PackageDependencies } from "./emit/package.ts";
import { runtimeFiles } from "./emit/runtime.ts";
import { emitSchemaTypes } from "./emit/schema-types/index.ts";
import { emitTypeAliases } from "./emit/types.ts";
import { loadContract, type LoadedContract } from "./load/contract.ts";
import { buildModel, type ApiModel, type ApiModelOptions } from "./model/index.ts";
import { REPO_ROOT } from "./common/paths.ts";
import { checkOutput, header, writeOutput, type CheckResult, type OutputFile } from "./write/index.ts";
import { compareStrings } from "./common/compare.ts";
import { Warnings } from "./common/warnings.ts";
import { readOlderDialects } from "./load/older-dialects/index.ts";
import type { UnknownFormats } from "./emit/validators/keywords/format.ts";

export const GENERATOR_NAME = "gpu-cloud-sdk-generator";

/** How the generated TypeScript is laid out: two spaces (ts-morph's `IndentationText.TwoSpaces`). */
const TWO_SPACES = "  " as IndentationText;
export const FORMAT = { indentSize: 2, convertTabsToSpaces: true } as const;

export interface GenerateOptions extends ApiModelOptions {
  spec: string;
  /** The package folder to write, e.g. `generated/gpu-cloud-client`. */
  out?: string;
  /** How `src/schema.ts` is emitted; by default `emitSchemaTypes` in this thread (the CLI may use a worker). */
  emitSchemaTypes?: (contract: Pick<LoadedContract, "document">) => Promise<string>;
  /** Warnings stop generation (`--strict`). */
  strict?: boolean;
  /** A `format` the validators do not check: an annotation with a warning (default), or an error (`--unknown-formats error`). */
  unknownFormats?: UnknownFormats;
}

export interface StageTimings {
  load: number;
  model: number;
  emit: number;
  write: number;
}

export interface Generated {
  contract: LoadedContract;
  api: ApiModel;
  files: OutputFile[];
  timings: StageTimings;
  /** What did not stop generation, one line per kind, located (empty when all is well). */
  warnings: string[];
}

/** Loads, models and emits: everything but the write. */
export async function generateFiles(options: GenerateOptions): Promise<Generated> {
  const timings: StageTimings = { load: 0, model: 0, emit: 0, write: 0 };
  const warnings = new Warnings();
  let started = performance.now();
  // Older dialects' keywords are read once here, for the types and the validators alike.
  const contract = readOlderDialects(await loadContract(options.spec, warnings), warnings);
  timings.load = performance.now() - started;

  try {
    started = performance.now();
    const api = buildModel(contract, { ...options, warnings });
    timings.model = performance.now() - started;

    started = performance.now();
    const files = await emitAll(contract, api, options.emitSchemaTypes ?? emitSchemaTypes, warnings, options.unknownFormats);
    timings.emit = performance.now() - started;
    const where = contract.split ? `${contract.sourcePath} (bundled)` : contract.sourcePath;
    if (options.strict && warnings.size > 0) throw warnings.toError(where, contract.sourcePointer);
    return { contract, api, files, timings, warnings: warnings.lines(where, contract.sourcePointer) };
  } catch (error) {
    // Located by the file, as load errors are; a split contract's pointers are into the bundle, and
    // an upgraded 3.0 document's into what the user wrote.
    if (error instanceof ContractError && error.file === undefined) {
      throw new ContractError(contract.sourcePointer(error.pointer), error.reason, contract.split ? `${contract.sourcePath} (bundled)` : contract.sourcePath);
    }
    throw error;
  }
}

/** The package folder a run writes: `--out`, or `generated/<package name>`. */
export function outputFolder(options: GenerateOptions, api: ApiModel): string {
  return path.resolve(options.out ?? path.join(REPO_ROOT, "generated", api.packageName.replace(/^@[^/]+\//, "")));
}

export async function generate(options: GenerateOptions): Promise<Generated & { outDir: string }> {
  const generated = await generateFiles(options);
  const outDir = outputFolder(options, generated.api);
  const started = performance.now();
  await writeOutput(outDir, generated.files);
  generated.timings.write = performance.now() - started;
  return { ...generated, outDir };
}

export async function check(options: GenerateOptions): Promise<CheckResult & { outDir: string; warnings: string[] }> {
  const generated = await generateFiles(options);
  const outDir = outputFolder(options, generated.api);
  return { ...(await checkOutput(outDir, generated.files)), outDir, warnings: generated.warnings };
}

/** `contract` goes to the schema emitters only; every other emitter reads `api`. */
async function emitAll(
  contract: LoadedContract,
  api: ApiModel,
  schemaTypes: (contract: Pick<LoadedContract, "document">) => Promise<string>,
  warnings: Warnings,
  unknownFormats: UnknownFormats | undefined,
): Promise<OutputFile[]> {
  const tsHeader = header({ contractHash: api.contractHash, generatorName: GENERATOR_NAME, commentStyle: "ts" });
  const mdHeader = header({ contractHash: api.contractHash, generatorName: GENERATOR_NAME, commentStyle: "markdown" });
  // Started first: with a worker it runs beside the ts-morph emitters below.
  const schemaSource = schemaTypes(contract);
  // Until it is awaited below, a failure must not count as unhandled.
  schemaSource.catch(() => undefined);
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true }, manipulationSettings: { indentationText: TWO_SPACES } });

  const className = clientClassName(api);
  const validators = emitOperationValidators(contract, api, className, warnings, unknownFormats);
  // The two files that grow with the contract are printed formatted (test/generator/formatted.test.ts
  // holds them to it): TypeScript's formatter would take as long as the rest of their emission.
  const client = emitClient(api, validators.names);
  const printed: SourceFile[] = [emitTypeAliases(project, api, "src/types.ts", className)];
  const sources: SourceFile[] = [];
  const models = emitModels(project, api, "src/models.ts", validators.names);
  if (models) sources.push(models);
  const jobs = emitJobs(project, api, "src/jobs.ts", className, true);
  if (jobs) sources.push(jobs, emitBin(project, api, "src/bin.ts", className, true));
  sources.push(emitIndex(project, api, className, Boolean(models)));
  for (const source of sources) source.formatText(FORMAT);

  const files: OutputFile[] = [
    { path: "src/schema.ts", contents: tsHeader + (await schemaSource) },
    { path: "src/validators.ts", contents: tsHeader + validators.source },
    ...(validators.responseSource === undefined ? [] : [{ path: "src/response-validators.ts", contents: tsHeader + validators.responseSource }]),
    { path: "src/client.ts", contents: tsHeader + client },
    { path: "src/operation-specs.ts", contents: tsHeader + emitOperationSpecs(api, validators.names) },
    { path: "src/operations.ts", contents: tsHeader + emitOperationFunctions(api, className) },
  ];
  for (const source of [...printed, ...sources]) {
    const path = source.getFilePath().replace(/^\//, "");
    // An executable's shebang must stay on the first line, before the header.
    const shebang = path === "src/bin.ts" ? "#!/usr/bin/env node\n" : "";
    files.push({ path, contents: shebang + tsHeader + source.getFullText() });
  }
  for (const file of runtimeFiles(jobs ? ["model-endpoints"] : [])) files.push({ path: file.path, contents: tsHeader + file.contents });
  const validatorStem = validators.names.schemas.values().next().value;
  for (const file of emitPackageFiles(api, className, packageDependencies(), { sourcePaths: files.map((f) => f.path), validatorStem, baseError: baseErrorName(api, className) })) {
    files.push({ path: file.path, contents: file.path.endsWith(".md") ? mdHeader + file.contents : file.contents });
  }
  return files.sort((a, b) => compareStrings(a.path, b.path));
}

function emitIndex(project: Project, api: ApiModel, className: string, hasModels: boolean): SourceFile {
  const file = project.createSourceFile("src/index.ts", "", { overwrite: true });
  const baseError = baseErrorName(api, className);
  file.addExportDeclarations([
    { moduleSpecifier: "./client.js" },
    { moduleSpecifier: "./types.js" },
    ...(hasModels ? [{ moduleSpecifier: "./models.js" }, { moduleSpecifier: "./jobs.js" }] : []),
    { moduleSpecifier: "./runtime/error-base.js", namedExports: [{ name: "SdkError", alias: baseError }] },
    { moduleSpecifier: "./runtime/error-base.js", isTypeOnly: true, namedExports: ["ApiErrorKind"] },
    { moduleSpecifier: "./runtime/errors.js" },
    { moduleSpecifier: "./runtime/error-response.js", namedExports: ["errorFromResponse", "readBodyText"] },
    { moduleSpecifier: "./runtime/error-response.js", isTypeOnly: true, namedExports: ["ErrorRequestInfo"] },
    { moduleSpecifier: "./runtime/redact.js", namedExports: ["redactSecrets"] },
    { moduleSpecifier: "./runtime/urls.js", namedExports: ["sanitizeUrl"] },
    { moduleSpecifier: "./runtime/rate-limit.js", namedExports: ["parseRateLimit", "parseRetryAfter"] },
    { moduleSpecifier: "./runtime/rate-limit.js", isTypeOnly: true, namedExports: ["RateLimitState", "RateLimitWindow"] },
    { moduleSpecifier: "./runtime/client-core.js", isTypeOnly: true, namedExports: ["ApiResult", "RequestOptions", "ServerWaitOptions", "CoreOptions"] },
    { moduleSpecifier: "./runtime/transport.js", isTypeOnly: true, namedExports: ["Logger"] },
    { moduleSpecifier: "./runtime/hooks.js", isTypeOnly: true, namedExports: ["ClientHooks", "HookAttempt", "HookRequest", "HookResponse", "HookFailure"] },
    { moduleSpecifier: "./runtime/request-id.js", namedExports: ["requestIdOf"] },
    { moduleSpecifier: "./runtime/validation.js", namedExports: ["formatIssues"] },
    { moduleSpecifier: "./runtime/validation.js", isTypeOnly: true, namedExports: ["ValidationIssue"] },
    { moduleSpecifier: "./schema.js", isTypeOnly: true, namedExports: ["paths", "components", "operations"] },
  ]);
  file.insertStatements(0, `/** ${className}: the typed client of ${api.packageName.replace(/\*\//g, "")}. */`);
  return file;
}

/** The generated package depends on the versions this workspace builds and tests it with. */
function packageDependencies(): PackageDependencies {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const all = { ...manifest.devDependencies, ...manifest.dependencies };
  return { openapiFetch: all["openapi-fetch"], structuredHeaders: all["structured-headers"], typescript: all.typescript, typesNode: all["@types/node"] };
}
