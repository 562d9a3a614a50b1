/**
 * Client options read and checked when a client is made: the API key, base URLs and logging from
 * the environment, and `maxResponseBytes`, so that a bad one fails there rather than on every call.
 */
import { InvalidRequestError } from "./errors.js";
import type { Logger } from "./transport-types.js";
import { sanitizeUrl } from "./urls.js";

/**
 * Reads an environment variable where there is one (Node, Deno, Bun); browsers have none. In Deno a
 * variable the program may not read counts as unset: a client given its options then works without
 * `--allow-env`, and a library never prompts for a permission.
 */
export function readEnvironment(name: string): string | undefined {
  if (!mayReadEnvironment(name)) return undefined;
  let value: string | undefined;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim();
  } catch {
    // A runtime that refuses the read (a permission it checks on access) has no value to give.
    return undefined;
  }
  return value ? value : undefined;
}

interface DenoPermissions {
  querySync?(descriptor: { name: "env"; variable: string }): { state: string };
}

/** Deno's permission to read `name`, asked without prompting; other runtimes need none. */
function mayReadEnvironment(name: string): boolean {
  const permissions = (globalThis as { Deno?: { permissions?: DenoPermissions } }).Deno?.permissions;
  if (typeof permissions?.querySync !== "function") return true;
  try {
    return permissions.querySync({ name: "env", variable: name }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * A base URL given as an option, checked when the client is made: an absolute http(s) URL without
 * credentials (they would be refused by fetch on every call, with the password in the message).
 * The message names the option and never quotes a URL that holds a password.
 */
export function checkBaseUrl(key: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidRequestError(`${key} must be an absolute http(s) URL, got ${JSON.stringify(url.includes("@") ? sanitizeUrl(url) : url)}`, { field: key });
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new InvalidRequestError(`${key} must be an http(s) URL, got the scheme ${JSON.stringify(parsed.protocol)}`, { field: key });
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new InvalidRequestError(`${key} must not hold credentials (user:password@): the client sends its API key instead`, { field: key });
  }
  return url;
}

/**
 * `maxResponseBytes` is a whole number of bytes, 1 or more (`Infinity`: no limit). Anything else is
 * refused, naming the option: NaN would compare false with every size and silently mean no limit.
 */
export function checkMaxResponseBytes(value: number | undefined): void {
  if (value === undefined || value === Infinity || (Number.isSafeInteger(value) && value > 0)) return;
  throw new InvalidRequestError(`maxResponseBytes must be a whole number of bytes, 1 or more (Infinity allowed), not ${typeof value === "number" ? String(value) : typeof value}`, {
    field: "maxResponseBytes",
  });
}

/** Levels of the logging variable already said to be unknown: said once per process, not per client. */
const unknownLevelsSaid = new Set<string>();

/**
 * The logger the environment asks for when the app gives none: `debug` writes every attempt and
 * warning to stderr, `warn` the warnings only, `off` (or unset) nothing. Its lines are the client's
 * log lines, credentials already blanked; a level it does not know is said once and logs nothing.
 */
export function environmentLogger(variable: string | undefined, name: string | undefined): Logger | undefined {
  const value = variable === undefined ? undefined : readEnvironment(variable);
  if (value === undefined) return undefined;
  const write = (message: string, fields?: Record<string, unknown>): void => console.error(fields === undefined ? message : `${message} ${JSON.stringify(fields)}`);
  switch (value.toLowerCase()) {
    case "debug":
      return { debug: write, warn: write };
    case "warn":
      return { warn: write };
    case "off":
      return undefined;
  }
  if (!unknownLevelsSaid.has(value)) {
    unknownLevelsSaid.add(value);
    console.error(`${name ?? "client"}: ${variable}=${JSON.stringify(value)} is not a log level (debug, warn, off); logging stays off`);
  }
  return undefined;
}
