/**
 * The emitted files on disk, or compared with what is there (`--check`). The generator owns the
 * files its manifest lists (plan.ts) and leaves the rest of the folder alone; a failed run leaves
 * the folder as it was (swap.ts).
 */
import { realpathSync } from "node:fs";
import { lstat, mkdir } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { UsageError } from "../common/errors.ts";
import type { OutputFile } from "../emit/output-file.ts";
import { validate } from "./files.ts";
import { planOutput } from "./plan.ts";
import { applyPlan, type SwapOptions } from "./swap.ts";

export { normaliseText } from "./files.ts";

export interface CheckResult {
  /** Files the generator owns whose text differs, and the team's files standing where it writes. */
  changed: string[];
  added: string[];
  /** Files the generator wrote before and no longer writes. */
  removed: string[];
}

export interface WriteResult {
  written: string[];
  removed: string[];
}

/**
 * Puts `files` into `outDir`, recording them in its manifest: writes those that are new or
 * changed, removes those it wrote before and no longer writes, merges package.json, and leaves
 * every other file alone. Refuses, changing nothing, when a file it did not write stands where it
 * would write one.
 */
export async function writeOutput(outDir: string, files: OutputFile[], options: SwapOptions = {}): Promise<WriteResult> {
  const target = ownFolder(outDir);
  const wanted = validate(files);
  await mkdir(path.dirname(target), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    // A file where a parent folder should be: the user's --out, not a bug.
    if (error.code === "EEXIST" || error.code === "ENOTDIR") throw new UsageError(`cannot make ${path.dirname(target)}: a file stands in its path`);
    throw error;
  });
  const existing = await lstat(target).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new UsageError(`${target} exists and is not a folder`);
  const plan = await planOutput(target, wanted);
  if (plan.conflicts.length > 0) {
    const shown = plan.conflicts.slice(0, 5).join(", ") + (plan.conflicts.length > 5 ? `, and ${plan.conflicts.length - 5} more` : "");
    throw new UsageError(
      `refusing to write ${target}: the generator would replace ${plan.conflicts.length === 1 ? "a file" : `${plan.conflicts.length} files`} it did not write (${shown}). ` +
        `Move ${plan.conflicts.length === 1 ? "it" : "them"} away, or give --out a folder of its own.`,
    );
  }
  await applyPlan(target, plan, existing !== undefined, options);
  return { written: plan.write.map((file) => file.path), removed: plan.remove };
}

/**
 * What `writeOutput(outDir, files)` would change, writing nothing: the generator's files whose
 * text differs (package.json as merged), those it would add, and those it would remove. The
 * team's files, `node_modules`, lock files and `dist` are not compared. Each list is sorted.
 */
export async function checkOutput(outDir: string, files: OutputFile[]): Promise<CheckResult> {
  const target = ownFolder(outDir);
  const plan = await planOutput(target, validate(files));
  return {
    changed: [...plan.write.filter((file) => file.replaces).map((file) => file.path), ...plan.conflicts].sort(),
    added: plan.write.filter((file) => !file.replaces).map((file) => file.path),
    removed: plan.remove,
  };
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
 * system folder, the home folder (a package written there would mix with everything else in it). Symbolic
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

