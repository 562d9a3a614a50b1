/**
 * What a generation changes in an existing package folder, decided before anything is touched:
 * the generator owns the files its manifest lists and no other. It rewrites those whose text
 * changes, removes those it no longer writes, merges package.json, and refuses to replace a file
 * it does not own (unless that file already holds exactly the generated text).
 */
import { lstat, readFile } from "node:fs/promises";
import * as path from "node:path";
import { compareStrings } from "../common/compare.ts";
import type { OutputFile } from "../emit/output-file.ts";
import { listFiles, pathProblem, startsWithHeader } from "./files.ts";
import { carriesHeader } from "./header.ts";
import { MANIFEST_PATH, manifestText, readManifest, type Manifest } from "./manifest.ts";
import { mergePackageJson, packageJsonOwnership } from "./package-json.ts";

export interface PlannedWrite {
  path: string;
  contents: string;
  /** A file stands at the path now (it is set aside during the swap, and put back on failure). */
  replaces: boolean;
}

export interface Plan {
  /** New files and files whose text changes, the manifest among them when it changes; sorted. */
  write: PlannedWrite[];
  /** Files the generator wrote before and no longer writes; sorted. */
  remove: string[];
  /** The team's files (or folders) standing where the generator would write; a write refuses them. */
  conflicts: string[];
}

/** `files` must come from `validate` (sorted, normalised). */
export async function planOutput(target: string, files: readonly OutputFile[]): Promise<Plan> {
  const folderExists = (await lstat(target).catch(() => undefined)) !== undefined;
  const manifest = folderExists ? await readManifest(target, pathProblem) : undefined;
  const owned = manifest ? new Set(manifest.files) : folderExists ? await ownedBeforeTheManifest(target, files) : new Set<string>();
  const wanted = new Set(files.map((file) => file.path));
  const plan: Plan = { write: [], remove: [], conflicts: [] };
  const folders: OutputFile[] = [];

  for (const file of files) {
    const current = await onDisk(path.join(target, ...file.path.split("/")));
    let contents = file.contents;
    if (file.path === "package.json" && owned.has(file.path) && typeof current === "string") {
      contents = mergePackageJson(contents, current, manifest?.packageJson, path.join(target, "package.json"));
    }
    if (current === undefined) plan.write.push({ path: file.path, contents, replaces: false });
    else if (current === FOLDER) folders.push({ path: file.path, contents });
    else if (current === contents) continue;
    else if (owned.has(file.path)) plan.write.push({ path: file.path, contents, replaces: true });
    else plan.conflicts.push(file.path);
  }

  for (const filePath of [...owned].sort(compareStrings)) {
    if (wanted.has(filePath)) continue;
    // Never a folder: the manifest lists files, so a folder there now is not the generator's.
    const info = await lstat(path.join(target, ...filePath.split("/"))).catch(() => undefined);
    if (info !== undefined && !info.isDirectory()) plan.remove.push(filePath);
  }
  const removed = new Set(plan.remove);

  // A folder may give way to a file only when the generator removes every file in it.
  for (const folder of folders) {
    const inside = await listFiles(target, folder.path);
    // An empty folder is the team's: none of the generator's files were in it.
    if (inside.length > 0 && inside.every((filePath) => removed.has(filePath))) plan.write.push({ ...folder, replaces: false });
    else plan.conflicts.push(folder.path);
  }
  // And a file may give way to a folder only when the generator removes it.
  for (const { path: filePath } of plan.write) {
    const segments = filePath.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const ancestor = segments.slice(0, depth).join("/");
      const info = await lstat(path.join(target, ...segments.slice(0, depth))).catch(() => undefined);
      if (info === undefined) break;
      if (!info.isDirectory() && !removed.has(ancestor) && !plan.conflicts.includes(ancestor)) plan.conflicts.push(ancestor);
    }
  }

  const manifestNow = manifestText(newManifest(files));
  const manifestOnDisk = folderExists ? await onDisk(path.join(target, MANIFEST_PATH)) : undefined;
  if (manifestOnDisk !== manifestNow) plan.write.push({ path: MANIFEST_PATH, contents: manifestNow, replaces: manifestOnDisk !== undefined });

  plan.write.sort((a, b) => compareStrings(a.path, b.path));
  plan.conflicts.sort(compareStrings);
  return plan;
}

function newManifest(files: readonly OutputFile[]): Manifest {
  const packageJson = files.find((file) => file.path === "package.json");
  return { files: files.map((file) => file.path), ...(packageJson && { packageJson: packageJsonOwnership(packageJson.contents) }) };
}

const FOLDER = Symbol("folder");
/** A link or another special file: never the generated text, and never followed. */
const NOT_A_FILE = Symbol("not a file");

/** The text at `file`, FOLDER, NOT_A_FILE, or undefined when nothing is there. */
async function onDisk(file: string): Promise<string | typeof FOLDER | typeof NOT_A_FILE | undefined> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isDirectory()) return FOLDER;
  if (!info.isFile()) return NOT_A_FILE;
  return readFile(file, "utf8");
}

/**
 * A folder generated before the manifest existed: the generator owned every file carrying its
 * header, and the files it writes that cannot carry one (package.json, tsconfig.json, LICENSE).
 * A folder with no header anywhere was not generated, so none of it is the generator's.
 */
async function ownedBeforeTheManifest(target: string, files: readonly OutputFile[]): Promise<Set<string>> {
  const owned = new Set<string>();
  for (const filePath of await listFiles(target)) {
    if (await startsWithHeader(path.join(target, ...filePath.split("/")))) owned.add(filePath);
  }
  if (owned.size === 0) return owned;
  for (const file of files) {
    if (!carriesHeader(file.path) && (await lstat(path.join(target, ...file.path.split("/"))).catch(() => undefined))?.isFile()) owned.add(file.path);
  }
  return owned;
}
