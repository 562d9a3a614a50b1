/**
 * A tiny statement builder for the validator emitter. It knows when a block ends in an
 * unconditional jump (`return false;`, `break L1;`) so nothing unreachable is emitted after it,
 * and it drops labels no emitted `break` uses: generated code compiles cleanly even with
 * `allowUnreachableCode: false` and `allowUnusedLabels: false`.
 *
 * Only code built by the emitter goes in here; contract text arrives already escaped
 * (`stringLiteral`, `identifier`).
 */

/** Where a failed check goes in boolean mode: `return false;` or `break L3;`. */
export interface Jump {
  statement: string;
  /** "return" or the label the statement breaks to. */
  target: string;
}

export const RETURN_FALSE: Jump = { statement: "return false;", target: "return" };

export function breakTo(label: string): Jump {
  return { statement: `break ${label};`, target: label };
}

export class Block {
  readonly lines: string[] = [];
  /** Set when the block ends in an unconditional jump: its target. */
  exit: string | undefined;

  get isEmpty(): boolean {
    return this.lines.length === 0;
  }

  /** Statements that always complete normally. */
  add(...lines: string[]): this {
    if (this.exit === undefined) this.lines.push(...lines);
    return this;
  }

  /** An unconditional jump: anything added afterwards is dropped. */
  jump(jump: Jump): this {
    if (this.exit === undefined) {
      this.lines.push(jump.statement);
      this.exit = jump.target;
    }
    return this;
  }

  /** Another block's statements, in sequence. */
  append(other: Block): this {
    if (this.exit === undefined) {
      this.lines.push(...other.lines);
      this.exit = other.exit;
    }
    return this;
  }

  /** `head { inner } tail`: a conditional or loop; the whole never counts as a jump. */
  wrap(head: string, inner: Block, tail = "}"): this {
    if (inner.isEmpty) return this;
    return this.add(head, ...indent(inner.lines), tail);
  }

  /**
   * `label: { inner }` when a `break label` inside uses the label, else a plain block. The block
   * jumps on when the inner one ends in a jump to somewhere outside it.
   */
  labeled(label: string, inner: Block): this {
    if (inner.isEmpty || this.exit !== undefined) return this;
    // A `break label` that was emitted (labels are unique per function) lets the block complete.
    const used = usesName(inner.lines, label);
    this.lines.push(used ? `${label}: {` : "{", ...indent(inner.lines), "}");
    if (inner.exit !== undefined && inner.exit !== label && !used) this.exit = inner.exit;
    return this;
  }
}

export function indent(lines: readonly string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : `${by}${line}`));
}

/** Per generated function: fresh local names and labels. */
export class Scope {
  private counter = 0;

  local(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  /** The jump's statement. */
  use(jump: Jump): string {
    return jump.statement;
  }
}

const STRING_LITERAL = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * Every identifier generated code mentions (string literals do not count): one pass, so callers
 * asking about many names do not rescan the code for each.
 */
export function identifiersIn(lines: readonly string[], into: Set<string> = new Set()): Set<string> {
  for (const line of lines) {
    for (const match of line.replace(STRING_LITERAL, '""').matchAll(WORD)) {
      // A run starting with a digit is a number (`1e5`), not a name.
      if (!/^[0-9]/.test(match[0])) into.add(match[0]);
    }
  }
  return into;
}

const WORD = /[\w$]+/g;

/** Whether generated code reads `name` (string literals do not count). */
export function usesName(lines: readonly string[], name: string): boolean {
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
  return lines.some((line) => word.test(line.replace(STRING_LITERAL, '""')));
}
