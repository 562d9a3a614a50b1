/**
 * Code fragments for the emitters. A fragment is text plus the identifiers it references
 * (parameters, locals, labels, module-level declarations, runtime helpers), so whether a parameter
 * or label is used, which declarations a module keeps and which helpers it imports are known
 * without reading generated text again.
 *
 * `code` builds a fragment: an interpolated fragment brings its names along, a string becomes a
 * string literal and a number a number literal, so contract text can only reach code as data.
 * `Block` is a list of statements that knows when it ends in an unconditional jump
 * (`return false;`, `break L1;`) so nothing unreachable is emitted after it, and which drops labels
 * no emitted `break` uses: generated code compiles cleanly even with `allowUnreachableCode: false`
 * and `allowUnusedLabels: false`.
 */
import { numberLiteral, stringLiteral } from "../common/escape.ts";

/** A piece of generated code and the identifiers it references. */
export class Code {
  constructor(
    readonly text: string,
    readonly names: readonly string[] = [],
  ) {}
}

/** An identifier of generated code (a parameter, local, label, declaration or helper). */
export function name(text: string): Code {
  return new Code(text, [text]);
}

/** Code that references no identifier the emitter tracks. */
export function raw(text: string): Code {
  return new Code(text);
}

/** A template tag: fragments keep their names, strings become string literals, numbers number literals. */
export function code(strings: TemplateStringsArray, ...values: readonly (Code | string | number)[]): Code {
  let text = strings[0] as string;
  const names: string[] = [];
  values.forEach((value, index) => {
    if (value instanceof Code) {
      text += value.text;
      for (const used of value.names) names.push(used);
    } else {
      text += typeof value === "string" ? stringLiteral(value) : numberLiteral(value);
    }
    text += strings[index + 1] as string;
  });
  return new Code(text, names);
}

/** The fragments one after another, `separator` (plain text) between them. */
export function join(parts: readonly Code[], separator: string): Code {
  return new Code(
    parts.map((part) => part.text).join(separator),
    parts.flatMap((part) => part.names),
  );
}

/** Where a failed check goes in boolean mode: `return false;` or `break L3;`. */
export interface Jump {
  statement: Code;
  /** "return" or the label the statement breaks to. */
  target: string;
}

export const RETURN_FALSE: Jump = { statement: raw("return false;"), target: "return" };

export function breakTo(label: Code): Jump {
  return { statement: code`break ${label};`, target: label.text };
}

const CLOSE = raw("}");
const ELSE = raw("} else {");

export class Block {
  /** The statements' lines, unindented; `depths` holds each one's nesting below the block. */
  readonly lines: string[] = [];
  readonly depths: number[] = [];
  /** The identifiers the kept statements reference. */
  readonly names = new Set<string>();
  /** Set when the block ends in an unconditional jump: its target. */
  exit: string | undefined;

  get isEmpty(): boolean {
    return this.lines.length === 0;
  }

  /** Whether a kept statement references `name`. */
  uses(name: Code): boolean {
    return this.names.has(name.text);
  }

  /** Statements that always complete normally. */
  add(...lines: readonly Code[]): this {
    if (this.exit !== undefined) return this;
    for (const line of lines) {
      this.lines.push(line.text);
      this.depths.push(0);
      for (const used of line.names) this.names.add(used);
    }
    return this;
  }

  /** An unconditional jump: anything added afterwards is dropped. */
  jump(jump: Jump): this {
    if (this.exit !== undefined) return this;
    this.add(jump.statement);
    this.exit = jump.target;
    return this;
  }

  /** Another block's statements, in sequence. */
  append(other: Block): this {
    if (this.exit !== undefined) return this;
    this.take(other, 0);
    this.takeNames(other);
    this.exit = other.exit;
    return this;
  }

  /** `head { inner } tail`: a conditional or loop; the whole never counts as a jump. */
  wrap(head: Code, inner: Block, tail: Code = CLOSE): this {
    if (inner.isEmpty || this.exit !== undefined) return this;
    return this.add(head).nest(inner).add(tail);
  }

  /** `head { statement } else { otherwise }`, the `else` left out when `otherwise` is empty. */
  ifElse(head: Code, statement: Code, otherwise: Block): this {
    this.add(head, code`  ${statement}`);
    if (otherwise.isEmpty) return this.add(CLOSE);
    return this.add(ELSE).nest(otherwise).add(CLOSE);
  }

  /**
   * `label: { inner }` when a `break label` inside uses the label, else a plain block. The block
   * jumps on when the inner one ends in a jump to somewhere outside it.
   */
  labeled(label: Code, inner: Block): this {
    if (inner.isEmpty || this.exit !== undefined) return this;
    // A `break label` that was emitted (labels are unique per function) lets the block complete.
    const used = inner.uses(label);
    this.add(raw(used ? `${label.text}: {` : "{"));
    this.nest(inner);
    this.add(CLOSE);
    if (inner.exit !== undefined && inner.exit !== label.text && !used) this.exit = inner.exit;
    return this;
  }

  /**
   * The lines indented `depth` levels (two spaces each) below the block. Indentation is applied
   * here, once: nesting only counts levels, so deep schemas do not copy their lines at each level.
   */
  indented(depth: number): string[] {
    return this.lines.map((line, index) => (line === "" ? line : "  ".repeat(depth + this.depths[index]!) + line));
  }

  /** The inner block's statements one level deeper. */
  private nest(inner: Block): this {
    if (this.exit !== undefined) return this;
    this.take(inner, 1);
    this.takeNames(inner);
    return this;
  }

  /** Another block's lines, `deeper` levels further in (a loop, never `push(...lines)`: no argument limit). */
  private take(other: Block, deeper: number): void {
    for (let index = 0; index < other.lines.length; index++) {
      this.lines.push(other.lines[index]!);
      this.depths.push(other.depths[index]! + deeper);
    }
  }

  private takeNames(other: Block): void {
    for (const used of other.names) this.names.add(used);
  }
}

/** `const x = value;` before `inner` when `inner` reads `x`. */
export function bind(x: Code, value: Code, inner: Block): Block {
  if (inner.isEmpty || !inner.uses(x)) return inner;
  return new Block().add(code`const ${x} = ${value};`).append(inner);
}

export function indent(lines: readonly string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : `${by}${line}`));
}

/** Per generated function: fresh local names and labels. */
export class Scope {
  private counter = 0;

  local(prefix: string): Code {
    this.counter += 1;
    return name(`${prefix}${this.counter}`);
  }
}

/** A module-level declaration of the emitted code: its text (lines without the last newline), the name it declares and the names it references. */
export interface Declaration {
  name: string;
  text: string;
  names: Iterable<string>;
}

/** `function name(params) { body }` (JavaScript: the validators are emitted without types) as a declaration. */
export function functionDeclaration(declared: string, params: Code, body: Block): Declaration {
  return {
    name: declared,
    // One string per declaration, not one per line: a large contract's module has millions of lines.
    text: [`function ${declared}(${params.text}) {`, ...body.indented(1), "}"].join("\n"),
    names: [...params.names, ...body.names],
  };
}
