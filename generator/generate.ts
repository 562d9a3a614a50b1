/**
 * The pipeline: load → model → emit → write, each stage timed so the benchmark can report them.
 * Each stage takes what the one before produced: the emitters get the model (`ApiModel`); only the
 * schema emitters (`src/schema.ts`, the validators) also get the contract, for its schemas.
 */
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./common/paths.ts";
import { Warnings } from "./common/warnings.ts";
import { extensionNotes } from "./extensions/readers.ts";
import { emit, type OutputFile, type PackageDependencies, type SchemaTypesEmitter, type UnknownFormats } from "./emit/index.ts";
import { load, locatedInFile, type LoadedContract } from "./load/index.ts";
import { buildModel, type ApiModel, type ApiModelOptions } from "./model/index.ts";

export type { DatesOption } from "./model/index.ts";
import { checkOutput, normaliseText, withHeaders, writeOutput, type CheckResult, type WriteResult } from "./write/index.ts";

export const GENERATOR_NAME = "gpu-cloud-sdk-generator";

export interface GenerateOptions extends ApiModelOptions {
  spec: string;
  /** The package folder to write, e.g. `generated/gpu-cloud-client`. */
  out?: string;
  /** How `src/schema.ts` is emitted; by default `emitSchemaTypes` in this thread (the CLI may use a worker). */
  emitSchemaTypes?: SchemaTypesEmitter;
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
  /** What the extensions found, said beside the files written (`pagination: 12 operations (cursor 8, link 4)`). */
  notes: string[];
}

/** Loads, models and emits: everything but the write. */
export async function generateFiles(options: GenerateOptions): Promise<Generated> {
  const timings: StageTimings = { load: 0, model: 0, emit: 0, write: 0 };
  const warnings = new Warnings();
  let started = performance.now();
  const contract = await load(options.spec, warnings);
  timings.load = performance.now() - started;

  try {
    started = performance.now();
    const api = buildModel(contract, { ...options, warnings });
    timings.model = performance.now() - started;

    started = performance.now();
    const emitted = await emit(contract, api, { emitSchemaTypes: options.emitSchemaTypes, warnings, unknownFormats: options.unknownFormats, dependencies: packageDependencies(), packageFolder: shownFolder(options, api) });
    // Exactly the text a write puts on disk, so what callers compare in memory is what lands.
    const files = withHeaders(emitted, api.contractHash, GENERATOR_NAME).map((file) => ({ path: file.path, contents: normaliseText(file.contents) }));
    timings.emit = performance.now() - started;
    const where = contract.split ? `${contract.sourcePath} (bundled)` : contract.sourcePath;
    if (options.strict && warnings.size > 0) throw warnings.toError(where, contract.sourcePointer);
    return { contract, api, files, timings, warnings: warnings.lines(where, contract.sourcePointer), notes: extensionNotes(api) };
  } catch (error) {
    throw locatedInFile(contract, error);
  }
}

/** The package folder a run writes: `--out`, or `generated/<package name>`. */
export function outputFolder(options: GenerateOptions, api: ApiModel): string {
  return path.resolve(options.out ?? path.join(REPO_ROOT, "generated", api.names.unscoped));
}

/**
 * The package folder as its README names it: `--out` as the user knows it (relative to where the
 * generator ran, when inside it), else the default folder, relative to the workspace.
 */
export function shownFolder(options: GenerateOptions, api: ApiModel): string {
  if (options.out === undefined) return `generated/${api.names.unscoped}`;
  const absolute = path.resolve(options.out);
  const relative = path.relative(process.cwd(), absolute);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  return (inside ? relative : absolute).split(path.sep).join("/");
}

/** Generates into the package folder: `written` and `removed` name the files that changed on disk (the others were already right). */
export async function generate(options: GenerateOptions): Promise<Generated & WriteResult & { outDir: string }> {
  const generated = await generateFiles(options);
  const outDir = outputFolder(options, generated.api);
  const started = performance.now();
  const changes = await writeOutput(outDir, generated.files);
  generated.timings.write = performance.now() - started;
  return { ...generated, ...changes, outDir };
}

export async function check(options: GenerateOptions): Promise<CheckResult & { outDir: string; warnings: string[] }> {
  const generated = await generateFiles(options);
  const outDir = outputFolder(options, generated.api);
  return { ...(await checkOutput(outDir, generated.files)), outDir, warnings: generated.warnings };
}

/**
 * The generated package depends on the versions this workspace builds and tests it with; the
 * generator's own package carries them as `generatedPackageDependencies` (scripts/build-generator.mjs).
 */
function packageDependencies(): PackageDependencies {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const all = manifest.generatedPackageDependencies ?? { ...manifest.devDependencies, ...manifest.dependencies };
  return { openapiFetch: all["openapi-fetch"], typescript: all.typescript, typesNode: all["@types/node"], workspace: all };
}
