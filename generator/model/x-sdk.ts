/**
 * `x-sdk`, the contract's word on the generated package: its npm name, the environment variable of
 * the API key, and its version. The one place that reads and checks it; the model builder calls
 * `readXSdk`, `npm run version:contract` calls `packageVersion`.
 */
import { ContractError, UsageError } from "../common/errors.ts";
import { identifier } from "../common/escape.ts";

/** Semver 2.0.0 (no leading "v"). */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** The part of the document `x-sdk` is read from. */
export interface XSdkSource {
  info: { title: string; version: string };
  "x-sdk"?: unknown;
}

export interface PackageIdentity {
  packageName: string;
  apiKeyEnvVar: string;
  /** The generated package's own semver (see `packageVersion`). */
  packageVersion: string;
}

const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/** What the caller may set instead of the contract (the CLI's `--name`). */
export interface PackageOverrides {
  packageName?: string;
  apiKeyEnvVar?: string;
}

/**
 * The package's name (an override, else `x-sdk.packageName`, else from the title), its key's
 * variable (an override, else `x-sdk.apiKeyEnvVar`, else from the name) and its version, each
 * refused with its pointer when npm or a shell could not take it.
 */
export function readXSdk(document: XSdkSource, overrides: PackageOverrides = {}): PackageIdentity {
  const sdk = (document["x-sdk"] ?? {}) as { packageName?: unknown; apiKeyEnvVar?: unknown };
  if (typeof sdk !== "object" || sdk === null || Array.isArray(sdk)) throw new ContractError("/x-sdk", "must be an object (packageName, apiKeyEnvVar, packageVersion)");
  for (const key of ["packageName", "apiKeyEnvVar"] as const) {
    if (sdk[key] !== undefined && typeof sdk[key] !== "string") throw new ContractError(`/x-sdk/${key}`, "must be a string");
  }
  const packageName = overrides.packageName ?? (sdk.packageName as string | undefined) ?? slug(document.info.title);
  if (!NPM_NAME.test(packageName)) {
    // The caller's --name is the caller's mistake, not the contract's.
    if (overrides.packageName !== undefined) throw new UsageError(`--name ${JSON.stringify(packageName)} is not a valid npm package name (lower case, digits, ".", "_", "-", optionally @scope/)`);
    throw new ContractError("/x-sdk/packageName", `"${packageName}" is not a valid npm package name`);
  }
  const apiKeyEnvVar = overrides.apiKeyEnvVar ?? (sdk.apiKeyEnvVar as string | undefined) ?? `${identifier(packageName).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}_API_KEY`;
  if (!/^[A-Z_][A-Z0-9_]*$/.test(apiKeyEnvVar)) {
    throw new ContractError("/x-sdk/apiKeyEnvVar", `"${apiKeyEnvVar}" is not a valid environment variable name`);
  }
  return { packageName, apiKeyEnvVar, packageVersion: packageVersion(document) };
}

/**
 * The generated package's version: `x-sdk.packageVersion` (refused unless semver), else
 * `info.version` when it is semver, else the numbers it starts with ("v2" → 2.0.0, "2024-06-01"
 * → 2024.0.0), else 0.0.0: npm only takes semver, and many APIs version by date or name.
 */
export function packageVersion(document: { info: { version: string }; "x-sdk"?: unknown }): string {
  const sdk = (document["x-sdk"] ?? {}) as { packageVersion?: unknown };
  if (sdk.packageVersion !== undefined) {
    const declared = String(sdk.packageVersion);
    if (!SEMVER.test(declared)) throw new ContractError("/x-sdk/packageVersion", `"${declared}" is not a semver version (MAJOR.MINOR.PATCH)`);
    return declared;
  }
  const fallback = String(document.info.version);
  if (SEMVER.test(fallback)) return fallback;
  const numbers = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(fallback);
  return numbers ? numbers.slice(1, 4).map((n) => String(Number(n ?? 0))).join(".") : "0.0.0";
}

function slug(title: string): string {
  const s = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `${s || "api"}-client`;
}
