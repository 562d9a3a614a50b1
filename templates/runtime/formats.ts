/**
 * The `format` checks the validators run: RFC 3339 dates, RFC 4122 UUIDs, RFC 3986 URIs, RFC 5321
 * mailboxes. A module of their own because bundlers split by module: response schemas use them
 * more than request schemas do, and an app whose startup code checks no format does not ship them.
 */
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two ASCII digits at `at` as a number, or -1. */
function twoDigits(text: string, at: number): number {
  const high = text.charCodeAt(at) - 48;
  const low = text.charCodeAt(at + 1) - 48;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
}

/** RFC 3339 full-date (`2024-02-29`) at the start of `text`. */
function fullDateAt(text: string): boolean {
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  if (century < 0 || yearOfCentury < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1) return false;
  if (month !== 2) return day <= (DAYS_IN_MONTH[month] as number);
  const year = century * 100 + yearOfCentury;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (leap ? 29 : 28);
}

/** `format: date` — RFC 3339 full-date, e.g. `2024-02-29`. */
export function validDate(text: string): boolean {
  return text.length === 10 && fullDateAt(text);
}

/**
 * `format: date-time` — RFC 3339 date-time, e.g. `2026-06-01T12:00:00Z`, `…T15:59:60.5-08:00`:
 * "T"/"Z" in either case, a required offset, and a leap second only at 23:59 UTC.
 */
export function validDateTime(text: string): boolean {
  const length = text.length;
  if (length < 20 || !fullDateAt(text)) return false;
  const t = text.charCodeAt(10);
  if ((t !== 84 && t !== 116) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false;
  let at = 19;
  if (text.charCodeAt(at) === 46) {
    at++;
    const firstDigit = at;
    while (at < length) {
      const c = text.charCodeAt(at);
      if (c < 48 || c > 57) break;
      at++;
    }
    if (at === firstDigit) return false;
  }
  const zone = text.charCodeAt(at);
  let offset = 0;
  if (zone === 90 || zone === 122) {
    if (at + 1 !== length) return false;
  } else if (zone === 43 || zone === 45) {
    if (at + 6 !== length || text.charCodeAt(at + 3) !== 58) return false;
    const offsetHour = twoDigits(text, at + 1);
    const offsetMinute = twoDigits(text, at + 4);
    if (offsetHour < 0 || offsetHour > 23 || offsetMinute < 0 || offsetMinute > 59) return false;
    offset = (zone === 43 ? 1 : -1) * (offsetHour * 60 + offsetMinute);
  } else {
    return false;
  }
  if (second !== 60) return true;
  const utcMinutes = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `format: uuid` — RFC 4122 text form (any version or variant, either case, no `urn:uuid:`). */
export function validUuid(text: string): boolean {
  return text.length === 36 && UUID.test(text);
}

/* RFC 3986 appendix A, spelled out piece by piece. */
const HEX = "[0-9A-Fa-f]";
const PCT = `%${HEX}{2}`;
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = `${HEX}{1,4}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 =
  "(?:" +
  [
    `(?:${H16}:){6}${LS32}`,
    `::(?:${H16}:){5}${LS32}`,
    `(?:${H16})?::(?:${H16}:){4}${LS32}`,
    `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
    `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
    `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
    `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
    `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
    `(?:(?:${H16}:){0,6}${H16})?::`,
  ].join("|") +
  ")";
const IP_LITERAL = `\\[(?:${IPV6}|[Vv]${HEX}+\\.[${UNRESERVED}${SUB_DELIMS}:]+)\\]`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const AUTHORITY = `(?:(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*@)?(?:${IP_LITERAL}|${REG_NAME})(?::[0-9]*)?`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const QUERY_OR_FRAGMENT = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;
const SEGMENT_NZ_NC = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+`;
const RELATIVE_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?|${SEGMENT_NZ_NC}(?:/${SEGMENT})*)?`;
const URI_BODY = `[A-Za-z][A-Za-z0-9+\\-.]*:${HIER_PART}${QUERY_OR_FRAGMENT}`;

/** RFC 3986 `URI` as one regular expression; `validUri` is a faster equivalent (tested against it). */
export const URI_PATTERN = /* @__PURE__ */ new RegExp(`^${URI_BODY}$`);
/** RFC 3986 `URI-reference` (a URI or a relative reference); `validUriReference` is a faster equivalent. */
export const URI_REFERENCE_PATTERN = /* @__PURE__ */ new RegExp(`^(?:${URI_BODY}|${RELATIVE_PART}${QUERY_OR_FRAGMENT})$`);

/**
 * Per ASCII code: 1 unreserved or sub-delim, 2 ":", 4 "@", 8 "/", 16 scheme character after the first.
 * Built by a call marked pure, so a bundler drops it with the URI checks from apps that use none.
 */
const URI_CHARACTERS = /* @__PURE__ */ uriCharacterTable();
function uriCharacterTable(): Uint8Array {
  const table = new Uint8Array(128);
  const mark = (characters: string, bit: number): void => {
    for (let i = 0; i < characters.length; i++) table[characters.charCodeAt(i)]! |= bit;
  };
  mark("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=", 1);
  mark(":", 2);
  mark("@", 4);
  mark("/", 8);
  mark("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-.", 16);
  return table;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
}

/** Characters in [from, to) all have one of the `allowed` classes, or are "%" and two hex digits. */
function uriCharacters(text: string, from: number, to: number, allowed: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 37) {
      if (i + 2 >= to || !isHexDigit(text.charCodeAt(i + 1)) || !isHexDigit(text.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (c >= 128 || ((URI_CHARACTERS[c] as number) & allowed) === 0) {
      return false;
    }
  }
  return true;
}

/**
 * The common shape — `scheme://host[:port][/path][?query][#fragment]` with a plain host name and
 * no percent-encoding — as a regular expression that accepts a subset of RFC 3986 URIs: V8 runs
 * it several times faster than the full grammar.
 */
const COMMON_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9._~-]+(?::[0-9]*)?(?:\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?(?:\?[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?(?:#[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?$/;

/**
 * `format: uri` — an absolute RFC 3986 URI (scheme required; ASCII only, so no IRIs). A value
 * without a ":" after its first character (the usual mistake) is turned down before any regular
 * expression runs; then the common shape, then a scan with one table lookup per character;
 * bracketed IP literals go to the full grammar.
 */
export function validUri(text: string): boolean {
  const colon = text.indexOf(":");
  if (colon < 1) return false;
  if (COMMON_URI.test(text)) return true;
  const first = text.charCodeAt(0);
  if (!((first | 32) >= 97 && (first | 32) <= 122)) return false;
  for (let i = 1; i < colon; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || ((URI_CHARACTERS[c] as number) & 16) === 0) return false;
  }
  return scanHierarchy(text, colon + 1, URI_PATTERN);
}

/**
 * `format: uri-reference` — an RFC 3986 URI or relative reference (`/a/b`, `../c?d`, `#e`, `//host/p`,
 * or the empty string). A relative path's first segment may not hold a ":" (it would read as a scheme).
 */
export function validUriReference(text: string): boolean {
  if (validUri(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) break;
    if (c === 58) return false;
  }
  return scanHierarchy(text, 0, URI_REFERENCE_PATTERN);
}

/**
 * From `i` on: an optional "//" authority, then path, query and fragment. A bracketed IP literal
 * (rare) is left to `grammar`, the whole pattern.
 */
function scanHierarchy(text: string, i: number, grammar: RegExp): boolean {
  const length = text.length;
  if (text.charCodeAt(i) === 47 && text.charCodeAt(i + 1) === 47) {
    // authority = [ userinfo "@" ] host [ ":" port ], up to the first "/", "?" or "#"
    const start = i + 2;
    let end = start;
    let at = -1;
    for (; end < length; end++) {
      const c = text.charCodeAt(end);
      if (c === 47 || c === 63 || c === 35) break;
      if (c === 64) {
        if (at !== -1) return false;
        at = end;
      }
    }
    if (at !== -1 && !uriCharacters(text, start, at, 1 | 2)) return false;
    const host = at === -1 ? start : at + 1;
    if (text.charCodeAt(host) === 91) return grammar.test(text);
    let colon = host;
    while (colon < end && text.charCodeAt(colon) !== 58) colon++;
    if (!uriCharacters(text, host, colon, 1)) return false;
    for (let p = colon + 1; p < end; p++) {
      const c = text.charCodeAt(p);
      if (c < 48 || c > 57) return false;
    }
    i = end;
  }
  // path, then "?" query and "#" fragment: pchar, "/" and "?" (a second "#" is not allowed)
  let fragment = false;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37) {
      if (i + 2 >= length || !isHexDigit(text.charCodeAt(i + 1)) || !isHexDigit(text.charCodeAt(i + 2))) return false;
      i += 2;
    } else if (c === 63) {
      continue;
    } else if (c === 35) {
      if (fragment) return false;
      fragment = true;
    } else if (c >= 128 || ((URI_CHARACTERS[c] as number) & 15) === 0) {
      return false;
    }
  }
  return true;
}

const IPV4_ONLY = /* @__PURE__ */ new RegExp(`^${IPV4}$`);
const IPV6_ONLY = /* @__PURE__ */ new RegExp(`^${IPV6}$`);
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const QUOTED_LOCAL = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** `format: email` — RFC 5321 mailbox: `local@domain`, local a dot-atom or quoted string, domain a host name or an address literal. */
export function validEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at <= 0 || at === text.length - 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!(DOT_ATOM.test(local) || QUOTED_LOCAL.test(local))) return false;
  if (domain.charCodeAt(0) !== 91) return HOST_NAME.test(domain);
  if (domain.charCodeAt(domain.length - 1) !== 93) return false;
  const literal = domain.slice(1, -1);
  return literal.startsWith("IPv6:") ? IPV6_ONLY.test(literal.slice(5)) : IPV4_ONLY.test(literal);
}
