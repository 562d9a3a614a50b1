import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../templates/runtime/redact.ts";

describe("redactSecrets", () => {
  it("replaces every occurrence of every non-empty secret", () => {
    expect(redactSecrets("a key1 b key1 c key2", ["key1", "", "key2"])).toBe("a [REDACTED] b [REDACTED] c [REDACTED]");
  });

  it("replaces a longer secret whole even when it contains a shorter one", () => {
    expect(redactSecrets("x abcdef y", ["abc", "abcdef"])).toBe("x [REDACTED] y");
  });

  it("returns the text unchanged without secrets", () => {
    expect(redactSecrets("nothing here", [])).toBe("nothing here");
  });

  it("blanks a secret echoed percent-encoded or JSON-escaped", () => {
    const key = "k/ey+1=\\2";
    expect(redactSecrets(`url ?key=${encodeURIComponent(key)} body ${JSON.stringify({ key })}`, [key])).toBe(
      'url ?key=[REDACTED] body {"key":"[REDACTED]"}',
    );
  });

  it("blanks a secret echoed with lowercase percent-escapes, escaped slashes, \\u escapes or only partly encoded", () => {
    const key = "k/ey+1=é\\2";
    const spellings = [
      encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      key.replace("/", "\\/"),
      Array.from(key, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
      Array.from(key, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`).join(""),
      `k%2Fey+1%3d${encodeURIComponent("é")}\\\\2`,
      "k%2F%65y%2B1=\\u00e9\\\\2",
    ];
    for (const spelling of spellings) expect(redactSecrets(`echo [${spelling}] end`, [key]), spelling).toBe("echo [[REDACTED]] end");
    // A different key, or one spelled with a letter in the other case, is not the key.
    expect(redactSecrets("echo K/ey+1=é\\2", [key])).toBe("echo K/ey+1=é\\2");
  });

  const cut = { mayBeCut: true };

  it("blanks an encoded start of a secret where a cut text ends in it", () => {
    const key = "sk-live/0123456789";
    expect(redactSecrets(`echo ${encodeURIComponent(key).slice(0, 12)}`, [key], cut)).toBe("echo [REDACTED]");
    expect(redactSecrets(`echo ${encodeURIComponent(key).slice(0, 12).toLowerCase()}`, [key], cut)).toBe("echo [REDACTED]");
    expect(redactSecrets(`echo ${encodeURIComponent(key).slice(0, 12)} and more`, [key], cut)).toBe(`echo ${encodeURIComponent(key).slice(0, 12)} and more`);
  });

  it("blanks a start of a secret cut in the middle of an escape", () => {
    const key = "sk-live/0123456789";
    for (const end of ["sk-live%2", "sk-live%", "sk-live\\", "sk-live\\u00", `${Array.from("sk-li", (c) => `\\u00${c.charCodeAt(0).toString(16)}`).join("")}\\u0`]) {
      expect(redactSecrets(`echo ${end}`, [key], cut), end).toBe("echo [REDACTED]");
    }
  });

  it("blanks a start at the end only in a text that may be cut, and only after four characters of the key", () => {
    const key = "sk-live-abc123def456";
    // Parsed strings, headers and URLs are never cut: a sentence naming the key's prefix stays.
    expect(redactSecrets("API keys for this endpoint must start with sk-live", [key])).toBe("API keys for this endpoint must start with sk-live");
    // A cut body ending in a partial escape of some other text, or in under four characters of the key, stays.
    expect(redactSecrets('{"name":"Caf\\u00', [key], cut)).toBe('{"name":"Caf\\u00');
    expect(redactSecrets("see %73k", [key], cut)).toBe("see %73k");
    expect(redactSecrets("see %73k-l", [key], cut)).toBe("see [REDACTED]");
  });

  it("keeps back-to-back occurrences apart, whatever spelling each has", () => {
    expect(redactSecrets("KEYKEY KEY", ["KEY"])).toBe("[REDACTED][REDACTED] [REDACTED]");
    // `a\` may end after `\` or `\\`; the longer would swallow the next occurrence's `\`.
    expect(redactSecrets("a\\\\u0061\\", ["a\\"])).toBe("[REDACTED][REDACTED]");
    expect(redactSecrets('"a\\\\"', ["a\\"])).toBe('"[REDACTED]"');
  });

  it("handles keys of any length, and runs of overlapping spellings, without blowing up", () => {
    // A regular expression built from a 20,000-character key is too deep for V8 to compile.
    const long = `jwt.${"A".repeat(20_000)}`;
    expect(redactSecrets(`you sent ${long} and ${encodeURIComponent(long)}.`, [long])).toBe("you sent [REDACTED] and [REDACTED].");
    expect(redactSecrets(`cut ${long.slice(0, 9_000)}`, [long], cut)).toBe("cut [REDACTED]");
    // "\\" is itself, and the start of its JSON escape: a backtracking matcher takes minutes here.
    const slashes = `${"\\".repeat(24)}x`;
    expect(redactSecrets(`${"\\".repeat(200)}y`, [slashes])).toBe(`${"\\".repeat(200)}y`);
    expect(redactSecrets(`a ${JSON.stringify(slashes).slice(1, -1)} b`, [slashes])).toBe("a [REDACTED] b");
    // A periodic key over a text of its period: past the work budget, the plain spellings are still blanked.
    const periodic = `${"A".repeat(3_999)}B`;
    expect(redactSecrets(`${"A".repeat(65_536)} ${periodic}`, [periodic], cut)).toBe(`${"A".repeat(65_536)} [REDACTED]`);
    expect(redactSecrets(`${"\\".repeat(65_536)} ${JSON.stringify(`${"\\".repeat(100)}x`)}`, [`${"\\".repeat(100)}x`])).toBe(`${"\\".repeat(65_536)} "[REDACTED]"`);
    // No clock here: these took 16 s and 36 s before the budget, past vitest's 5 s limit per test.
  });

  it("blanks the start of a secret where a cut text ends in it, but not a few chance characters", () => {
    const key = "sk-live-0123456789";
    expect(redactSecrets(`you sent Bearer ${key.slice(0, 11)}`, [key], cut)).toBe("you sent Bearer [REDACTED]");
    expect(redactSecrets("ends in sk-", [key], cut)).toBe("ends in sk-");
  });

  it("blanks a secret echoed HTML-escaped: named, decimal (PHP's zero-padded too) and hex entities, any case", () => {
    const key = `k<e&y>"1'2`;
    const spellings = [
      "k&lt;e&amp;y&gt;&quot;1&#39;2",
      "k&LT;e&AMP;y&GT;&QUOT;1&apos;2",
      "k&lt;e&amp;y&gt;&quot;1&#039;2",
      Array.from(key, (c) => `&#${c.charCodeAt(0)};`).join(""),
      Array.from(key, (c) => `&#X${c.charCodeAt(0).toString(16).toUpperCase()};`).join(""),
    ];
    for (const spelling of spellings) expect(redactSecrets(`<p>you sent ${spelling}</p>`, [key]), spelling).toBe("<p>you sent [REDACTED]</p>");
    expect(redactSecrets("k&lt;e&amp;y&gt;", [key], cut)).toBe("[REDACTED]");
  });

  it("blanks a secret's base64 (standard or URL-safe) wherever it stands in an encoded text, and nothing shorter", () => {
    const key = "sk-live-0123456789abcdef";
    for (const before of ["", "x", "xy", "Bearer ", "Authorization: Bearer "]) {
      for (const encoding of ["base64", "base64url"] as const) {
        const encoded = Buffer.from(`${before}${key} and after`).toString(encoding);
        const redacted = redactSecrets(`echo ${encoded}`, [key]);
        expect(redacted, `${before}|${encoding}`).toContain("[REDACTED]");
        // What is left of the encoding decodes to no more than a character of the key at either edge.
        const left = redacted.slice("echo ".length).split("[REDACTED]");
        expect(left.join("").length, `${before}|${encoding}`).toBeLessThan(encoded.length - Buffer.from(key).toString("base64").length + 4);
      }
    }
    // Basic credentials: the pair's base64 is a secret of its own, and an encoding of the header is blanked too.
    const pair = "svc:pw-0123456789";
    const token = Buffer.from(pair).toString("base64");
    expect(redactSecrets(Buffer.from(`Authorization: Basic ${token}`).toString("base64"), [pair, token])).toContain("[REDACTED]");
    // A key too short to tell from chance in base64 is only matched as it is.
    expect(redactSecrets(Buffer.from("pin 1234 here").toString("base64"), ["1234"])).toBe(Buffer.from("pin 1234 here").toString("base64"));
  });

  it("blanks a secret in a JSON pointer (a field name in a validation problem's path)", () => {
    const key = "sk/live~0123456789";
    expect(redactSecrets("/pods/0/env/sk~1live~00123456789", [key])).toBe("/pods/0/env/[REDACTED]");
  });
});
