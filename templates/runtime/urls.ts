/**
 * URLs as errors and log lines show them: never with credentials (userinfo); in messages, only
 * the path.
 */

/** The URL without userinfo (query kept); unparseable input is returned with any `user:pass@` cut out. */
export function sanitizeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/?#@]*@/, "//");
  }
}

/** The path alone (no query, no fragment); unparseable input loses everything from `?` or `#`. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.replace(/[?#].*$/s, "");
  }
}
