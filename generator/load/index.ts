/**
 * Stage 1, load: the contract file (and the files it references, and the CHANGELOG.md beside it)
 * read, checked, bundled and upgraded to OpenAPI 3.1, older JSON Schema dialects read as 2020-12.
 * The stages after it read only what `load` returns.
 */
import { ContractError } from "../common/errors.ts";
import type { Warnings } from "../common/warnings.ts";
import { loadContract, type LoadedContract } from "./contract.ts";
import { readOlderDialects } from "./older-dialects/index.ts";

export { followRefs, loadContract } from "./contract.ts";
export type { LoadedContract, OpenApiDocument, OperationObject, PathItemObject, ReferenceObject, SchemaObject, ServerObject } from "./contract.ts";
export { readOlderDialects } from "./older-dialects/index.ts";

/** The loaded contract, older dialects' keywords read once, for the types and the validators alike. */
export async function load(specPath: string, warnings: Warnings): Promise<LoadedContract> {
  const contract = await loadContract(specPath, warnings);
  try {
    return readOlderDialects(contract, warnings);
  } catch (error) {
    throw locatedInFile(contract, error);
  }
}

/**
 * An error of a stage after the file was read, located in it as load errors are: a split contract's
 * pointers are into the bundle, and an upgraded 3.0 document's into what the user wrote.
 */
export function locatedInFile(contract: LoadedContract, error: unknown): unknown {
  if (!(error instanceof ContractError) || error.file !== undefined) return error;
  return new ContractError(contract.sourcePointer(error.pointer), error.reason, contract.split ? `${contract.sourcePath} (bundled)` : contract.sourcePath);
}
