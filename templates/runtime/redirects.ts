/**
 * Where a redirect sends a request, as fetch would follow it (WHATWG Fetch, "HTTP-redirect fetch").
 * The transport follows the redirects of a call that is not idempotent itself (attempts.ts), so
 * that it knows which hop a failure came from: only a refusal on the first proves nothing was sent.
 */

/** As many as fetch follows. */
export const MAX_REDIRECTS = 20;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Dropped with the body when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
/** Dropped on a redirect to another origin, as fetch drops them. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

/** One request of a chain of redirects. */
export interface Hop {
  url: string;
  method: string;
  headers: Headers;
  /** Whether it sends the call's body (a redirect to a GET drops it). */
  withBody: boolean;
}

/**
 * The request a redirect asks for, or undefined when `response` is not one to follow (not a
 * redirect status, or no `Location`). Throws a TypeError, a network error to fetch, when the
 * `Location` is not an http(s) URL; its message does not quote it (it may carry a query key).
 */
export function nextHop(response: Response, from: Hop): Hop | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (location === null) return undefined;
  let url: URL;
  try {
    url = new URL(location, from.url);
  } catch {
    throw new TypeError(`the ${response.status} redirect's Location is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`the ${response.status} redirect leads to a ${url.protocol} URL`);
  const headers = new Headers(from.headers);
  let { method, withBody } = from;
  const status = response.status;
  if ((status === 303 && method !== "GET" && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    withBody = false;
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (url.origin !== new URL(from.url).origin) {
    for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  }
  return { url: url.href, method, headers, withBody };
}
