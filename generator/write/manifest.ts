/**
 * `.generated-files.json` in the package: the files the generator wrote there and what it set in
 * package.json. The next run rewrites those files, removes the ones it no longer writes, and
 * leaves every other file alone (`node_modules`, lock files, `dist`, the team's own files).
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { UsageError } from "../common/errors.ts";
import type { PackageJsonOwnership } from "./package-json.ts";

export const MANIFEST_PATH = ".generated-files.json";

export interface Manifest {
  /** Relative "/"-separated paths, sorted; the manifest itself is not one of them. */
  files: string[];
  /** Absent when the generator wrote no package.json. */
  packageJson?: PackageJsonOwnership;
}

const ABOUT =
  "The files the generator wrote here and what it set in package.json: the next generation rewrites or removes them and leaves every other file alone. Do not edit.";

export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify({ about: ABOUT, files: manifest.files, ...(manifest.packageJson && { packageJson: manifest.packageJson }) }, null, 2)}\n`;
}

/**
 * The manifest in `target`, or undefined when there is none. `pathProblem` vets each path, so an
 * edited manifest can never make the generator remove a file outside the package.
 */
export async function readManifest(target: string, pathProblem: (filePath: string) => string | undefined): Promise<Manifest | undefined> {
  const file = path.join(target, MANIFEST_PATH);
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    if (error.code === "EISDIR") throw new UsageError(`${file} is a folder; the generator keeps its list of files there, so move it away`);
    throw error;
  });
  if (text === undefined) return undefined;
  const refuse = (what: string): never => {
    throw new UsageError(`${file} ${what}; delete it to have the generator treat the folder as written before the manifest existed`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse("is not valid JSON");
  }
  const { files, packageJson } = (value ?? {}) as { files?: unknown; packageJson?: unknown };
  if (!Array.isArray(files) || !files.every((item) => typeof item === "string")) refuse('has no "files" list of paths');
  for (const filePath of files as string[]) {
    const problem = pathProblem(filePath);
    if (problem) refuse(`lists ${JSON.stringify(filePath)}, which ${problem}`);
  }
  if (packageJson !== undefined && !isOwnership(packageJson)) refuse('has a "packageJson" that is not { fields: [...], entries: {...} }');
  return { files: files as string[], ...(packageJson !== undefined && { packageJson: packageJson as PackageJsonOwnership }) };
}

function isOwnership(value: unknown): value is PackageJsonOwnership {
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === "string");
  if (typeof value !== "object" || value === null) return false;
  const { fields, entries } = value as { fields?: unknown; entries?: unknown };
  return strings(fields) && typeof entries === "object" && entries !== null && !Array.isArray(entries) && Object.values(entries).every(strings);
}
