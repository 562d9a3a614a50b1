/**
 * The only ways contract text may become code. Contract text is untrusted: a
 * description or a property name must never end a comment, a string or a
 * declaration early (see the guide, "Emitting code safely").
 */
import type Handlebars from "handlebars";

/** Every line terminator JavaScript knows; left raw, U+2028/U+2029 end a `//` comment or break older parsers. */
const LINE_BREAKS = /\r\n?|[\u2028\u2029]/g;
/**
 * Control characters other than tab and newline, and the bidirectional overrides
 * and isolates that make code read differently from how it runs ("Trojan Source").
 */
const HIDDEN_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
/** Characters a string literal spells as `\uXXXX`: JSON.stringify leaves them raw. */
const UNESCAPED_BY_JSON = /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Words a generated identifier may not be: ECMAScript reserved words (strict
 * mode and modules included), names strict code cannot bind, TypeScript's
 * predefined type names (invalid as type names) and its declaration keywords.
 */
const RESERVED_WORDS = new Set([
  "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
  "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements", "import",
  "in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public",
  "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while",
  "with", "yield",
  "arguments", "eval", "undefined", "NaN", "Infinity",
  "any", "bigint", "boolean", "never", "number", "object", "string", "symbol", "unknown",
  "abstract", "as", "asserts", "constructor", "declare", "infer", "is", "keyof", "module", "namespace",
  "readonly", "satisfies", "type",
]);

/**
 * Inner text of a doc comment: line breaks normalised to "\n", hidden characters
 * removed, and every "*\/" broken up so the comment cannot end early. Surrounding
 * blank lines and trailing spaces are dropped. Each returned line goes after " * ".
 */
export function docComment(text: string | undefined): string {
  if (text === undefined) return "";
  const lines = text
    .replace(LINE_BREAKS, "\n")
    // Removed before breaking up "*/", so "*\u0000/" cannot turn into "*/" afterwards.
    .replace(HIDDEN_CHARACTERS, "")
    .replaceAll("*/", "*\\/")
    .split("\n")
    .map((line) => line.trimEnd());
  while (lines[0] === "") lines.shift();
  while (lines.at(-1) === "") lines.pop();
  return lines.join("\n");
}

/**
 * A complete `/** ... *\/` block, or "" when there is no text. `indent` prefixes
 * every line after the first, which sits wherever the caller puts it.
 */
export function jsDoc(text: string | undefined, indent = ""): string {
  const inner = docComment(text);
  if (inner === "") return "";
  const body = inner
    .split("\n")
    .map((line) => (line === "" ? `${indent} *` : `${indent} * ${line}`))
    .join("\n");
  return `/**\n${body}\n${indent} */`;
}

/** A double-quoted string literal with the same value as `value`, safe anywhere an expression goes. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(UNESCAPED_BY_JSON, unicodeEscape);
}

/**
 * JSON text (2-space indent) that is also a JavaScript expression nothing can
 * break out of. Evaluated as JavaScript, a "__proto__" member sets the prototype
 * (JSON.parse keeps it as data): use it for JSON files, or for code with data
 * that cannot hold such keys.
 */
export function jsonLiteral(value: unknown): string {
  const json: unknown = JSON.stringify(value, null, 2);
  if (typeof json !== "string") throw new TypeError(`cannot write ${typeof value} as JSON`);
  return json.replace(UNESCAPED_BY_JSON, unicodeEscape);
}

/** A finite number as code; -0 is written `0`, which compares equal anyway. */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
  return value === 0 ? "0" : String(value);
}

/** A JSON primitive (string, number, boolean or null) as code. */
export function primitiveLiteral(value: unknown): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return numberLiteral(value);
  return String(value);
}

/**
 * A property name for an interface or object type: bare when it is an identifier
 * name, otherwise quoted. `__proto__` is quoted so no reader mistakes it for the prototype.
 */
export function propertyKey(name: string): string {
  return IDENTIFIER_NAME.test(name) && name !== "__proto__" ? name : stringLiteral(name);
}

/**
 * A property name for an object value literal. There even a quoted `"__proto__": v`
 * sets the prototype instead of a property, so only the computed form is safe.
 */
export function propertyKeyForValue(name: string): string {
  return name === "__proto__" ? `[${stringLiteral(name)}]` : propertyKey(name);
}

export interface IdentifierOptions {
  /**
   * camel: `listPods`; pascal: `ListPods`. Without it, the text is kept as is
   * with each run of characters an identifier cannot hold replaced by "_".
   */
  case?: "camel" | "pascal";
}

/**
 * A valid TypeScript identifier that is not a reserved word, derived from any
 * text: a leading digit gets a "_" prefix, a reserved word a "_" suffix, and
 * text with no letters or digits becomes "_".
 */
export function identifier(name: string, options: IdentifierOptions = {}): string {
  const joined =
    options.case === undefined
      ? name.split(/[^A-Za-z0-9_$]+/).filter(Boolean).join("_")
      : joinWords(splitWords(name), options.case);
  if (joined === "") return "_";
  const safeStart = /^[0-9]/.test(joined) ? `_${joined}` : joined;
  return RESERVED_WORDS.has(safeStart) ? `${safeStart}_` : safeStart;
}

/**
 * `identifier` for each name, with later duplicates (and names in `taken`, such
 * as imports) given numeric suffixes: ["pod", "Pod"] → ["pod", "pod2"] in camel
 * case. Names that are unique keep their own form, whatever their position.
 * The result depends on the order of `names`: pass them in a stable order.
 */
export function uniqueIdentifiers(
  names: readonly string[],
  options: IdentifierOptions & { taken?: Iterable<string> } = {},
): string[] {
  const bases = names.map((name) => identifier(name, options));
  const used = new Set(options.taken);
  const result = bases.map((base) => {
    if (used.has(base)) return undefined;
    used.add(base);
    return base;
  });
  return result.map((claimed, index) => {
    if (claimed !== undefined) return claimed;
    const base = bases[index] ?? "_";
    // "v1" + 2 would read as "v12": separate the counter when the base ends in a digit.
    const separator = /[0-9]$/.test(base) ? "_" : "";
    let counter = 2;
    while (used.has(`${base}${separator}${counter}`)) counter += 1;
    const unique = `${base}${separator}${counter}`;
    used.add(unique);
    return unique;
  });
}

/**
 * Registers `doc`, `str`, `key`, `valueKey`, `ident` and `json`, each returning a
 * SafeString, so templates insert contract text only through these escapers:
 * `{{doc description indent=2}}`, `{{str value}}`, `{{key name}}`,
 * `{{valueKey name}}`, `{{ident name case="pascal"}}`, `{{json example}}`.
 */
export function registerHandlebarsHelpers(hb: typeof Handlebars): void {
  const safe = (code: string) => new hb.SafeString(code);
  hb.registerHelper("doc", (text: unknown, options: Handlebars.HelperOptions) =>
    safe(jsDoc(optionalString(text, "doc"), " ".repeat(indentWidth(options)))),
  );
  hb.registerHelper("str", (value: unknown) => safe(stringLiteral(requiredString(value, "str"))));
  hb.registerHelper("key", (name: unknown) => safe(propertyKey(requiredString(name, "key"))));
  hb.registerHelper("valueKey", (name: unknown) => safe(propertyKeyForValue(requiredString(name, "valueKey"))));
  hb.registerHelper("ident", (name: unknown, options: Handlebars.HelperOptions) =>
    safe(identifier(requiredString(name, "ident"), { case: identifierCase(options) })),
  );
  hb.registerHelper("json", (value: unknown, options: unknown) => {
    // Handlebars passes its options object last, so a lone argument means none was given.
    if (options === undefined) throw new TypeError("json: expected a value");
    return safe(jsonLiteral(value));
  });
}

/**
 * Refuses a template that inserts text unescaped: `{{{x}}}` and its equivalent
 * `{{&x}}` (with or without "~" whitespace control) bypass the helpers above.
 */
export function assertNoTripleStash(templateSource: string, fileName: string): void {
  const match = /\{\{~?[{&]/.exec(templateSource);
  if (!match) return;
  const before = templateSource.slice(0, match.index).split("\n");
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  throw new Error(
    `${fileName}:${line}:${column}: "${match[0]}" inserts text unescaped; use {{doc}}, {{str}}, {{key}}, {{valueKey}}, {{ident}} or {{json}}`,
  );
}

function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Words of arbitrary text, also split at case changes: "HTTPServer-id" → HTTP, Server, id. */
function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** Acronyms keep their case except at the start of a camel-case name: HTTPServer → httpServer. */
function joinWords(words: string[], wordCase: "camel" | "pascal"): string {
  return words
    .map((word, index) => {
      if (index > 0 || wordCase === "pascal") return word.charAt(0).toUpperCase() + word.slice(1);
      return word === word.toUpperCase() ? word.toLowerCase() : word.charAt(0).toLowerCase() + word.slice(1);
    })
    .join("");
}

function requiredString(value: unknown, helper: string): string {
  if (typeof value !== "string") throw new TypeError(`${helper}: expected a string, got ${describe(value)}`);
  return value;
}

function optionalString(value: unknown, helper: string): string | undefined {
  return value === undefined || value === null ? undefined : requiredString(value, helper);
}

function indentWidth(options: Handlebars.HelperOptions): number {
  const indent: unknown = options.hash["indent"] ?? 0;
  if (typeof indent !== "number" || !Number.isInteger(indent) || indent < 0) {
    throw new TypeError(`doc: indent must be a whole number of spaces, got ${describe(indent)}`);
  }
  return indent;
}

function identifierCase(options: Handlebars.HelperOptions): IdentifierOptions["case"] {
  const wordCase: unknown = options.hash["case"];
  if (wordCase === undefined || wordCase === "camel" || wordCase === "pascal") return wordCase;
  throw new TypeError(`ident: case must be "camel" or "pascal", got ${describe(wordCase)}`);
}

function describe(value: unknown): string {
  // A helper called without arguments receives only Handlebars' options object.
  if (value !== null && typeof value === "object" && "hash" in value) return "no argument";
  return value === null ? "null" : typeof value;
}
