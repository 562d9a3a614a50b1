/**
 * Semver of the generated package: the three bumps, a change classified by one, the most severe of
 * a list, the next version after a bump, and the order of two versions.
 */
import { SEMVER } from "./contract.ts";

export type Bump = "major" | "minor" | "patch";
export type Classification = Bump | "none";

export interface ContractChange {
  bump: Bump;
  /** JSON pointer (`#/paths/~1v2~1pods/get`) in the current contract, or in the previous one for what was removed. */
  pointer: string;
  message: string;
}

/** Severity, for the classification and the order changes are listed in. */
export const RANK: Record<Classification, number> = { none: 0, patch: 1, minor: 2, major: 3 };

export function classify(changes: readonly ContractChange[]): Classification {
  let result: Classification = "none";
  for (const change of changes) if (RANK[change.bump] > RANK[result]) result = change.bump;
  return result;
}

/** The next semver: major resets minor and patch, minor resets patch; a pre-release is dropped. */
export function bumpVersion(version: string, classification: Classification): string {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`"${version}" is not a semver version`);
  let [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const prerelease = match[4] !== undefined;
  if (classification === "none") return version;
  if (prerelease) return `${major}.${minor}.${patch}`;
  if (classification === "major") [major, minor, patch] = [major + 1, 0, 0];
  else if (classification === "minor") [minor, patch] = [minor + 1, 0];
  else patch += 1;
  return `${major}.${minor}.${patch}`;
}

/** Semver order of MAJOR.MINOR.PATCH (pre-releases sort before their release). */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) throw new Error(`cannot compare "${a}" and "${b}"`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return Math.sign(d);
  }
  if (pa[4] === pb[4]) return 0;
  if (pa[4] === undefined) return 1;
  if (pb[4] === undefined) return -1;
  return pa[4] < pb[4] ? -1 : 1;
}
