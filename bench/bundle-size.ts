/**
 * Part 4: what the client weighs in an app. Each entry is bundled by esbuild as an app would ship
 * it (bundle, minify, tree-shake, platform browser, ES2022 modules) and gzipped with zlib
 * (level 9) and Brotli (quality 11).
 *
 *   node --import tsx bench/bundle-size.ts [--json]
 */
import path from "node:path";
import { bundle } from "../scripts/size.mjs";
import { bytes, GENERATED_SRC, isMain, markdownTable, progress, REPO_ROOT } from "./lib.ts";

interface Entry {
  id: string;
  label: string;
  code: string;
}

export interface BundleRow {
  id: string;
  label: string;
  /** What the app loads at startup (the entry and the chunks it imports statically). */
  minified: number;
  gzip: number;
  brotli: number;
  /** Chunks loaded on demand (the response validators, once `validateResponses` is on). */
  onDemand: { minified: number; gzip: number; files: number };
  /** The biggest inputs in the startup code. */
  inputs: { file: string; bytes: number }[];
}

export interface BundleResult {
  rows: BundleRow[];
  markdown: string;
}

const INDEX = JSON.stringify(path.join(GENERATED_SRC, "index.ts"));
/** Where the hey-api SDK of this contract is generated, at each run (openapi-ts with its fetch client). */
const HEY_API_DIR = path.join(REPO_ROOT, ".tmp", "bench-hey-api");

async function generateHeyApiSdk(): Promise<void> {
  const { createClient } = await import("@hey-api/openapi-ts");
  await createClient({
    input: path.join(REPO_ROOT, "openapi", "openapi.yaml"),
    output: HEY_API_DIR,
    plugins: ["@hey-api/client-fetch", "@hey-api/sdk"],
    logs: { level: "silent" },
  } as Parameters<typeof createClient>[0]);
}

export const ENTRIES: Entry[] = [
  {
    id: "openapi-fetch",
    label: "openapi-fetch alone (`createClient().GET`)",
    code: `import createClient from "openapi-fetch";
const client = createClient({ baseUrl: "https://api.runpod.io" });
client.GET("/v2/pods", { params: { query: { includeClusterPods: true } } }).then((r) => console.log(r.data));`,
  },
  {
    id: "hey-api",
    label: "hey-api SDK of this contract (`listPods()`, its fetch client; no validation, retries or rate limits)",
    code: `import { listPods } from ${JSON.stringify(path.join(HEY_API_DIR, "sdk.gen.ts"))};
listPods({ query: { includeClusterPods: true } }).then((r) => console.log(r.data));`,
  },
  {
    id: "management",
    label: "management client (`new GpuCloudClient().listPods()`)",
    code: `import { GpuCloudClient } from ${INDEX};
new GpuCloudClient({ apiKey: "key" }).listPods().then((r) => console.log(r.data.pods.length));`,
  },
  {
    id: "management-function",
    label: "management, standalone function (`listPods(new GpuCloudClientCore())`)",
    code: `import { GpuCloudClientCore } from ${INDEX};
import { listPods } from ${JSON.stringify(path.join(GENERATED_SRC, "operations.ts"))};
listPods(new GpuCloudClientCore({ apiKey: "key" })).then((r) => console.log(r.data.pods.length));`,
  },
  {
    id: "run-and-wait",
    label: "one model, `runAndWait` (`black-forest-labs-flux-1-dev`) on the client's core",
    code: `import { GpuCloudClientCore, runAndWait } from ${INDEX};
const client = new GpuCloudClientCore({ apiKey: "key" });
runAndWait(client, "black-forest-labs-flux-1-dev", { prompt: "A lighthouse at dawn" }).then((job) => console.log(job.output));`,
  },
  {
    id: "everything",
    label: "everything (`import * as all`)",
    code: `import * as all from ${INDEX};
console.log(all);`,
  },
];

function shortInput(file: string): string {
  return file
    .replace(/^.*generated\/gpu-cloud-client\//, "")
    .replace(/^node_modules\/([^/]+)\/.*$/, "$1 (dependency)");
}

export async function bundleEntry(entry: Entry): Promise<BundleRow> {
  // The same bundling as `npm run size` (scripts/size.mjs): esbuild with code splitting, as apps ship.
  const result = await bundle(entry.code, { packageDir: REPO_ROOT, resolveDir: REPO_ROOT, loader: "ts" });
  const byInput = new Map<string, number>();
  for (const [file, size] of Object.entries(result.inputs)) {
    const key = shortInput(file);
    byInput.set(key, (byInput.get(key) ?? 0) + size);
  }
  return {
    id: entry.id,
    label: entry.label,
    minified: result.minified,
    gzip: result.gzipped,
    brotli: result.brotli,
    onDemand: { minified: result.onDemand.minified, gzip: result.onDemand.gzipped, files: result.onDemand.files },
    inputs: [...byInput.entries()]
      .filter(([, size]) => size > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([file, size]) => ({ file, bytes: size })),
  };
}

export async function runBundleSize(): Promise<BundleResult> {
  const rows: BundleRow[] = [];
  progress("bundle: generating the hey-api SDK");
  await generateHeyApiSdk();
  for (const entry of ENTRIES) {
    progress(`bundle: ${entry.id}`);
    rows.push(await bundleEntry(entry));
  }
  const base = rows.find((row) => row.id === "openapi-fetch")!;
  const table = markdownTable(
    ["Bundle (esbuild, minified, browser), loaded at startup", "minified", "gzip -9", "brotli", "gzip vs openapi-fetch alone", "loaded on demand (minified / gzip)", "largest inputs (minified bytes)"],
    rows.map((row) => [
      row.label,
      bytes(row.minified),
      bytes(row.gzip),
      bytes(row.brotli),
      row.id === "openapi-fetch" ? "–" : `+${bytes(row.gzip - base.gzip)} (${(row.gzip / base.gzip).toFixed(1)}×)`,
      row.onDemand.files === 0 ? "–" : `${bytes(row.onDemand.minified)} / ${bytes(row.onDemand.gzip)}`,
      row.inputs
        .slice(0, 4)
        .map((input) => `${input.file} ${bytes(input.bytes)}`)
        .join(", "),
    ]),
  );
  const markdown = [
    table,
    "",
    "Each row is a tiny app importing the client from its sources, bundled the way an app ships it (tree-shaken, `sideEffects: false` in the package, code splitting on as with Vite or Rollup). " +
      "\"Loaded at startup\" is the entry and the chunks it imports statically, each file compressed on its own; \"on demand\" is what dynamic imports reach: the response validators (fetched on the first response checked with `validateResponses: true`) and the errors of an error answer (fetched with the first one). Sizes include openapi-fetch.",
  ].join("\n");
  return { rows, markdown };
}

if (isMain(import.meta.url)) {
  const result = await runBundleSize();
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(result)}\n` : `${result.markdown}\n`);
}
