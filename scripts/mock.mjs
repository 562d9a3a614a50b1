#!/usr/bin/env node
// `npm run mock`: Prism serving both APIs of the contract on loopback, each known model's jobs
// checked against that model's input schema (scripts/mock-document.mjs).
// One address serves both: every path and method pair is distinct, so point `baseUrl` and
// `publicEndpointBaseUrl` of the client at the same URL. PORT and HOST override the defaults.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import path from "node:path";
import { writeMockDocument } from "./mock-document.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prism = path.join(root, "node_modules", ".bin", "prism");
const contract = writeMockDocument(path.join(root, "openapi", "openapi.yaml"));
const host = process.env.HOST ?? "127.0.0.1";
const port = process.env.PORT ?? "4010";

const removeDocument = () => fs.rmSync(path.dirname(contract), { recursive: true, force: true });
const child = spawn(prism, ["mock", contract, "--host", host, "--port", port], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  removeDocument();
  console.error(`error: cannot start Prism (${prism}): ${error.message}; run \`npm ci\` first`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  removeDocument();
  process.exit(code ?? (signal ? 1 : 0));
});
