/**
 * The runtime pieces (`templates/runtime/`): ordinary, type-checked, unit-tested TypeScript,
 * copied verbatim into `src/runtime/` behind the generated-file header. The files at the folder's
 * top are the core every package gets, and `testing/` the test kit every package gets too (its
 * `testing` entry, which the main entry never imports); any other subfolder is an extension's
 * runtime, copied only into a package whose contract uses that extension.
 */
import fs from "node:fs";
import path from "node:path";
import { TEMPLATES_DIR } from "../common/paths.ts";

const RUNTIME_DIR = path.join(TEMPLATES_DIR, "runtime");

/** The folder of the test kit's runtime, in every package. */
export const TESTING_RUNTIME_FOLDER = "testing";

/** The core runtime and the test kit's, then each named extension folder's, in path order. */
export function runtimeFiles(extensionFolders: readonly string[] = []): Array<{ path: string; contents: string }> {
  const folders = ["", ...[TESTING_RUNTIME_FOLDER, ...extensionFolders].sort()];
  return folders.flatMap((folder) =>
    fs
      .readdirSync(path.join(RUNTIME_DIR, folder), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      .map((entry) => path.posix.join(folder, entry.name))
      .sort()
      .map((file) => ({ path: `src/runtime/${file}`, contents: fs.readFileSync(path.join(RUNTIME_DIR, file), "utf8") })),
  );
}
