/**
 * The output's files as the write stage sees them: their paths vetted, their text normalised, and
 * the files already in the folder listed.
 */
import { open, readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { compareStrings } from "../common/compare.ts";
import { UsageError } from "../common/errors.ts";
import type { OutputFile } from "../emit/output-file.ts";
import { HEADER_PATTERN } from "./header.ts";
import { MANIFEST_PATH } from "./manifest.ts";

/**
 * Folders inside the output the generator never writes into nor removes: the package's installed
 * dependencies, its build output, and version control.
 */
const UNMANAGED_FOLDERS = new Set(["node_modules", "dist", ".git"]);

/** LF line endings and exactly one final newline (none for empty text), whatever the emitter produced. */
export function normaliseText(s: string): string {
  const text = s.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
  return text === "" ? "" : `${text}\n`;
}

/** Refuses paths that could land outside the output folder or clash, and returns the files sorted by path, their text normalised. */
export function validate(files: readonly OutputFile[]): OutputFile[] {
  const seen = new Set<string>();
  for (const { path: filePath } of files) {
    const problem = pathProblem(filePath) ?? (filePath === MANIFEST_PATH ? "is where the generator keeps its list of files" : undefined);
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
  return files.map((file) => ({ path: file.path, contents: normaliseText(file.contents) })).sort((a, b) => compareStrings(a.path, b.path));
}

/** Why a path may not be written or removed by the generator, or undefined when it may. */
export function pathProblem(filePath: string): string | undefined {
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

/** Relative "/"-separated paths of the files under `root` (a folder inside the output, or the output itself), skipping the unmanaged top-level folders. */
export async function listFiles(root: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" && prefix === "") return [];
    // A folder the generator may not read is the user's to sort out, not a bug.
    if (error.code === "EACCES" || error.code === "EPERM") throw new UsageError(`cannot read ${path.join(root, prefix)} (${error.code}), so cannot tell what --out holds`);
    throw error;
  });
  const files: string[] = [];
  for (const entry of entries) {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (prefix === "" && UNMANAGED_FOLDERS.has(entry.name)) continue;
    // A link is listed as itself, never followed (a folder linked from elsewhere is common).
    if (entry.isDirectory()) files.push(...(await listFiles(root, relative)));
    else files.push(relative);
  }
  return files;
}

/** Whether the file's first bytes hold the generated header (a link to a folder holds none). */
export async function startsWithHeader(file: string): Promise<boolean> {
  if ((await stat(file).catch(() => undefined))?.isFile() !== true) return false;
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return HEADER_PATTERN.test(buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
}
