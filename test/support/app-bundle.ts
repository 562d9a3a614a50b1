/** An app bundled as a browser app ships it, split into what loads at startup and what loads on demand. */
import path from "node:path";
import * as esbuild from "esbuild";
import { repoRoot } from "./prism.ts";

/**
 * The app bundled as a browser app ships it (code splitting on, as Vite and Rollup do): the code
 * loaded at startup (the entry and what it imports statically) and the code loaded on demand.
 */
export async function bundleApp(code: string): Promise<{ startup: string; onDemand: string }> {
  const result = await esbuild.build({
    stdin: { contents: code, resolveDir: repoRoot, loader: "ts", sourcefile: "app.ts" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    outdir: path.join(repoRoot, ".tmp", "app-bundle"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const text = new Map(result.outputFiles.map((file) => [path.relative(process.cwd(), file.path), file.text]));
  const startup = new Set<string>();
  // The app's own entry (esbuild names the stdin entry "stdin.js"; each dynamically imported chunk is an entry point too).
  const queue = Object.keys(outputs).filter((file) => path.basename(file) === "stdin.js");
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (startup.has(file)) continue;
    startup.add(file);
    for (const imported of outputs[file]?.imports ?? []) if (imported.kind === "import-statement") queue.push(imported.path);
  }
  const join = (files: string[]) => files.map((file) => text.get(file) ?? "").join("\n");
  const all = Object.keys(outputs).filter((file) => file.endsWith(".js"));
  return { startup: join(all.filter((file) => startup.has(file))), onDemand: join(all.filter((file) => !startup.has(file))) };
}
