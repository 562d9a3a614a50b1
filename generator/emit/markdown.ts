/**
 * Contract text in the package's Markdown (README, LICENSE): as plain text, inline Markdown, code
 * spans and code blocks that render as the same text, and Markdown an extension's templates
 * rendered (`RenderedMarkdown`), the only text a template inserts as it is.
 */
import type Handlebars from "handlebars";

/** Control characters (but tab), and the bidirectional overrides and isolates. */
const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const LINE_BREAKS = /\r\n?|\n|[\u2028\u2029]/g;

/** Markdown a template rendered with the escaping helpers: a template inserts it as it is. */
export class RenderedMarkdown {
  constructor(readonly text: string) {}
}

/** Contract text as one line of plain text (LICENSE): no hidden characters, no line breaks. */
export function plainText(text: string): string {
  return text.replace(HIDDEN, "").replace(LINE_BREAKS, " ").replace(/\s+/g, " ").trim();
}

/**
 * Contract text as inline Markdown that renders as the same text: every character Markdown or
 * the HTML inside it could read as syntax is backslash-escaped, so a summary cannot open a link,
 * a code span, an HTML tag or a new block.
 */
export function markdownText(text: string): string {
  return plainText(text)
    .replace(/[\\`*[\]<>|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|&(?=#?[A-Za-z0-9]+;)/g, "\\$&")
    .replace(/^(#|[-+](?=\s|$)|\d+[.)](?=\s|$))/, (lead) => (/^\d/.test(lead) ? `${lead.slice(0, -1)}\\${lead.slice(-1)}` : `\\${lead}`));
}

/**
 * A description as one paragraph of inline Markdown, keeping its code spans, emphasis and links
 * (OpenAPI descriptions are CommonMark) but never HTML nor a new block: text with `<` or `>` is
 * escaped entirely, and a leading marker that would start a heading, list, quote or fence is escaped.
 */
export function markdownInline(text: string): string {
  const line = plainText(text);
  if (/[<>]/.test(line)) return markdownText(line);
  return line.replace(/^(#|>|[-+*](?=\s|$)|\d+[.)](?=\s|$)|`{3,}|~{3,})/, (lead) => (/^\d/.test(lead) ? `${lead.slice(0, -1)}\\${lead.slice(-1)}` : `\\${lead}`));
}

/** A Markdown code span holding `text` verbatim: the fence is longer than any run of backticks inside. */
export function markdownCode(text: string): string {
  const line = plainText(text);
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A fenced code block holding `code` verbatim, whatever backticks it contains. */
export function markdownCodeBlock(language: string, code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code.replace(HIDDEN, "").replace(/[\u2028\u2029]/g, "\n")}\n${fence}`;
}

/**
 * `{{md text}}`, `{{mdInline text}}`, `{{code text}}`, `{{codeBlock "ts" code}}`, `{{plain text}}`,
 * and `{{rendered markdown}}` for a `RenderedMarkdown`: each returns a SafeString.
 */
export function registerMarkdownHelpers(hb: typeof Handlebars): void {
  const safe = (text: string) => new hb.SafeString(text);
  const required = (value: unknown, helper: string): string => {
    if (typeof value !== "string") throw new TypeError(`${helper}: expected a string, got ${typeof value}`);
    return value;
  };
  hb.registerHelper("md", (text: unknown) => safe(markdownText(required(text, "md"))));
  hb.registerHelper("mdInline", (text: unknown) => safe(markdownInline(required(text, "mdInline"))));
  hb.registerHelper("code", (text: unknown) => safe(markdownCode(required(text, "code"))));
  hb.registerHelper("plain", (text: unknown) => safe(plainText(required(text, "plain"))));
  hb.registerHelper("codeBlock", (language: unknown, code: unknown) => safe(markdownCodeBlock(required(language, "codeBlock"), required(code, "codeBlock"))));
  hb.registerHelper("rendered", (markdown: unknown) => {
    if (!(markdown instanceof RenderedMarkdown)) throw new TypeError("rendered: expected Markdown a template rendered");
    return safe(markdown.text);
  });
}
