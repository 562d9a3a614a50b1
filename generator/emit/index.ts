/**
 * Stage 3, emit: the model (and, for the schema emitters alone, the contract's schemas) turned into
 * the package's files: one emitter per file, then what each extension the contract uses adds.
 */
import { discriminatedExample } from "./discriminated-example.ts";
import { compareStrings } from "../common/compare.ts";
import type { Warnings } from "../common/warnings.ts";
import { emitExtensions, standaloneValidators, validatedSchemas } from "../extensions/emitters.ts";
import { CLI_RUNTIME_FOLDER, emitBinModule } from "./bin.ts";
import type { LoadedContract } from "../load/index.ts";
import type { ApiModel } from "../model/index.ts";
import { emitClient } from "./client.ts";
import { DATES_RUNTIME_FOLDER, DatesModule } from "./dates/index.ts";
import { emitIndex } from "./index-module.ts";
import { emitOperationFunctions } from "./operations.ts";
import { emitOperationSpecs } from "./operation-specs.ts";
import { moduleFiles, type OutputFile } from "./output-file.ts";
import { emitPackageFiles, type PackageDependencies } from "./package.ts";
import { runtimeFiles } from "./runtime.ts";
import { emitSchemaTypes, type SchemaTypesEmitter } from "./schema-types/index.ts";
import { emitTesting } from "./testing.ts";
import { emitTypeAliases } from "./type-aliases.ts";
import { emitOperationValidators, type UnknownFormats } from "./validators/index.ts";

export type { OutputFile } from "./output-file.ts";
export { schemaTypesThread } from "./schema-types/thread.ts";
export type { SchemaTypesThread } from "./schema-types/thread.ts";
export type { SchemaTypesEmitter } from "./schema-types/index.ts";
export type { PackageDependencies } from "./package.ts";
export type { UnknownFormats } from "./validators/index.ts";

export interface EmitOptions {
  /** How `src/schema.ts` is emitted; by default `emitSchemaTypes` in this thread (the CLI may use a worker). */
  emitSchemaTypes?: SchemaTypesEmitter | undefined;
  warnings: Warnings;
  /** A `format` the validators do not check: an annotation with a warning (default), or an error. */
  unknownFormats?: UnknownFormats | undefined;
  /** The versions the package's manifest names. */
  dependencies: PackageDependencies;
  /** The package's folder as its README names it (`--out`); `generated/<name>` when not given. */
  packageFolder?: string | undefined;
}

/** Every file of the package, sorted by path, without headers. */
export async function emit(contract: LoadedContract, api: ApiModel, options: EmitOptions): Promise<OutputFile[]> {
  // Started first: with a worker it runs beside the emitters below.
  const schemaSource = (options.emitSchemaTypes ?? emitSchemaTypes)(
    contract,
    api.operations.map(({ pointer, operationId }) => ({ pointer, operationId })),
    { dates: api.dates === "date" },
  );
  // Until it is awaited below, a failure must not count as unhandled.
  schemaSource.catch(() => undefined);

  const validators = emitOperationValidators(contract, api, options.warnings, options.unknownFormats, standaloneValidators(api), validatedSchemas(api));
  const dates = api.dates === "date" ? new DatesModule(contract, api, options.warnings) : undefined;
  const extensions = emitExtensions(api, { validators: validators.names, standaloneValidators: validators.standaloneSources, dates });
  const bins = extensions.flatMap((extension) => (extension.bin === undefined ? [] : [extension.bin]));
  const files: OutputFile[] = [
    ...moduleFiles("src/validators", validators.source),
    ...(validators.responseSource === undefined ? [] : moduleFiles("src/response-validators", validators.responseSource)),
    { path: "src/client.ts", contents: emitClient(api, validators.names, extensions) },
    { path: "src/operation-specs.ts", contents: emitOperationSpecs(api, validators.names, extensions, dates?.operations) },
    ...(dates === undefined ? [] : [{ path: "src/dates.ts", contents: dates.source() }]),
    { path: "src/operations.ts", contents: emitOperationFunctions(api, extensions) },
    { path: "src/types.ts", contents: emitTypeAliases(api) },
    { path: "src/index.ts", contents: emitIndex(api, extensions) },
    // An extension's modules under src/testing/ are the testing entry's too.
    { path: "src/testing.ts", contents: emitTesting(api, extensions.flatMap((extension) => extension.files).flatMap((file) => (/^src\/testing\/[^/]+\.ts$/.test(file.path) ? [`./${file.path.slice(4, -3)}.js`] : []))) },
    ...extensions.flatMap((extension) => extension.files),
    ...runtimeFiles([
      ...extensions.flatMap((extension) => extension.runtimeFolders),
      ...(bins.length > 0 ? [CLI_RUNTIME_FOLDER] : []),
      ...(dates === undefined ? [] : [DATES_RUNTIME_FOLDER]),
    ]),
  ];
  // An executable's shebang stays on the first line; the write stage puts the header after it.
  if (bins.length > 0) files.push({ path: "src/bin.ts", contents: `#!/usr/bin/env node\n${emitBinModule(api, bins)}` });
  const validatorStem = validators.names.schemas.values().next().value;
  const discriminated = discriminatedExample(contract.document, validators.names, `${api.packageName}/validators`);
  files.push(...emitPackageFiles(api, options.dependencies, extensions, { validatorStem, discriminated, packageFolder: options.packageFolder }));
  files.push({ path: "src/schema.ts", contents: await schemaSource });
  return files.sort((a, b) => compareStrings(a.path, b.path));
}
