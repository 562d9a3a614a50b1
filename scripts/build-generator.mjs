#!/usr/bin/env node
/**
 * `npm run build:generator [-- --out DIR] [--pack DIR]`: the generator as its own npm package,
 * `@gpu-cloud/generator` with the `gpu-cloud-generator` command, written to `dist/generator/`.
 *
 *   bin/gpu-cloud-generator.mjs   generator/package/bin.mjs: generates, or runs `version-contract`
 *   dist/*.mjs                    the generator and the contract-version tool bundled by esbuild as
 *                                 `npm run generate` bundles them (generator/bundle-options.mjs),
 *                                 with shared chunks
 *   templates/                    the runtime and package templates the emitters read
 *   package.json                  `dependencies`: exactly the packages the bundles import, at the
 *                                 workspace's versions; `generatedPackageDependencies`: the
 *                                 workspace's versions of every package, from which the emitters
 *                                 take those a generated package depends on (generator/generate.ts)
 *
 * With `--pack DIR` it then runs `npm pack` into DIR and prints the tarball's path.
 */
import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as esbuild from "esbuild";
import { bundleOptions, REQUIRE_BANNER } from "../generator/bundle-options.mjs";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
export const PACKAGE_NAME = "@gpu-cloud/generator";
export const BIN_NAME = "gpu-cloud-generator";
/** The package's own version: raise it when the generator's output or options change. */
const PACKAGE_VERSION = "0.1.0";
const ENTRY_POINTS = {
  cli: "generator/cli/index.ts",
  "schema-types-worker": "generator/emit/schema-types/worker.ts",
  "version-contract": "tools/contract-version/command.ts",
};
/** Loaded with createRequire (generator/emit/schema-types/index.ts), which esbuild does not see as imports. */
const REQUIRED_AT_RUN_TIME = ["openapi-typescript", "typescript"];

/**
 * generator/common/paths.ts reads `import.meta.dirname` to find the package root (two folders up)
 * and its templates/: in the package that is `<package>/generator/common`, wherever it is installed.
 */
const PATHS_BANNER = `${REQUIRE_BANNER} import { fileURLToPath as __bundleFileURLToPath } from "node:url"; const __generatorCommonDir = __bundleFileURLToPath(new URL("../generator/common", import.meta.url));`;

export async function buildGeneratorPackage(out = path.join(REPO_ROOT, "dist", "generator")) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const result = await esbuild.build(
    bundleOptions({
      entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(REPO_ROOT, file)])),
      outdir: path.join(out, "dist"),
      define: { "import.meta.dirname": "__generatorCommonDir" },
      banner: PATHS_BANNER,
      splitting: true,
      // Beside the entry points: the banner finds the package root from each file's own folder.
      chunkNames: "chunk-[hash]",
      metafile: true,
    }),
  );

  const workspace = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  const versions = { ...workspace.devDependencies, ...workspace.dependencies };
  const imported = new Set(REQUIRED_AT_RUN_TIME);
  for (const output of Object.values(result.metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      imported.add(packageOf(specifier));
    }
  }
  const dependencies = {};
  for (const name of [...imported].sort()) {
    if (versions[name] === undefined) throw new Error(`the generator imports ${name}, which the workspace's package.json does not name`);
    dependencies[name] = versions[name];
  }

  fs.cpSync(path.join(REPO_ROOT, "templates"), path.join(out, "templates"), { recursive: true });
  fs.mkdirSync(path.join(out, "bin"));
  fs.copyFileSync(path.join(REPO_ROOT, "generator", "package", "bin.mjs"), path.join(out, "bin", `${BIN_NAME}.mjs`));
  fs.chmodSync(path.join(out, "bin", `${BIN_NAME}.mjs`), 0o755);
  fs.copyFileSync(path.join(REPO_ROOT, "generator", "package", "README.md"), path.join(out, "README.md"));
  const manifest = {
    name: PACKAGE_NAME,
    version: PACKAGE_VERSION,
    description: "Generates a typed TypeScript client package from an OpenAPI 3.0 or 3.1 document.",
    type: "module",
    bin: { [BIN_NAME]: `bin/${BIN_NAME}.mjs` },
    files: ["bin", "dist", "templates", "README.md"],
    engines: workspace.engines,
    dependencies,
    generatedPackageDependencies: versions,
  };
  fs.writeFileSync(path.join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return out;
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** `npm pack` of the built folder into `destination`; resolves with the tarball's path. */
export function packGeneratorPackage(dir, destination) {
  fs.mkdirSync(destination, { recursive: true });
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [info] = JSON.parse(output.slice(output.indexOf("[")));
  return path.join(path.resolve(destination), info.filename);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({ options: { out: { type: "string" }, pack: { type: "string" } }, strict: true });
  const dir = await buildGeneratorPackage(values.out === undefined ? undefined : path.resolve(values.out));
  process.stdout.write(`built ${PACKAGE_NAME} in ${path.relative(process.cwd(), dir) || "."}\n`);
  if (values.pack !== undefined) process.stdout.write(`${packGeneratorPackage(dir, values.pack)}\n`);
}
