/**
 * The runtime pieces (`templates/runtime/*.ts`): ordinary, type-checked, unit-tested TypeScript,
 * copied verbatim into `src/runtime/` behind the generated-file header.
 */
import fs from "node:fs";
import path from "node:path";
import { TEMPLATES_DIR } from "../paths.ts";

export function runtimeFiles(): Array<{ path: string; contents: string }> {
  const dir = path.join(TEMPLATES_DIR, "runtime");
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort()
    .map((name) => ({ path: `src/runtime/${name}`, contents: fs.readFileSync(path.join(dir, name), "utf8") }));
}
