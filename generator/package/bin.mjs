#!/usr/bin/env node
/**
 * `gpu-cloud-generator`: the command of the generator's npm package (built by
 * scripts/build-generator.mjs into the package's bin/; the bundles are in ../dist/).
 *
 *   gpu-cloud-generator --spec api.yaml --out ./client [options]   generates (see --help)
 *   gpu-cloud-generator version-contract --base <ref | file> ...    the contract-version tool
 */
import v8 from "node:v8";
import { Worker } from "node:worker_threads";

// As in generator/run.mjs: the generator's and its worker's heaps peak together, so collect sooner.
v8.setFlagsFromString("--heap-growing-percent=30");

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "version-contract") {
    const { main: versionContract } = await import("../dist/version-contract.mjs");
    return versionContract(argv.slice(1), process.stdout, process.stderr, "gpu-cloud-generator version-contract");
  }
  // Started before the CLI is imported, so that openapi-typescript loads on another core meanwhile.
  const schemaTypesWorker = new Worker(new URL("../dist/schema-types-worker.mjs", import.meta.url));
  const schemaTypesWorkerErrors = [];
  schemaTypesWorker.on("error", (error) => schemaTypesWorkerErrors.push(error));
  const { runCli } = await import("../dist/cli.mjs");
  return runCli(argv, { schemaTypesWorker, schemaTypesWorkerErrors, standalone: true });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
