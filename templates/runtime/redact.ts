/**
 * Blanks secrets (the API key) out of text a server sent back: error bodies, headers, messages.
 * A server may echo a key in any spelling, or cut short, so this matches more than the plain text.
 */

/** What a secret is replaced with. */
const REDACTED = "[REDACTED]";

/** The shortest start of a secret (in characters of it) blanked at the end of a cut text: shorter ones are too likely by chance and tell little. */
const MIN_SECRET_TAIL = 4;

/**
 * Replaces every occurrence of each non-empty secret with `[REDACTED]`. A server may echo a key
 * percent-encoded (in a URL) or escaped (in JSON), wholly or in part and with hex digits in either
 * case, so each character is matched in any of those spellings. With `mayBeCut` (a raw body, kept
 * only up to 64 KiB or cut by a dropped connection) a start of a secret, MIN_SECRET_TAIL characters
 * of it or more, ending the text is blanked too, even one cut inside an escape. Matched by hand,
 * not by a regular expression built from the key: a long key makes one too deep to compile, and
 * overlapping spellings (`\`, `\\`) make it backtrack.
 */
export function redactSecrets(text: string, secrets: readonly string[], options: { mayBeCut?: boolean } = {}): string {
  let result = text;
  // Longest first, so a secret containing another is replaced whole.
  for (const secret of [...new Set(secrets)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) {
    result = redactSpelled(result, spellingsOf(secret), options.mayBeCut === true) ?? redactLiteral(result, secret);
  }
  return result;
}

/**
 * The plain spellings only (as it is, percent-encoded, JSON-escaped): what is left when a text
 * and a key (a long periodic one, such as a run of `\`) would cost the full matcher too much.
 */
function redactLiteral(text: string, secret: string): string {
  let result = text;
  const spellings = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
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

/** Per character of `secret` (code points): itself, percent-encoded (UTF-8), `\uXXXX`, its JSON short escape, `+` for a space. */
function spellingsOf(secret: string): SpelledSecret {
  const cached = spellingCache.get(secret);
  if (cached !== undefined) return cached;
  const characters = Array.from(secret, (character) => {
    const spellings: Spelling[] = [
      { text: character, anyCase: false },
      { text: Array.from(new TextEncoder().encode(character), (byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""), anyCase: true },
      { text: Array.from({ length: character.length }, (_, i) => `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""), anyCase: true },
    ];
    const short = JSON_SHORT_ESCAPES[character];
    if (short !== undefined) spellings.push({ text: short, anyCase: false });
    if (character === " ") spellings.push({ text: "+", anyCase: false });
    return spellings;
  });
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
