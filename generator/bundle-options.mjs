/**
 * How the generator's sources become JavaScript with esbuild: shared by `npm run generate`
 * (generator/run.mjs, a bundle cached in node_modules) and the generator's own npm package
 * (scripts/build-generator.mjs).
 */
import path from "node:path";

/**
 * Dependencies bundled with the generator's sources (the others stay imports): Redocly is hundreds
 * of small modules, which Node loads several times slower than one file of them.
 */
export const BUNDLED_PACKAGES = ["@redocly/openapi-core"];

/** Leaves every package import as it is, except BUNDLED_PACKAGES and what they import. */
export const externalExceptBundled = {
  name: "external-except-bundled",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      if (BUNDLED_PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`))) return undefined;
      return { external: true };
    });
  },
};

/** Bundled CommonJS dependencies call require(), which an ES module has only through this. */
export const REQUIRE_BANNER = 'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);';

/**
 * esbuild's options for `entryPoints` into `outdir`; `define` pins `import.meta.dirname` (read by
 * generator/common/paths.ts only) since the bundle lives elsewhere than the sources.
 */
export function bundleOptions({ entryPoints, outdir, define, banner = REQUIRE_BANNER, ...rest }) {
  return {
    entryPoints,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    plugins: [externalExceptBundled],
    banner: { js: banner },
    define,
    logLevel: "silent",
    ...rest,
  };
}
