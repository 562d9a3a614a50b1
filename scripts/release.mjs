#!/usr/bin/env node
// `npm run release -- [--registry URL] [--dry-run] [--tag TAG] [--skip-tests] [--spec FILE] [--out DIR] [--test-command CMD]`
//
// Publishes the generated package, refusing (exit 1, nothing published) when:
//   1. the package folder is not what the contract generates (`npm run generate -- --check`);
//   2. the tests fail (`npm test`, or --test-command; --skip-tests skips this step: it exists for
//      the test of this script itself, which would otherwise run the whole suite inside itself);
//   3. the registry already has this version (bump it with `npm run version:contract -- --base <last release> --write`);
//   4. the build fails or misses an entry point (dist/index.js, dist/index.d.ts, dist/cjs/…).
// Then `npm publish` from the package folder, to --registry or to whatever registry your npm
// configuration names (authentication comes from your .npmrc, as for any `npm publish`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: npm run release -- [--registry URL] [--dry-run] [--tag TAG] [--skip-tests] [--spec FILE] [--out DIR] [--test-command CMD]";

class Refusal extends Error {}

function log(line) {
  process.stdout.write(`release: ${line}\n`);
}

/** Runs a command, inheriting or capturing output; returns { status, stdout, stderr }. */
function run(command, args, { cwd = root, capture = false, shell = false, env = process.env } = {}) {
  const result = spawnSync(command, args, { cwd, env, shell, encoding: "utf8", stdio: capture ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"], maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** generated/<package name without scope>, the way the generator names its default output. */
function defaultOut(spec) {
  const document = YAML.parse(fs.readFileSync(spec, "utf8"));
  const title = String(document?.info?.title ?? "");
  const name = document?.["x-sdk"]?.packageName ?? `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "api"}-client`;
  return path.join(root, "generated", String(name).replace(/^@[^/]+\//, ""));
}

class UsageError extends Error {}

export async function release(argv) {
  const { values } = parseArgsOrUsage({
    args: argv,
    options: {
      registry: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      tag: { type: "string" },
      "skip-tests": { type: "boolean", default: false },
      spec: { type: "string", default: path.join(root, "openapi", "openapi.yaml") },
      out: { type: "string" },
      "test-command": { type: "string", default: "npm test" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const spec = path.resolve(values.spec);
  const out = values.out ? path.resolve(values.out) : defaultOut(spec);
  const registryArgs = values.registry ? ["--registry", values.registry] : [];
  const dryRun = values["dry-run"];

  // 1. Drift.
  log(`checking that ${path.relative(root, out) || out} is what ${path.relative(root, spec) || spec} generates`);
  const drift = run(process.execPath, [path.join(root, "generator", "run.mjs"), "--check", "--spec", spec, "--out", out], { capture: true });
  if (drift.status !== 0) throw new Refusal(`refused: the package drifts from the contract; run \`npm run generate\` and commit:\n${drift.stderr.trim()}`);

  // 2. Tests.
  if (values["skip-tests"]) log("tests skipped (--skip-tests)");
  else {
    log(`running the tests: ${values["test-command"]}`);
    const tests = run(values["test-command"], [], { shell: true });
    if (tests.status !== 0) throw new Refusal(`refused: the tests failed (${values["test-command"]} exited with ${tests.status})`);
  }

  const manifest = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8"));
  const id = `${manifest.name}@${manifest.version}`;
  const env = { ...process.env, PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}` };

  // 3. Not already published (before building: refuse early).
  const view = run("npm", ["view", id, "version", "--json", ...registryArgs], { cwd: out, capture: true, env });
  if (view.status === 0 && view.stdout.trim() !== "") {
    throw new Refusal(`refused: ${id} is already on the registry; bump the version (npm run version:contract -- --base <last release> --write)`);
  }
  if (view.status !== 0 && !/E404|404 Not Found|is not in this registry/i.test(view.stderr + view.stdout)) {
    const reason = (view.stderr || view.stdout).trim().split("\n").slice(-3).join(" ");
    if (!dryRun) throw new Refusal(`refused: cannot ask the registry about ${id}: ${reason}`);
    log(`warning: cannot ask the registry about ${id} (dry run, going on): ${reason}`);
  }

  // 4. Build, with the workspace's TypeScript.
  log(`building ${id}`);
  const build = run("npm", ["run", "build"], { cwd: out, env, capture: true });
  if (build.status !== 0) throw new Refusal(`refused: the build failed:\n${build.stdout}${build.stderr}`);
  const entryPoints = collectEntryPoints(manifest);
  const missing = entryPoints.filter((file) => !fs.existsSync(path.join(out, file)));
  if (missing.length > 0) throw new Refusal(`refused: the build does not produce ${missing.join(", ")}`);

  // 5. Publish (already built: no lifecycle scripts).
  const publishArgs = ["publish", "--ignore-scripts", ...registryArgs, ...(values.tag ? ["--tag", values.tag] : []), ...(dryRun ? ["--dry-run"] : [])];
  if (manifest.name.startsWith("@")) publishArgs.push("--access", "public");
  log(`npm ${publishArgs.join(" ")}`);
  const publish = run("npm", publishArgs, { cwd: out, env, capture: true });
  process.stdout.write(publish.stdout);
  if (publish.status !== 0) throw new Refusal(`npm publish failed (exit ${publish.status}):\n${publish.stderr.trim()}`);
  log(dryRun ? `dry run: ${id} would be published` : `published ${id}${values.registry ? ` to ${values.registry}` : ""}`);
  return 0;
}

function parseArgsOrUsage(config) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError(`${error.message}\n${USAGE}`);
  }
}

/** Every file package.json points at (main, types, module, bin, and each exports target). */
function collectEntryPoints(manifest) {
  const files = new Set();
  const add = (value) => {
    if (typeof value === "string") {
      if (value.startsWith("./") && !value.endsWith("package.json")) files.add(value.slice(2));
    } else if (value && typeof value === "object") for (const inner of Object.values(value)) add(inner);
  };
  add(manifest.main);
  add(manifest.module);
  add(manifest.types);
  add(manifest.bin);
  add(manifest.exports);
  if (manifest.exports?.["."]?.require) files.add("dist/cjs/package.json");
  return [...files].sort();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  release(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      const known = error instanceof Refusal || error instanceof UsageError;
      process.stderr.write(`release: ${known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = error instanceof UsageError ? 2 : 1;
    },
  );
}
