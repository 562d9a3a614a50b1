#!/usr/bin/env node
/**
 * `npm run generate`: runs generator/cli/index.ts without a TypeScript loader in the way.
 *
 * The generator's sources are bundled once by esbuild (its dependencies left as imports, but
 * Redocly's, see BUNDLED_PACKAGES) into
 * `node_modules/.cache/gpu-cloud-sdk-generator/<hash of the sources>/`, and later runs import that
 * JavaScript directly: a cold run then spends its time generating, not transpiling or resolving
 * TypeScript. A changed source gives a new hash, so the bundle is never stale.
 *
 * Before the main module is imported, `src/schema.ts`'s emitter starts in a worker thread, so that
 * openapi-typescript (and the TypeScript compiler it loads) is imported on the second core while
 * this thread imports Redocly and runs the other emitters.
 *
 * Where the cache cannot be written, it runs the sources through tsx instead: slower, same output.
 *
 * Environment: GPU_CLOUD_GENERATOR_FROM_SOURCES=1 runs the sources through tsx (stack traces in
 * TypeScript, no bundle); GPU_CLOUD_GENERATOR_CACHE=DIR keeps the bundles in DIR (a folder inside
 * the workspace, so that the generator's dependencies resolve from it).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import { BUNDLED_PACKAGES, bundleOptions } from "./bundle-options.mjs";

// V8 lets a heap grow to about twice what it holds before collecting it. The generator allocates in
// bursts (the validators' source) while its worker holds a copy of the document, and the two heaps
// peak together: collecting sooner takes Microsoft Graph's 20 MB document from 2.2 to 1.4 GB of
// peak memory, at no measurable cost in time (bench/README.md).
v8.setFlagsFromString("--heap-growing-percent=30");

const GENERATOR_DIR = import.meta.dirname;
const REPO_ROOT = path.resolve(GENERATOR_DIR, "..");
const CACHE_ROOT = path.resolve(process.env.GPU_CLOUD_GENERATOR_CACHE || path.join(REPO_ROOT, "node_modules", ".cache", "gpu-cloud-sdk-generator"));
const ENTRY_POINTS = { cli: "cli/index.ts", "schema-types-worker": "emit/schema-types/worker.ts" };
/** Bundles kept besides the current one (each is a few MiB). */
const KEEP_OLD_BUNDLES = 3;

/** Every TypeScript file under generator/, sorted. */
function sources(dir = GENERATOR_DIR) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(full));
    else if (entry.name.endsWith(".ts")) found.push(full);
  }
  return found.sort();
}

/** The bundle's folder name: the sources, this file and esbuild's version. */
function bundleHash() {
  const hash = createHash("sha256");
  const esbuildManifest = path.join(REPO_ROOT, "node_modules", "esbuild", "package.json");
  hash.update(fs.readFileSync(esbuildManifest));
  // A bundled dependency's new version makes a new bundle; its own dependencies' are in the lock file.
  for (const name of BUNDLED_PACKAGES) hash.update(fs.readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json")));
  const lock = path.join(REPO_ROOT, "package-lock.json");
  if (fs.existsSync(lock)) hash.update(fs.readFileSync(lock));
  hash.update(fs.readFileSync(new URL(import.meta.url)));
  hash.update(fs.readFileSync(new URL("./bundle-options.mjs", import.meta.url)));
  // The bundle has this checkout's path built in: a cache copied with node_modules to another
  // checkout (a worktree) must not make that one generate from, and into, this one.
  hash.update(`${GENERATOR_DIR}\0`);
  for (const file of sources()) hash.update(`${path.relative(GENERATOR_DIR, file)}\0`).update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/** The folder holding cli.mjs and schema-types-worker.mjs, built now if it is not there yet. */
async function bundle() {
  const dir = path.join(CACHE_ROOT, bundleHash());
  if (fs.existsSync(path.join(dir, "cli.mjs"))) return dir;
  const esbuild = await import("esbuild");
  fs.mkdirSync(CACHE_ROOT, { recursive: true });
  // Built aside and renamed into place: a concurrent run never sees half a bundle.
  const building = fs.mkdtempSync(path.join(CACHE_ROOT, "building-"));
  try {
    await esbuild.build(
      bundleOptions({
        entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(GENERATOR_DIR, file)])),
        outdir: building,
        // The bundle lives elsewhere: generator/common/paths.ts still means its own folder.
        define: { "import.meta.dirname": JSON.stringify(path.join(GENERATOR_DIR, "common")) },
        // Beside the bundle, not inside it: Node reads it only with --enable-source-maps.
        sourcemap: "linked",
      }),
    );
    try {
      fs.renameSync(building, dir);
    } catch (error) {
      // Another run finished the same bundle first: use theirs.
      if (!fs.existsSync(path.join(dir, "cli.mjs"))) throw error;
      fs.rmSync(building, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true });
    throw error;
  }
  pruneOldBundles(dir);
  return dir;
}

function pruneOldBundles(current) {
  const others = fs
    .readdirSync(CACHE_ROOT)
    .map((name) => path.join(CACHE_ROOT, name))
    .filter((dir) => dir !== current && !path.basename(dir).startsWith("building-"))
    .map((dir) => ({ dir, mtime: fs.statSync(dir).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of others.slice(KEEP_OLD_BUNDLES)) fs.rmSync(dir, { recursive: true, force: true });
}

/** The generator's sources through tsx, in this thread. */
async function runFromSources(argv) {
  const { register } = await import("tsx/esm/api");
  register();
  const { runCli } = await import(pathToFileURL(path.join(GENERATOR_DIR, "cli", "index.ts")).href);
  return runCli(argv);
}

async function main() {
  const argv = process.argv.slice(2);
  if (process.env.GPU_CLOUD_GENERATOR_FROM_SOURCES === "1") return runFromSources(argv);
  let dir;
  try {
    dir = await bundle();
  } catch {
    // No cache (read-only node_modules, no esbuild): slower, same output.
    return runFromSources(argv);
  }
  const schemaTypesWorker = new Worker(new URL(pathToFileURL(path.join(dir, "schema-types-worker.mjs"))));
  // A worker that fails while the CLI is still being imported must not crash the process with a
  // stack trace: its error waits for the CLI, which reports it in one line.
  const schemaTypesWorkerErrors = [];
  schemaTypesWorker.on("error", (error) => schemaTypesWorkerErrors.push(error));
  const { runCli } = await import(pathToFileURL(path.join(dir, "cli.mjs")).href);
  return runCli(argv, { schemaTypesWorker, schemaTypesWorkerErrors });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
