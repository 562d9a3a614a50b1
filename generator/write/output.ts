/**
 * The emitted files on disk all at once, or compared with what is there (`--check`). A failed
 * run never leaves a half-written package behind.
 */
import { randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { UsageError } from "../common/errors.ts";
import { compareStrings } from "../common/compare.ts";
import type { OutputFile } from "../emit/output-file.ts";
import { GENERATED_MARK } from "./header.ts";

export interface CheckResult {
  changed: string[];
  added: string[];
  removed: string[];
}

/**
 * Folders inside the output that are not generated: dependencies installed in
 * the package and its build output. Generated paths may not start with them,
 * `checkOutput` ignores them, and `writeOutput` keeps `node_modules`.
 */
const UNMANAGED_FOLDERS = new Set(["node_modules", "dist"]);

/** LF line endings and exactly one final newline (none for empty text), whatever the emitter produced. */
export function normaliseText(s: string): string {
  const text = s.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
  return text === "" ? "" : `${text}\n`;
}

/**
 * Replaces `outDir` with exactly `files`. Everything is written to a sibling
 * temporary folder first and swapped in by two renames, so on any failure
 * before the swap `outDir` is untouched and the temporary folder is removed.
 * The previous `node_modules/` is moved into the new folder. A folder holding
 * anything the generator did not write is refused, not replaced.
 */
export async function writeOutput(outDir: string, files: OutputFile[]): Promise<void> {
  const target = ownFolder(outDir);
  const sorted = validate(files);
  await mkdir(path.dirname(target), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    // A file where a parent folder should be: the user's --out, not a bug.
    if (error.code === "EEXIST" || error.code === "ENOTDIR") throw new UsageError(`cannot make ${path.dirname(target)}: a file stands in its path`);
    throw error;
  });
  const existing = await lstat(target).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new UsageError(`${target} exists and is not a folder`);
  if (existing) await assertOnlyGenerated(target, sorted);

  // A sibling, so the final rename stays on one file system and is atomic.
  const staging = `${target}.tmp-${randomBytes(6).toString("hex")}`;
  await mkdir(staging);
  try {
    for (const file of sorted) {
      const destination = path.join(staging, ...file.path.split("/"));
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, normaliseText(file.contents));
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }

  if (!existing) {
    await rename(staging, target);
    return;
  }
  const previous = `${target}.old-${randomBytes(6).toString("hex")}`;
  await rename(target, previous);
  try {
    await rename(staging, target);
  } catch (error) {
    await rename(previous, target);
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // Reinstalling dependencies after every generation would be slow; they do not depend on the sources.
  const dependencies = path.join(previous, "node_modules");
  if (await lstat(dependencies).catch(() => undefined)) {
    await rename(dependencies, path.join(target, "node_modules"));
  }
  await rm(previous, { recursive: true, force: true });
}

/**
 * What `writeOutput(outDir, files)` would change, writing nothing: files whose
 * bytes differ, files it would add, and files it would remove (outside
 * `node_modules/` and `dist/`). Each list is sorted.
 */
export async function checkOutput(outDir: string, files: OutputFile[]): Promise<CheckResult> {
  const target = ownFolder(outDir);
  const wanted = validate(files);
  const onDisk = new Set(await listFiles(target));
  const result: CheckResult = { changed: [], added: [], removed: [] };
  for (const file of wanted) {
    if (!onDisk.has(file.path)) {
      result.added.push(file.path);
      continue;
    }
    onDisk.delete(file.path);
    const current = await readFile(path.join(target, ...file.path.split("/")));
    if (!current.equals(Buffer.from(normaliseText(file.contents), "utf8"))) result.changed.push(file.path);
  }
  result.removed = [...onDisk].sort(compareStrings);
  return result;
}

/** Kernel and device trees: nothing under them is a package's, and walking them never ends. */
const SYSTEM_TREES = ["/proc", "/sys", "/dev"];
/** Folders of the system itself (their subfolders, like /usr/src/app, may be a project's). */
const SYSTEM_FOLDERS = new Set([
  ...["/boot", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr", "/usr/local", "/var", "/opt", "/tmp", "/private"],
  // Whose subfolders are people's homes and disks.
  ...["/home", "/root", "/mnt", "/media", "/srv", "/Users", "/Volumes"],
]);

/**
 * `outDir` resolved, refused at once when it is a folder the package cannot own: the root, a
 * system folder, the home folder (replacing them would first mean walking them whole). Symbolic
 * links are followed, so a link to one is refused too.
 */
function ownFolder(outDir: string): string {
  const target = path.resolve(outDir);
  const refuse = (what: string): never => {
    throw new UsageError(`--out ${target} is ${what}; give --out a folder of its own`);
  };
  // Windows and macOS compare names without case.
  const same = (a: string, b: string): boolean => (process.platform === "linux" ? a === b : a.toLowerCase() === b.toLowerCase());
  const home = path.resolve(os.homedir());
  const homes = new Set([home, realPath(home)]);
  for (const candidate of new Set([target, realPath(target)])) {
    if (path.parse(candidate).root === candidate) refuse("the file system's root");
    const tree = SYSTEM_TREES.find((folder) => same(candidate, folder) || candidate.startsWith(`${folder}/`));
    if (tree !== undefined) refuse(`a system folder (${tree})`);
    if ([...SYSTEM_FOLDERS].some((folder) => same(candidate, folder))) refuse("a system folder");
    if ([...homes].some((folder) => same(candidate, folder))) refuse("your home folder");
  }
  return target;
}

/** `target` with links resolved: of its nearest existing folder when it is not there yet. */
function realPath(target: string): string {
  const rest: string[] = [];
  for (let at = target; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return target;
      rest.push(path.basename(at));
    }
  }
}

/** Refuses paths that could land outside the output folder or clash, and returns the files sorted by path. */
function validate(files: OutputFile[]): OutputFile[] {
  const seen = new Set<string>();
  for (const { path: filePath } of files) {
    const problem = pathProblem(filePath);
    if (problem) throw new Error(`output path ${JSON.stringify(filePath)} ${problem}`);
    if (seen.has(filePath)) throw new Error(`output path ${JSON.stringify(filePath)} is given twice`);
    seen.add(filePath);
  }
  for (const filePath of seen) {
    const segments = filePath.split("/");
    for (let depth = 1; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join("/");
      if (seen.has(folder)) throw new Error(`output path ${JSON.stringify(folder)} is both a file and the folder of ${JSON.stringify(filePath)}`);
    }
  }
  return [...files].sort((a, b) => compareStrings(a.path, b.path));
}

function pathProblem(filePath: string): string | undefined {
  if (filePath === "") return "is empty";
  if (filePath.includes("\\")) return 'must use "/" separators';
  if (filePath.includes("\0")) return "contains a NUL character";
  if (filePath.startsWith("/") || /^[A-Za-z]:/.test(filePath)) return "must be relative";
  const segments = filePath.split("/");
  if (segments.includes("..")) return 'must not contain ".."';
  if (segments.some((segment) => segment === "" || segment === ".")) return "must be normalised (no empty or \".\" segments)";
  if (UNMANAGED_FOLDERS.has(segments[0] ?? "")) return `must not be inside ${segments[0]}/, which the generator does not manage`;
  return undefined;
}

/** Relative "/"-separated paths of the files under `root`, skipping the unmanaged top-level folders. */
async function listFiles(root: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" && prefix === "") return [];
    // A folder the generator may not read is the user's to sort out, not a bug.
    if (error.code === "EACCES" || error.code === "EPERM") throw new UsageError(`cannot read ${path.join(root, prefix)} (${error.code}), so cannot tell what --out holds`);
    throw error;
  });
  const files: string[] = [];
  for (const entry of entries) {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    // A link is listed as itself, never followed (`node_modules` linked from elsewhere is common).
    const linkedFolder = entry.isSymbolicLink() && (await stat(path.join(root, relative)).catch(() => undefined))?.isDirectory() === true;
    if (entry.isDirectory() || linkedFolder) {
      if (prefix === "" && UNMANAGED_FOLDERS.has(entry.name)) continue;
      if (linkedFolder) files.push(relative);
      else for (const file of await listFiles(root, relative)) files.push(file);
    } else {
      files.push(relative);
    }
  }
  return files;
}

/**
 * Replacing the folder deletes what is in it: refuse when it holds a file that is neither one of
 * `files` nor marked as generated (a contract, notes, a project's sources, `.git`), naming them.
 */
async function assertOnlyGenerated(target: string, files: readonly OutputFile[]): Promise<void> {
  const wanted = new Set(files.map((file) => file.path));
  const foreign: string[] = [];
  for (const file of await listFiles(target)) {
    if (!wanted.has(file) && !(await startsWithMark(path.join(target, ...file.split("/"))))) foreign.push(file);
  }
  if (foreign.length === 0) return;
  const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? `, and ${foreign.length - 5} more` : "");
  throw new UsageError(
    `refusing to replace ${target}: it holds ${foreign.length === 1 ? "a file" : `${foreign.length} files`} the generator did not write (${shown}). ` +
      "Move them, or give --out a folder of its own.",
  );
}

/** Whether the file's first bytes hold the generated header (a linked folder holds none). */
async function startsWithMark(file: string): Promise<boolean> {
  if ((await stat(file).catch(() => undefined))?.isFile() !== true) return false;
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").includes(GENERATED_MARK);
  } finally {
    await handle.close();
  }
}
