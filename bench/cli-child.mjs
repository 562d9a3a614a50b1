/**
 * One command-line run of a generator, measured as its user meets it: the whole process, from
 * Node's start to its exit (module loading, worker threads and the written files included), and
 * its peak RSS (worker threads share the process, so they count). Plain JavaScript, so no loader
 * adds to either tool's time.
 *
 *   node bench/cli-child.mjs ours SPEC OUT_DIR     # npm run generate -- --spec SPEC --out OUT_DIR
 *   node bench/cli-child.mjs ots SPEC OUT_FILE     # npx openapi-typescript SPEC -o OUT_FILE
 *
 * The command's own output passes through; the last stdout line is the figures as JSON:
 * { ok, ms, maxRssKiB } (ok: the command exited with 0).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const REPO_ROOT = path.resolve(import.meta.dirname, "..");
const COMMANDS = {
  ours: (spec, out) => [path.join(REPO_ROOT, "generator/run.mjs"), "--spec", spec, "--out", out],
  ots: (spec, out) => [path.join(REPO_ROOT, "node_modules/openapi-typescript/bin/cli.js"), spec, "--output", out],
};

const [tool, spec, out] = process.argv.slice(2);
const command = COMMANDS[tool];
if (command === undefined || spec === undefined || out === undefined) {
  process.stderr.write("usage: node bench/cli-child.mjs ours|ots SPEC OUT\n");
  process.exit(2);
}
const [entry, ...args] = command(path.resolve(spec), path.resolve(out));
process.on("exit", (code) => {
  const figures = { ok: code === 0, ms: performance.now(), maxRssKiB: process.resourceUsage().maxRSS };
  process.stdout.write(`\n${JSON.stringify(figures)}\n`);
});
// The command reads its arguments from process.argv, as when Node starts it.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
