/**
 * Runs the smoke suite on whatever runtime runs this file: `node|bun smoke.mjs <dist/index.js>`,
 * `deno run --allow-read smoke.mjs <dist/index.js>`. One line per case (`ok - NAME # DETAIL` or `not ok - NAME # WHY`),
 * then a summary; the exit code is 1 when a case failed.
 */
import { runSmokeCases } from "./smoke-cases.mjs";

const deno = globalThis.Deno;
const args = deno ? deno.args : globalThis.process.argv.slice(2);
const runtime = deno ? `deno ${deno.version.deno}` : globalThis.Bun ? `bun ${globalThis.Bun.version}` : `node ${globalThis.process.version}`;
const exit = (code) => (deno ? deno.exit(code) : globalThis.process.exit(code));

if (args.length !== 1) {
  console.error("usage: smoke.mjs <path of the built package's dist/index.js>");
  exit(2);
}
const entry = new URL(args[0], `file://${deno ? deno.cwd() : globalThis.process.cwd()}/`);
const pkg = await import(entry.href);
console.log(`runtime ${runtime}`);
const failures = await runSmokeCases(pkg, ({ name, ok, detail }) => console.log(`${ok ? "ok" : "not ok"} - ${name} # ${detail}`));
console.log(failures === 0 ? "all cases passed" : `${failures} failed`);
exit(failures === 0 ? 0 : 1);
