/**
 * What a hostile server echoes of a credential, in every spelling the client promises to blank,
 * and where a test looks for it afterwards: every surface of an error (message, stack, JSON,
 * util.inspect, String) down its cause chain, and log lines. Built here independently of
 * templates/runtime/redact.ts, so a test can catch the redactor missing a spelling.
 */
import util from "node:util";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const htmlEscape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const htmlNumeric = (text: string) => Array.from(text, (c) => `&#${c.codePointAt(0)};`).join("");
const htmlHex = (text: string) => Array.from(text, (c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`).join("");
const jsonUnicode = (text: string) => Array.from(text, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/**
 * Per spelling, the text a server sends back for the key `key` (sent as `Bearer <key>`), and for
 * basic credentials when given. Each is a whole echo: a sentence with the credential inside, so
 * base64 stretches start at every alignment.
 */
export function echoesOf(key: string, basic?: { username: string; password: string }): Record<string, string> {
  const bearer = `Bearer ${key}`;
  const echoes: Record<string, string> = {
    raw: key,
    bearer,
    "url-encoded": encodeURIComponent(bearer),
    "url-encoded lowercase": encodeURIComponent(bearer).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    "form-encoded": new URLSearchParams({ auth: bearer }).toString(),
    "json-escaped": JSON.stringify(bearer).slice(1, -1),
    "json-unicode": jsonUnicode(key),
    "html-escaped": htmlEscape(bearer),
    "html-numeric": htmlNumeric(key),
    "html-hex": htmlHex(key),
    "base64 key": base64(key),
    "base64 bearer": base64(bearer),
    "base64 sentence": base64(`rejected: ${bearer}`),
    "base64 sentence+1": base64(`rejected:: ${bearer}`),
    "base64url bearer": base64url(`x${bearer}`),
  };
  if (basic !== undefined) {
    const pair = `${basic.username}:${basic.password}`;
    echoes["basic header"] = `Basic ${base64(pair)}`;
    echoes["basic pair"] = pair;
    echoes["base64 basic header"] = base64(`Authorization: Basic ${base64(pair)}`);
    echoes["base64 password"] = base64(`pw=${basic.password}`);
  }
  return echoes;
}

/**
 * What to look for: each echo whole and its middle (a partial blanking leaves the middle), as it
 * is and as JSON and util.inspect would quote it, plus the key itself.
 */
export function needlesOf(key: string, echoes: readonly string[]): string[] {
  const needles = new Set<string>([key]);
  for (const echo of [key, ...echoes]) {
    const cut = Math.floor(echo.length / 5);
    const middle = echo.slice(cut, echo.length - cut);
    for (const text of [echo, middle.length >= 12 ? middle : echo]) {
      needles.add(text);
      needles.add(JSON.stringify(text).slice(1, -1));
      needles.add(util.inspect(text).slice(1, -1));
    }
  }
  return [...needles];
}

/** Every way an error shows itself, for it and each error or object down its `cause` chain. */
export function surfacesOf(error: unknown): string[] {
  const surfaces: string[] = [];
  const seen = new Set<unknown>();
  for (let at: unknown = error; typeof at === "object" && at !== null && !seen.has(at); at = (at as { cause?: unknown }).cause) {
    seen.add(at);
    const e = at as { message?: unknown; stack?: unknown };
    surfaces.push(String(e.message), String(e.stack), String(at), safeJson(at), util.inspect(at, { depth: 20, showHidden: true }), util.inspect(at, { depth: 20, colors: true }));
  }
  if (typeof error !== "object" || error === null) surfaces.push(String(error));
  return surfaces;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch (failure) {
    return `JSON.stringify threw: ${(failure as Error).message}`;
  }
}

/** The needles found in any of `texts`, each with where (a short excerpt around it). */
export function leaks(texts: readonly string[], needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const needle of needles) {
    for (const text of texts) {
      const at = text.indexOf(needle);
      if (at >= 0) {
        found.push(`${JSON.stringify(needle)} in …${text.slice(Math.max(0, at - 40), at + needle.length + 40)}…`);
        break;
      }
    }
  }
  return found;
}

/** A logger that keeps every line it is given, fields written out as JSON. */
export function recordingLogger(): { lines: string[]; debug(message: string, fields?: object): void; warn(message: string, fields?: object): void } {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: object) => lines.push(`${level} ${message} ${safeJson(fields)} ${util.inspect(fields, { depth: 20 })}`);
  return { lines, debug: keep("debug"), warn: keep("warn") };
}

/**
 * Every string an error holds in its own fields, enumerable or not (symbol-keyed too), at any
 * depth and down its `cause` chain: the values and the field names. What a reporter that reads own
 * properties (Sentry's extra data, pino's serialisers, a structured clone) may write out, past
 * toJSON and util.inspect.
 */
export function ownStrings(value: unknown): string[] {
  const strings: string[] = [];
  const seen = new Set<object>();
  const walk = (at: unknown): void => {
    if (typeof at === "string") strings.push(at);
    if ((typeof at !== "object" && typeof at !== "function") || at === null || seen.has(at)) return;
    seen.add(at);
    if (at instanceof Map) for (const [key, item] of at) [key, item].forEach(walk);
    if (at instanceof Set) for (const item of at) walk(item);
    for (const key of Reflect.ownKeys(at)) {
      strings.push(typeof key === "symbol" ? String(key.description) : key);
      const descriptor = Object.getOwnPropertyDescriptor(at, key)!;
      if ("value" in descriptor) walk(descriptor.value);
      else {
        try {
          walk(Reflect.get(at, key));
        } catch {
          // A getter that throws shows nothing.
        }
      }
    }
  };
  walk(value);
  return strings;
}
