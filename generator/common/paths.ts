/**
 * Where the workspace is. The only module that reads its own location: `generator/run.mjs` bundles
 * the generator elsewhere and pins `import.meta.dirname` to this module's folder.
 */
import path from "node:path";

export const GENERATOR_DIR = path.resolve(import.meta.dirname, "..");
export const REPO_ROOT = path.resolve(GENERATOR_DIR, "..");
export const TEMPLATES_DIR = path.join(REPO_ROOT, "templates");
