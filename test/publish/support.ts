/**
 * Shared by the publishing tests: child processes with timeouts, scratch folders, building and
 * packing a copy of the generated package, a consumer program generated from the contract's model,
 * and a throwaway verdaccio registry.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { jsValue } from "../../generator/emit/js-value.ts";
import type { Generated } from "../../generator/generate.ts";
import { SERVER_SENT_EVENTS_EXTENSION, type ServerSentEventsModel } from "../../generator/extensions/server-sent-events/types.ts";
import { freePort, repoRoot } from "../support/prism.ts";
import { modelEndpointsOf } from "../../generator/extensions/model-endpoints/model.ts";

export const generatedPackage = path.join(repoRoot, "generated", "gpu-cloud-client");
const binDir = path.join(repoRoot, "node_modules", ".bin");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killing it after `timeoutMs`); never throws on a non-zero exit. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = { cwd: repoRoot }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${options.timeoutMs} ms]`;
      killGroup(child, "SIGKILL");
    }, options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Fails with the command's output when it did not exit 0. */
export function expectSuccess(result: RunResult, what: string): RunResult {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** PATH with the workspace's tools first (tsc for the package's build script). */
export function toolEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ""}`,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    NO_COLOR: "1",
    ...extra,
  };
}

/** A scratch folder: outside the repository (os.tmpdir()) unless `inRepo`, under .tmp/ so workspace packages resolve. */
export function scratch(prefix: string, inRepo = false): string {
  const parent = inRepo ? path.join(repoRoot, ".tmp") : os.tmpdir();
  fs.mkdirSync(parent, { recursive: true });
  return fs.mkdtempSync(path.join(parent, prefix));
}

export function remove(dir: string | undefined): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

/** Copies the package folder without node_modules/ and dist/. */
export function copyPackage(from: string, to: string): string {
  const skipped = new Set(["node_modules", "dist"]);
  fs.cpSync(from, to, { recursive: true, filter: (source) => !skipped.has(path.relative(from, source).split(path.sep)[0] ?? "") });
  return to;
}

/** `npm run build` in the package folder: its own script (ESM, then CommonJS), with the workspace's TypeScript. */
/**
 * How long a build or a type-check of a generated package may take before it counts as hung: a
 * guard, not a measure. This contract's package (61 operations, 40 models) builds in two tsc runs
 * that took 113 s on a loaded two-core machine.
 */
export const BUILD_TIMEOUT_MS = 600_000;

export async function buildPackage(dir: string): Promise<void> {
  expectSuccess(await run("npm", ["run", "build"], { cwd: dir, env: toolEnv(), timeoutMs: BUILD_TIMEOUT_MS }), "npm run build");
}

export interface Packed {
  tarball: string;
  files: string[];
}

/** `npm pack` (already built, so no lifecycle scripts) into `destination`. */
export async function packPackage(dir: string, destination: string): Promise<Packed> {
  const result = expectSuccess(await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], { cwd: dir, env: toolEnv() }), "npm pack");
  const [info] = JSON.parse(result.stdout.slice(result.stdout.indexOf("["))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: path.join(destination, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

/** A fresh consumer project: package.json with `type: module`. */
export function consumerProject(dir: string): string {
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }, null, 2)}\n`);
  return dir;
}

export const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: "out",
    rootDir: ".",
  },
};

/**
 * A consumer program that calls every operation with its documented example, as a user of the
 * installed package writes it (strict TypeScript, importing by the package's name), plus lines
 * that must not compile (`@ts-expect-error`, which fails the type-check when they do compile).
 * It prints one JSON line: the status of each call and what an error call threw.
 */
/** The first guard (`isX`) of the package's `./validators` entry point. */
export function firstGuard(generated: Generated): string {
  const validators = generated.files.find((file) => file.path === "src/validators.js");
  const guard = validators === undefined ? undefined : /^export function (is\w+)\(/m.exec(validators.contents)?.[1];
  if (guard === undefined) throw new Error("the package has no guard in src/validators.js");
  return guard;
}

/** The first operation a consumer can call without arguments, if any. */
function argumentless(generated: Generated) {
  return generated.api.operations.find((o) => !o.parameters.some((p) => p.required) && !o.requestBody);
}

/** The operationIds of the operations the package reads as event streams. */
function eventStreamsOf(generated: Generated): string[] {
  const extension = generated.api.extensions.find((candidate) => candidate.name === SERVER_SENT_EVENTS_EXTENSION);
  return extension === undefined ? [] : (extension.model as ServerSentEventsModel).operations.map((operation) => operation.operationId);
}

export function consumerSource(generated: Generated, packageName: string): string {
  const { api } = generated;
  const className = api.names.client;
  const servers = api.servers.map((s) => `${s.key}: url`).join(", ");
  const guard = firstGuard(generated);
  const checked = argumentless(generated);
  const lines: string[] = [
    `import { ${className}, ApiError, GpuCloudError } from ${JSON.stringify(packageName)};`,
    `import type { ApiResult } from ${JSON.stringify(packageName)};`,
    `import { ${guard} } from ${JSON.stringify(`${packageName}/validators`)};`,
    "",
    "declare const process: { env: Record<string, string | undefined>; exitCode?: number };",
    "const url = process.env.PRISM_URL;",
    'if (!url) throw new Error("PRISM_URL is not set");',
    `const client = new ${className}({ apiKey: "consumer-key", ${servers}, maxRetries: 0 });`,
    "const calls: Array<{ operation: string; status: number; data: string }> = [];",
    "const record = (operation: string, result: ApiResult<unknown>) => calls.push({ operation, status: result.status, data: typeof result.data });",
    "",
  ];
  const streams = new Set(eventStreamsOf(generated));
  for (const operation of api.operations) {
    const params = operation.exampleParams;
    const args = params ? jsValue(params) : "";
    // An event stream's call is its first event: its headers came with a 2xx, its data parsed.
    if (streams.has(operation.operationId)) {
      lines.push(`for await (const event of client.${operation.methodName}(${args})) {`, `  calls.push({ operation: ${JSON.stringify(operation.methodName)}, status: 200, data: typeof event.data });`, "  break;", "}");
    } else lines.push(`record(${JSON.stringify(operation.methodName)}, await client.${operation.methodName}(${args}));`);
  }
  // An error answer, across the package boundary: instanceof works on the installed classes.
  const failing = api.operations.find((o) => o.errorStatuses.includes("401") && !o.parameters.some((p) => p.required) && !o.requestBody);
  lines.push("let thrown: { name: string; status?: number; isApiError: boolean; isBase: boolean } | undefined;");
  if (failing) {
    const takesParams = failing.parameters.length > 0;
    lines.push(
      "try {",
      `  await client.${failing.methodName}(${takesParams ? "{}, " : ""}{ headers: { Prefer: "code=401" } });`,
      "} catch (error) {",
      "  thrown = { name: (error as Error).name, status: error instanceof ApiError ? error.status : undefined, isApiError: error instanceof ApiError, isBase: error instanceof GpuCloudError };",
      "}",
    );
  }
  // Lines that must not compile (the types are real, not `any`), in a function never called.
  lines.push("", "export function mustNotCompile(): void {");
  lines.push("  // @ts-expect-error not an operation of the client", "  void client.noSuchOperation;");
  lines.push("  // @ts-expect-error the key is a string", `  void new ${className}({ apiKey: 42 });`);
  const required = api.operations.find((o) => o.parameters.some((p) => p.required) || o.requestBody?.required);
  if (required) lines.push("  // @ts-expect-error required parameters are missing", `  void client.${required.methodName}();`);
  const firstModel = modelEndpointsOf(api)?.endpoints[0];
  if (firstModel) lines.push("  // @ts-expect-error a model's input is an object", `  void client.runModelSync(${JSON.stringify(firstModel.id)}, 42);`);
  lines.push("}");
  // Response validation loads its validators with a dynamic import: it must resolve in the build.
  lines.push(`const strict = new ${className}({ apiKey: "consumer-key", ${servers}, maxRetries: 0, validateResponses: true });`);
  lines.push(checked ? `const validated = (await strict.${checked.methodName}()).status;` : "const validated = 0;");
  lines.push(
    "",
    "console.log(JSON.stringify({ calls, thrown, validated, guard: typeof " +
      guard +
      ", resolved: import.meta.resolve(" +
      JSON.stringify(packageName) +
      "), validators: import.meta.resolve(" +
      JSON.stringify(`${packageName}/validators`) +
      ") }));",
    "",
  );
  return lines.join("\n");
}

/** The same package from CommonJS: `.cts`, compiled to `require()`, types from the `require` condition. */
export function consumerCjsSource(generated: Generated, packageName: string): string {
  const className = generated.api.names.client;
  const servers = generated.api.servers.map((s) => `${s.key}: url`).join(", ");
  const first = argumentless(generated);
  const guard = firstGuard(generated);
  return [
    `import { ${className}, ApiError } from ${JSON.stringify(packageName)};`,
    `import { ${guard} } from ${JSON.stringify(`${packageName}/validators`)};`,
    "",
    "declare const process: { env: Record<string, string | undefined>; exitCode?: number };",
    "declare const require: { resolve(id: string): string };",
    "async function main(): Promise<void> {",
    "  const url = process.env.PRISM_URL;",
    '  if (!url) throw new Error("PRISM_URL is not set");',
    `  const client = new ${className}({ apiKey: "consumer-key", ${servers}, maxRetries: 0 });`,
    first ? `  const result = await client.${first.methodName}();` : "  const result = { status: 0 };",
    `  const strict = new ${className}({ apiKey: "consumer-key", ${servers}, maxRetries: 0, validateResponses: true });`,
    first ? `  const validated = (await strict.${first.methodName}()).status;` : "  const validated = 0;",
    `  console.log(JSON.stringify({ status: result.status, validated, guard: typeof ${guard}, apiError: typeof ApiError, resolved: require.resolve(${JSON.stringify(packageName)}) }));`,
    "}",
    "main().catch((error: unknown) => {",
    "  console.error(error);",
    "  process.exitCode = 1;",
    "});",
    "",
  ].join("\n");
}

export interface RunningRegistry {
  url: string;
  /** A `.npmrc` holding a token for the registry: point NPM_CONFIG_USERCONFIG at it. */
  npmrc: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Verdaccio from node_modules on a free loopback port, storage and config in `dir`, no uplinks:
 * it serves only what is published to it, and needs no network. A user is created through the
 * registry's API and its token written to `dir/.npmrc` (never ~/.npmrc).
 */
export async function startVerdaccio(dir: string): Promise<RunningRegistry> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  fs.writeFileSync(
    path.join(dir, "config.yaml"),
    [
      `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    unpublish: $authenticated",
      "web:",
      "  enable: false",
      "logs: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const child = spawn(path.join(binDir, "verdaccio"), ["--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${log}`);
      const ok = await fetch(`${url}-/ping`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`verdaccio did not answer within 30 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const user = `tester${port}`;
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: `pw-${port}-${Math.random().toString(36).slice(2)}`, email: `${user}@example.test` }),
    });
    const body = (await response.json()) as { token?: string };
    if (response.status !== 201 || !body.token) throw new Error(`creating a user answered ${response.status}: ${JSON.stringify(body)}`);
    const npmrc = path.join(dir, ".npmrc");
    fs.writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=${body.token}\nupdate-notifier=false\nfund=false\naudit=false\n`);
    return { url, npmrc, output: () => log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Debian's `chromium` (or $CHROMIUM), or undefined when there is none: tests that need it skip, saying why. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].filter((c): c is string => !!c);
  return candidates.find((c) => fs.existsSync(c));
}

export const CHROMIUM_MISSING = "Chromium is not installed (apt-get install -y chromium, or set CHROMIUM=/path/to/chrome)";

/**
 * Headless Chromium on `url` with a fresh profile, no background traffic, and every host name
 * unresolvable (loopback addresses still work): the page can load nothing from the Internet.
 */
export async function chromium(binary: string, url: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "chromium-profile-"));
  try {
    return await run(
      binary,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--disable-dev-shm-usage",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        `--user-data-dir=${profile}`,
        ...args,
        url,
      ],
      { cwd: os.tmpdir(), timeoutMs },
    );
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * The README's ```ts blocks but the install snippet (`require` beside `import`) and the test files
 * (importing vitest: checked and run by test/testing-kit/readme-example.test.ts).
 */
export function readmeExampleBlocks(readme: string): string[] {
  return [...readme.matchAll(/^(`{3,})ts\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!).filter((b) => !/\brequire\(/.test(b) && !/ from "vitest";/.test(b));
}

/**
 * The README's TypeScript examples as one module, to type-check against the installed package:
 * imports hoisted, each example in its own never-called function (with a `client` when it uses one
 * without making it). The install snippet, which shows `import` and `require` side by side, is left out.
 */
export function readmeExamplesSource(readme: string, className: string): string {
  const blocks = readmeExampleBlocks(readme);
  const imports = new Map<string, Set<string>>();
  const bodies: string[] = [];
  for (const block of blocks) {
    const body: string[] = [];
    for (const line of block.split("\n")) {
      const match = /^import \{ ([^}]+) \} from ("[^"]+");$/.exec(line);
      if (match) {
        const names = imports.get(match[2]!) ?? new Set<string>();
        match[1]!.split(",").forEach((n) => names.add(n.trim()));
        imports.set(match[2]!, names);
      } else body.push(line);
    }
    const makesClient = /\bconst client\b/.test(block);
    // Not the package's name (`webhook-example-client`): the variable.
    const usesClient = /(?<![\w$-])client(?![\w$-])/.test(block);
    bodies.push(
      [`export async function example${bodies.length}(): Promise<void> {`, ...(usesClient && !makesClient ? [`  const client = new ${className}();`] : []), ...body.map((l) => `  ${l}`), "}"].join("\n"),
    );
  }
  const head = [...imports].map(([from, names]) => `import { ${[...names].sort().join(", ")} } from ${from};`);
  return [...head, "", "declare const process: { env: Record<string, string | undefined> };", "", ...bodies, ""].join("\n");
}
