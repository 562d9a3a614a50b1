#!/usr/bin/env node
// `npm run mock`: Prism serving both APIs of the contract on loopback, each known model's jobs
// checked against that model's input schema (scripts/mock-document.mjs).
// One address serves both: every path and method pair is distinct, so point `baseUrl` and
// `publicEndpointBaseUrl` of the client at the same URL. PORT and HOST override the defaults.
// Prism ends with this process: signals are passed on, and if this process dies without one (its
// npm parent killed, or a SIGKILL) Prism's IPC channel closes and scripts/mock-guard.cjs ends it.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { writeMockDocument } from "./mock-document.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prismBin = path.join(root, "node_modules", ".bin", "prism");
const guard = path.join(root, "scripts", "mock-guard.cjs");
const host = process.env.HOST ?? "127.0.0.1";
const port = process.env.PORT ?? "4010";

/** Whether something already listens on the port (Prism would print a page of usage and EADDRINUSE). */
function portInUse() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => (error.code === "EADDRINUSE" ? resolve(true) : reject(error)));
    probe.listen(Number(port), host, () => probe.close(() => resolve(false)));
  });
}

let prism;
try {
  prism = fs.realpathSync(prismBin);
} catch {
  console.error(`error: cannot start Prism (${prismBin} is missing); run \`npm ci\` first`);
  process.exit(1);
}
const inUse = await portInUse().catch((error) => {
  console.error(`error: cannot listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
if (inUse) {
  console.error(`error: ${host}:${port} is in use (another \`npm run mock\`?); stop it, or choose another port: PORT=4011 npm run mock`);
  process.exit(1);
}

const contract = writeMockDocument(path.join(root, "openapi", "openapi.yaml"));
const removeDocument = () => fs.rmSync(path.dirname(contract), { recursive: true, force: true });
const child = spawn(process.execPath, ["--require", guard, prism, "mock", contract, "--host", host, "--port", port], { stdio: ["inherit", "inherit", "inherit", "ipc"] });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
// npm killed leaves this process running without a signal (its shell dies, this one is adopted): ending then ends Prism.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill("SIGTERM");
}, 500).unref();
child.on("error", (error) => {
  removeDocument();
  console.error(`error: cannot start Prism (${prism}): ${error.message}; run \`npm ci\` first`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  removeDocument();
  process.exit(code ?? (signal ? 1 : 0));
});
