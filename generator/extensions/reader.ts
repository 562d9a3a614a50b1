/**
 * What an extension is: a part of the generator a contract opts into with its own `x-` keys (the
 * job helpers of `x-model-endpoints`, say). It has a model-stage side that reads its keys into the
 * model (this file) and an emit-stage side that adds files, members and README sections to the
 * package (`output.ts`); a contract that does not use it gets nothing of it. The core names no
 * extension: it asks the registries (`readers.ts`, `emitters.ts`) and takes what each contributes.
 */
import type { Warnings } from "../common/warnings.ts";
import type { LoadedContract } from "../load/index.ts";
import type { ApiModel } from "../model/types.ts";

/** The model-stage side. */
export interface ExtensionReader {
  name: string;
  /** Whether the contract uses the extension: then its names below are the package's, and taken before the core names anything. */
  isUsedBy(document: LoadedContract["document"]): boolean;
  /** Members the extension adds to the client class. */
  methodNames: readonly string[];
  /** Names the extension adds to the package's exports. */
  exportNames(): readonly string[];
  /**
   * Reads and checks the extension's part of the contract, given the core model; undefined when
   * the contract does not use it. Its keys are checked even then: a stray one is refused, never ignored.
   */
  read(contract: LoadedContract, api: ApiModel, warnings: Warnings): unknown;
  /** Lines the generator prints about what the extension found (not warnings), given what `read` returned. */
  notes?(model: unknown): string[];
}
