/**
 * The version report: what changed from the previous contract to the current one, the
 * classification, and the package version it leads to from the previous contract's.
 */
import type { LoadedContract } from "../../generator/load/contract.ts";
import { packageVersion } from "./contract.ts";
import { diffContracts } from "./diff/contract-diff.ts";
import { bumpVersion, classify, type Classification, type ContractChange } from "./semver.ts";

export interface VersionReport {
  classification: Classification;
  changes: ContractChange[];
  previousVersion: string;
  nextVersion: string;
}

export function compareContracts(base: LoadedContract, head: LoadedContract): VersionReport {
  const changes = diffContracts(base, head);
  const classification = classify(changes);
  const previousVersion = packageVersion(base.document as any);
  return { classification, changes, previousVersion, nextVersion: bumpVersion(previousVersion, classification) };
}
