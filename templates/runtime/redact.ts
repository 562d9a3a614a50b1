/**
 * Blanks secrets (the API key) out of text a server sent back: error bodies, headers, messages.
 * A server may echo a key in any spelling, or cut short, so this matches more than the plain text.
 * Every live client's credentials are known here too, so that every error the library makes can
 * blank them (error-base.ts), whoever built it.
 */

/** What a secret is replaced with. */
const REDACTED = "[REDACTED]";

/** The shortest start of a secret (in characters of it) blanked at the end of a cut text: shorter ones are too likely by chance and tell little. */
const MIN_SECRET_TAIL = 4;

/**
 * Replaces every occurrence of each non-empty secret with `[REDACTED]`. A server may echo a key
 * percent-encoded (in a URL), escaped (in JSON or HTML) or in base64 (a header or body it encoded,
 * `Bearer <key>` or `user:password` included), wholly or in part and with hex digits in either
 * case, so each character is matched in any of those spellings, and its base64 in a few
 * (base64Spellings). With `mayBeCut` (a raw body, kept only up to 64 KiB or cut by a dropped
 * connection) a start of a secret, MIN_SECRET_TAIL characters of it or more, ending the text is
 * blanked too, even one cut inside an escape. Matched by hand, not by a regular expression built
 * from the key: a long key makes one too deep to compile, and overlapping spellings (`\`, `\\`)
 * make it backtrack.
 */
export function redactSecrets(text: string, secrets: readonly string[], options: { mayBeCut?: boolean } = {}): string {
  let result = text;
  const given = [...new Set(secrets)].filter((s) => s.length > 0);
  if (given.length === 0) return result;
  // Longest first, so a secret containing another is replaced whole.
  for (const secret of given.sort((a, b) => b.length - a.length)) {
    result = redactSpelled(result, spellingsOf(secret), options.mayBeCut === true) ?? redactLiteral(result, secret);
  }
  const encoded = new Set<string>();
  for (const secret of given) for (const spelling of base64Spellings(secret)) encoded.add(spelling);
  for (const spelling of [...encoded].sort((a, b) => b.length - a.length)) result = result.split(spelling).join(REDACTED);
  return result;
}

/** The credentials of every live client, each list held weakly: a client dropped takes its keys along. */
const registered = new Set<WeakRef<readonly string[]>>();

/**
 * Makes `secrets` (a list that may still grow, as refreshed tokens join it) blanked out of every
 * error the library makes from now on, as long as the list itself is alive.
 */
export function registerSecrets(secrets: readonly string[]): void {
  registered.add(new WeakRef(secrets));
  // An app that makes clients and never fails would otherwise keep every dropped one's reference.
  if (registered.size >= pruneAt) pruneAt = Math.max(64, 2 * liveSecrets().length);
}

let pruneAt = 64;

/** The lists still alive, dropping the references to the others. */
function liveSecrets(): Array<readonly string[]> {
  const live: Array<readonly string[]> = [];
  for (const ref of registered) {
    const list = ref.deref();
    if (list === undefined) registered.delete(ref);
    else live.push(list);
  }
  return live;
}

/** `text` with the credentials of every live client blanked, in any spelling. */
export function redactRegisteredSecrets(text: string, options: { mayBeCut?: boolean } = {}): string {
  if (registered.size === 0 || text === "") return text;
  // A credential this short would blank ordinary words in every error of the process; the errors
  // of its own client's calls are still redacted of it by the transport.
  return redactSecrets(text, liveSecrets().flat().filter((secret) => secret.length >= MIN_REGISTERED_SECRET_CHARS), options);
}

/** The shortest credential blanked from every error of the process (see above). */
const MIN_REGISTERED_SECRET_CHARS = 8;

/** The shortest stretch of base64 blanked: shorter ones are too likely by chance (a short key has none). */
const MIN_BASE64_CHARS = 8;

const base64Cache = new Map<string, string[]>();

/**
 * The base64 characters (standard and URL-safe alphabets) that encode `secret` alone wherever it
 * stands in an encoded text: the text's bytes before it shift it by 0, 1 or 2 bytes within a
 * 3-byte group, and each shift gives one stretch (its edges, shared with the neighbours, left out).
 * Each as it is, percent-encoded (`+`, `/`, `=` escaped, hex digits in either case) and with `/`
 * JSON-escaped: matched as plain text, base64 being unlikely to be spelled character by character,
 * and a match by hand on text such as `zzzz…` too slow for so many secrets.
 */
function base64Spellings(secret: string): string[] {
  const cached = base64Cache.get(secret);
  if (cached !== undefined) return cached;
  const bytes = new TextEncoder().encode(secret);
  const spellings = new Set<string>();
  for (const shift of [0, 1, 2]) {
    let binary = "\0".repeat(shift);
    for (const byte of bytes) binary += String.fromCharCode(byte);
    // Base64 character i holds bits 6i..6i+5: keep those that lie within the secret's bits.
    const stretch = btoa(binary).slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (stretch.length < MIN_BASE64_CHARS) continue;
    for (const alphabet of [stretch, stretch.replace(/\+/g, "-").replace(/\//g, "_")]) {
      const percent = encodeURIComponent(alphabet);
      spellings.add(alphabet).add(percent).add(percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())).add(alphabet.replace(/\//g, "\\/"));
    }
  }
  const result = [...spellings];
  if (base64Cache.size >= 64) base64Cache.clear();
  base64Cache.set(secret, result);
  return result;
}

/**
 * The plain spellings only (as it is, percent-encoded, JSON- or HTML-escaped): what is left when a
 * text and a key (a long periodic one, such as a run of `\`) would cost the full matcher too much.
 */
function redactLiteral(text: string, secret: string): string {
  let result = text;
  const html = secret.replace(/[&<>"']/g, (character) => HTML_NAMED_ESCAPES[character]!);
  const spellings = [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), html])];
  for (const spelling of spellings.sort((a, b) => b.length - a.length)) result = result.split(spelling).join(REDACTED);
  return result;
}

/** One way to write a character: `text`, compared ignoring ASCII case when `anyCase` (hex escapes, kept lowercase). */
interface Spelling {
  text: string;
  anyCase: boolean;
}

/** A secret's spellings per character, and the code units any spelling of it can start with. */
interface SpelledSecret {
  characters: Spelling[][];
  starts: Set<number>;
}

const spellingCache = new Map<string, SpelledSecret>();

/** Per character of `secret` (code points), its spellings (characterSpellings). */
function spellingsOf(secret: string): SpelledSecret {
  const cached = spellingCache.get(secret);
  if (cached !== undefined) return cached;
  const characters = Array.from(secret, characterSpellings);
  const starts = new Set<number>();
  for (const { text, anyCase } of characters[0] ?? []) {
    starts.add(text.charCodeAt(0));
    if (anyCase) starts.add(text.toUpperCase().charCodeAt(0));
  }
  const spelled = { characters, starts };
  // Clients are few and keys fixed: the cache stays small; a bound keeps it so anyway.
  if (spellingCache.size >= 16) spellingCache.clear();
  spellingCache.set(secret, spelled);
  return spelled;
}

const characterCache = new Map<string, Spelling[]>();

/**
 * One character's spellings: itself, percent-encoded (UTF-8), `\uXXXX`, its JSON short escape,
 * its JSON pointer escape (`~1`), `+` for a space, and as HTML writes it (`&#39;`, `&#039;`,
 * `&#x27;`, `&apos;`). Shared between secrets.
 */
function characterSpellings(character: string): Spelling[] {
  const cached = characterCache.get(character);
  if (cached !== undefined) return cached;
  const code = character.codePointAt(0)!;
  const spellings: Spelling[] = [
    { text: character, anyCase: false },
    { text: Array.from(new TextEncoder().encode(character), (byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""), anyCase: true },
    { text: Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""), anyCase: true },
    { text: `&#${code};`, anyCase: false },
    { text: `&#x${code.toString(16)};`, anyCase: true },
  ];
  if (code < 100) spellings.push({ text: `&#${String(code).padStart(3, "0")};`, anyCase: false });
  const short = JSON_SHORT_ESCAPES[character];
  if (short !== undefined) spellings.push({ text: short, anyCase: false });
  const named = HTML_NAMED_ESCAPES[character];
  if (named !== undefined) spellings.push({ text: named, anyCase: true });
  // A field name becomes a segment of a JSON pointer (a validation problem's path).
  if (character === "~" || character === "/") spellings.push({ text: character === "~" ? "~0" : "~1", anyCase: false });
  if (character === " ") spellings.push({ text: "+", anyCase: false });
  if (characterCache.size >= 4096) characterCache.clear();
  characterCache.set(character, spellings);
  return spellings;
}

const HTML_NAMED_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

const JSON_SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Comparisons the matcher may make per character of text before giving way to `redactLiteral`. */
const MATCH_WORK_PER_CHARACTER = 64;

/** The text with the secret blanked; undefined when it would take more work than the budget. */
function redactSpelled(text: string, { characters, starts }: SpelledSecret, mayBeCut: boolean): string | undefined {
  const budget = { left: MATCH_WORK_PER_CHARACTER * (text.length + 64) };
  let out = "";
  let copied = 0;
  for (let start = 0; start < text.length; start++) {
    if (!starts.has(text.charCodeAt(start))) continue;
    const match = matchAt(text, start, characters, mayBeCut, budget);
    if (budget.left < 0) return undefined;
    if (match === undefined) continue;
    // Of the ends a match can have, the first where the secret begins again (`a\` then `\u0061\`
    // must not lose its second start to the first's longer spelling); otherwise the furthest.
    let end = match.ends[match.ends.length - 1]!;
    for (const candidate of match.ends.slice(0, -1)) {
      if (candidate < text.length && starts.has(text.charCodeAt(candidate)) && matchAt(text, candidate, characters, false, budget)?.whole) {
        end = candidate;
        break;
      }
    }
    out += text.slice(copied, start) + REDACTED;
    copied = end;
    if (!match.whole) break;
    start = end - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * The secret spelled from `start`: `whole`, with every end its spellings can have there (ascending),
 * or, with `mayBeCut`, a start of it ending the text after at least MIN_SECRET_TAIL whole
 * characters of the secret. Every end reachable after each character is kept, so nothing backtracks.
 */
function matchAt(text: string, start: number, characters: Spelling[][], mayBeCut: boolean, budget: { left: number }): { ends: number[]; whole: boolean } | undefined {
  let reached = [start];
  let textEndsInside = false;
  for (let index = 0; index < characters.length; index++) {
    const spellings = characters[index]!;
    const next: number[] = [];
    for (const at of reached) {
      for (const spelling of spellings) {
        budget.left -= 1;
        const length = matchedLength(text, at, spelling);
        if (length === spelling.text.length) {
          if (!next.includes(at + length)) next.push(at + length);
        } else if (mayBeCut && index >= MIN_SECRET_TAIL && at + length === text.length) {
          textEndsInside = true;
        }
      }
    }
    if (next.length === 0 || budget.left < 0) return textEndsInside ? { ends: [text.length], whole: false } : undefined;
    reached = next;
  }
  return { ends: reached.sort((a, b) => a - b), whole: true };
}

/** How many characters of `spelling` the text holds from `at` (fewer where it differs or ends). */
function matchedLength(text: string, at: number, spelling: Spelling): number {
  const expected = spelling.text;
  let i = 0;
  for (; i < expected.length && at + i < text.length; i++) {
    let code = text.charCodeAt(at + i);
    if (spelling.anyCase && code >= 65 && code <= 90) code += 32;
    if (code !== expected.charCodeAt(i)) break;
  }
  return i;
}
