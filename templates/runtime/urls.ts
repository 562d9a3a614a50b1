/**
 * URLs as errors and log lines show them: never with credentials (userinfo, or a key sent as a
 * query parameter); in messages, only the path.
 */
import { redactSecrets } from "./redact.js";

/**
 * The URL without userinfo (query kept, with `secrets` blanked in any spelling); unparseable input
 * is returned with any `user:pass@` cut out.
 */
export function sanitizeUrl(url: string, secrets?: readonly string[]): string {
  let clean: string;
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    clean = parsed.href;
  } catch {
    clean = url.replace(/\/\/[^/?#@]*@/, "//");
  }
  return secrets === undefined || secrets.length === 0 ? clean : redactSecrets(clean, secrets);
}

/** The path alone (no query, no fragment); unparseable input loses everything from `?` or `#`. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/s, "");
  }
}
