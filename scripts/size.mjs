#!/usr/bin/env node
// `npm run size [-- --package generated/gpu-cloud-client] [--budget scripts/size-budget.json] [--json] [--update-budget]`
//
// Bundles the generated client the way a browser app would (esbuild, bundle + minify + tree
// shaking + code splitting, platform "browser", dependencies included) for three apps, prints the
// minified and gzipped size of what each loads at startup (code loaded on demand, such as the
// response validators, apart), and exits 1 when one is above its budget in scripts/size-budget.json:
//
//   models      only the per-model calls: `new Client().runModelSync(...)`, plus `runAndWait`
//               when the package has job helpers (src/jobs.ts exporting it)
//   everything  `import * as all from "<package>"; console.log(all)`: every export kept
//   operation   the first operation's standalone function (`<package>/operations`) on the client's core
//
// --update-budget rewrites the budgets to the measured sizes plus 15 %.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_BUDGET = path.join(root, "scripts", "size-budget.json");
export const DEFAULT_PACKAGE = path.join(root, "generated", "gpu-cloud-client");
const HEADROOM = 1.15;

/** The two apps, as source text importing the package by its name. */
export function entries(packageDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
  const name = manifest.name;
  const client = clientClassName(packageDir);
  const jobs = path.join(packageDir, "src", "jobs.ts");
  const hasRunAndWait = fs.existsSync(jobs) && /export (?:async )?function runAndWait\b/.test(fs.readFileSync(jobs, "utf8"));
  const models = hasRunAndWait
    ? `import { ${client}, runAndWait } from ${JSON.stringify(name)};
const client = new ${client}({ apiKey: "key" });
client.runModelSync("some-model", { prompt: "a lighthouse" }).then((r) => console.log(r.data));
runAndWait(client, "some-model", { prompt: "a lighthouse" }).then((r) => console.log(r));
`
    : `import { ${client} } from ${JSON.stringify(name)};
const client = new ${client}({ apiKey: "key" });
client.runModelSync("some-model", { prompt: "a lighthouse" }).then((r) => console.log(r.data));
`;
  const everything = `import * as all from ${JSON.stringify(name)};
console.log(all);
`;
  // The package's first operation through its standalone function, on the client's core.
  const operationsFile = path.join(packageDir, "src", "operations.ts");
  const first = fs.existsSync(operationsFile) ? /export function (\w+)\(/.exec(fs.readFileSync(operationsFile, "utf8"))?.[1] : undefined;
  const operation =
    first === undefined
      ? undefined
      : `import { ${client}Core } from ${JSON.stringify(name)};
import { ${first} } from ${JSON.stringify(`${name}/operations`)};
${first}(new ${client}Core({ apiKey: "key" }), {}).then((r) => console.log(r.data));
`;
  return { name, entries: { models, everything, ...(operation === undefined ? {} : { operation }) }, usesRunAndWait: hasRunAndWait, firstOperation: first };
}

/** The exported class whose name ends in "Client" in src/client.ts. */
function clientClassName(packageDir) {
  const source = fs.readFileSync(path.join(packageDir, "src", "client.ts"), "utf8");
  const match = /export class (\w+Client)\b/.exec(source);
  if (!match) throw new Error(`no exported *Client class in ${path.join(packageDir, "src", "client.ts")}`);
  return match[1];
}

/**
 * Bundles `contents` (an app) for the browser as apps ship it: code splitting on (as Vite and
 * Rollup do), so a dynamic import becomes a chunk fetched when first needed. An import of `name`
 * resolves to the package's sources in `packageDir`.
 *
 * `startup` is what the app loads before it runs (the entry and the chunks it imports statically),
 * `onDemand` the chunks only dynamic imports reach; sizes are summed over their files, each
 * compressed on its own. `inputs`: bytes of each source file in the startup code.
 */
export async function bundle(contents, { packageDir, name, resolveDir = packageDir, loader = "js" }) {
  const outdir = path.join(root, ".tmp", "size-bundle");
  const result = await esbuild.build({
    stdin: { contents, resolveDir, sourcefile: `app.${loader}`, loader },
    bundle: true,
    splitting: true,
    minify: true,
    treeShaking: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outdir,
    write: false,
    metafile: true,
    legalComments: "none",
    logLevel: "silent",
    plugins:
      name === undefined
        ? []
        : [
            {
              name: "package-sources",
              setup(build) {
                const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
                build.onResolve({ filter: new RegExp(`^${escaped}$`) }, () => ({ path: path.join(packageDir, "src", "index.ts") }));
                build.onResolve({ filter: new RegExp(`^${escaped}/operations$`) }, () => ({ path: path.join(packageDir, "src", "operations.ts") }));
              },
            },
          ],
  });
  const outputs = result.metafile.outputs;
  const codeOf = new Map(result.outputFiles.map((file) => [path.relative(process.cwd(), file.path), file.contents]));
  // The app's own entry (esbuild names the stdin entry "stdin.js"; each dynamically imported chunk is an entry point too).
  const entry = Object.keys(outputs).find((file) => path.basename(file) === "stdin.js");
  const startup = new Set();
  for (const queue = [entry]; queue.length > 0; ) {
    const file = queue.pop();
    if (startup.has(file)) continue;
    startup.add(file);
    for (const imported of outputs[file].imports) if (imported.kind === "import-statement") queue.push(imported.path);
  }
  const sizeOf = (files) => {
    let minified = 0;
    let gzipped = 0;
    let brotli = 0;
    for (const file of files) {
      const code = codeOf.get(file);
      minified += code.length;
      gzipped += zlib.gzipSync(code, { level: 9 }).length;
      brotli += zlib.brotliCompressSync(code, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    }
    return { minified, gzipped, brotli, files: files.length };
  };
  const inputs = {};
  for (const file of startup) {
    for (const [input, info] of Object.entries(outputs[file].inputs)) inputs[input] = (inputs[input] ?? 0) + info.bytesInOutput;
  }
  const onDemand = Object.keys(outputs).filter((file) => file.endsWith(".js") && !startup.has(file));
  return { ...sizeOf([...startup]), onDemand: sizeOf(onDemand), inputs };
}

export async function measure(packageDir = DEFAULT_PACKAGE) {
  const { name, entries: apps, usesRunAndWait, firstOperation } = entries(packageDir);
  const sizes = {};
  for (const [entry, contents] of Object.entries(apps)) {
    const { minified, gzipped } = await bundle(contents, { packageDir, name });
    sizes[entry] = { minified, gzipped };
  }
  return { name, sizes, usesRunAndWait, firstOperation };
}

/** Lines like "models: minified 41.2 kB > budget 40.0 kB", one per size above its budget. */
export function overBudget(sizes, budget) {
  const problems = [];
  for (const [entry, size] of Object.entries(sizes)) {
    const limits = budget.entries?.[entry];
    if (!limits) {
      problems.push(`${entry}: no budget recorded`);
      continue;
    }
    for (const kind of ["minified", "gzipped"]) {
      if (typeof limits[kind] !== "number") problems.push(`${entry}: no ${kind} budget recorded`);
      else if (size[kind] > limits[kind]) problems.push(`${entry}: ${kind} ${kb(size[kind])} > budget ${kb(limits[kind])}`);
    }
  }
  return problems;
}

function kb(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      package: { type: "string" },
      budget: { type: "string" },
      json: { type: "boolean", default: false },
      "update-budget": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write("usage: npm run size -- [--package DIR] [--budget FILE] [--json] [--update-budget]\n");
    return 0;
  }
  const packageDir = values.package ? path.resolve(values.package) : DEFAULT_PACKAGE;
  const budgetFile = values.budget ? path.resolve(values.budget) : DEFAULT_BUDGET;
  const { name, sizes, usesRunAndWait, firstOperation } = await measure(packageDir);

  if (values["update-budget"]) {
    const budget = {
      comment: "Budgets of scripts/size.mjs in bytes: the sizes measured when they were set, plus 15 %. `npm run size -- --update-budget` resets them.",
      entries: Object.fromEntries(
        Object.entries(sizes).map(([entry, size]) => [
          entry,
          { minified: Math.ceil(size.minified * HEADROOM), gzipped: Math.ceil(size.gzipped * HEADROOM), measured: size },
        ]),
      ),
    };
    fs.writeFileSync(budgetFile, `${JSON.stringify(budget, null, 2)}\n`);
  }
  const budget = JSON.parse(fs.readFileSync(budgetFile, "utf8"));
  const problems = overBudget(sizes, budget);

  if (values.json) process.stdout.write(`${JSON.stringify({ name, usesRunAndWait, sizes, problems }, null, 2)}\n`);
  else {
    process.stdout.write(`${name}, bundled for the browser with esbuild (minified; gzip level 9):\n`);
    for (const [entry, size] of Object.entries(sizes)) {
      const limits = budget.entries?.[entry] ?? {};
      const label =
        entry === "models" ? `models (runModelSync${usesRunAndWait ? " + runAndWait" : ""})` : entry === "operation" ? `one operation (${firstOperation}, /operations)` : "everything (import *)";
      process.stdout.write(
        `  ${label.padEnd(36)} ${kb(size.minified).padStart(9)} min (budget ${limits.minified ? kb(limits.minified) : "none"})   ${kb(size.gzipped).padStart(9)} gzip (budget ${limits.gzipped ? kb(limits.gzipped) : "none"})\n`,
      );
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`over the size budget (${path.relative(process.cwd(), budgetFile)}):\n${problems.map((p) => `  ${p}`).join("\n")}\n`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
