/**
 * The names the package exports, decided once for every emitter: the client class and its core,
 * the brand of the base error, and an alias per component schema that shadows nothing else the
 * package exports (its runtime's names, an extension's, an operation's types).
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { identifier, uniqueIdentifiers } from "../common/escape.ts";
import { TEMPLATES_DIR } from "../common/paths.ts";
import type { PackageNames } from "./types.ts";

/**
 * Names an operation's method may not take: members of the client's base class, and
 * Object.prototype's (a `toString` operation would fire a request from `String(client)`).
 */
export const CORE_METHOD_NAMES: readonly string[] = [
  "request", "exchange", "describe", "assertValid", "responseValidators", "baseUrl", "logger",
  // A client with a `then` method is a thenable: `await` or returning it from an async function would call it.
  "then",
  ...Object.getOwnPropertyNames(Object.prototype),
];

/** Global names the generated modules use: a client class may not shadow them. */
const GLOBALS_USED = ["Promise", "Record", "Readonly", "Partial", "Array", "Object", "Error", "String", "Number", "Boolean", "Date", "Map", "Set", "JSON", "Math", "URL", "Response", "Request", "Headers", "AbortSignal", "Blob", "FormData"];

/** The schema module's own exports. */
const SCHEMA_EXPORTS = ["paths", "components", "operations"];

const exportsByFolder = new Map<string, string[]>();

/**
 * Every name the runtime files of a folder of `templates/runtime/` export ("" for the core the
 * package index re-exports from): a schema named `ApiError` or `NotFoundError` gets another alias.
 */
export function runtimeExports(folder = ""): string[] {
  let names = exportsByFolder.get(folder);
  if (names === undefined) {
    const dir = path.join(TEMPLATES_DIR, "runtime", folder);
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
      .map((entry) => entry.name)
      .sort()
      .flatMap((file) =>
        [...readFileSync(path.join(dir, file), "utf8").matchAll(/^export (?:declare )?(?:abstract )?(?:async )?(?:class|function|const|let|type|interface|enum) ([A-Za-z_$][\w$]*)/gm)].map(
          (match) => match[1]!,
        ),
      );
    exportsByFolder.set(folder, names);
  }
  return names;
}

/** The class of the client's configuration without its methods (`GpuCloudClient` → `GpuCloudClientCore`). */
function coreClassName(className: string): string {
  return `${className}Core`;
}

/**
 * The client's class name, from the package name (`gpu-cloud-client` → `GpuCloudClient`); one that
 * would clash, or whose core class would (`client` → `ClientCore`), with a runtime export or a
 * global the generated code uses gets a `Client` suffix.
 */
function clientClassName(unscoped: string): string {
  const name = identifier(unscoped, { case: "pascal" });
  const taken = (candidate: string) => GLOBALS_USED.includes(candidate) || runtimeExports().includes(candidate);
  return taken(name) || taken(coreClassName(name)) ? `${name}Client` : name;
}

/**
 * The package's exported names. `operationTypes` are the operations' `…Params`/`…Response` names,
 * `extensionExports` the names the contract's extensions export.
 */
export function packageNames(packageName: string, schemaNames: readonly string[], operationTypes: readonly string[], extensionExports: readonly string[]): PackageNames {
  const unscoped = packageName.replace(/^@[^/]+\//, "");
  const client = clientClassName(unscoped);
  const options = `${client}Options`;
  const core = coreClassName(client);
  // The validators take the same names (`Pod2` has `isPod2`), so a type and its guard always match.
  const schemaAliases = uniqueIdentifiers(schemaNames, {
    case: "pascal",
    taken: [...SCHEMA_EXPORTS, ...runtimeExports(), client, options, core, ...operationTypes, ...extensionExports],
  });
  // The runtime's base error under the contract's brand (GpuCloudClient → GpuCloudError), else its own name.
  const taken = new Set([...runtimeExports(), ...schemaAliases, client, options, ...extensionExports]);
  const baseError = [`${client.replace(/Client$/, "")}Error`, `${client}Error`].find((name) => !taken.has(name)) ?? "SdkError";
  return { unscoped, client, options, core, baseError, schemaAliases };
}
