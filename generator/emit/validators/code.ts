/**
 * A tiny statement builder for the validator emitter. It knows when a block ends in an
 * unconditional jump (`return false;`, `break L1;`) so nothing unreachable is emitted after it,
 * and it drops labels no emitted `break` uses: generated code compiles cleanly even with
 * `allowUnreachableCode: false` and `allowUnusedLabels: false`.
 *
 * Only code built by the emitter goes in here; contract text arrives already escaped
 * (`stringLiteral`, `identifier`).
 */

/**
 * Counts of the emitter's repeated steps, for the complexity tests (test/validators/scaling.test.ts):
 * each must grow in proportion to the document, never with its square. Never reset here.
 */
export const emitterWork = {
  /** Lines of generated code looked at by `usesName`, `identifiersIn` and `forEachIdentifier`. */
  linesScanned: 0,
  /** Schemas entered or popped while finding defaults: which units have some, which are at the top level (validators/defaults.ts). */
  defaultsSteps: 0,
  /** Stems tried for units (validators/compile.ts, `unitAt`). */
  stemProbes: 0,
};

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
    if (this.exit === undefined) for (const line of lines) this.lines.push(line);
    return this;
  }

  /**
   * Statements that always complete normally, one level deeper (the body of a `} else {`). Takes
   * the array itself: a large schema's block has more lines than a call takes arguments.
   */
  addIndented(lines: readonly string[]): this {
    if (this.exit === undefined) pushIndented(this.lines, lines);
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
      for (const line of other.lines) this.lines.push(line);
      this.exit = other.exit;
    }
    return this;
  }

  /** `head { inner } tail`: a conditional or loop; the whole never counts as a jump. */
  wrap(head: string, inner: Block, tail = "}"): this {
    if (inner.isEmpty) return this;
    return this.add(head).addIndented(inner.lines).add(tail);
  }

  /**
   * `label: { inner }` when a `break label` inside uses the label, else a plain block. The block
   * jumps on when the inner one ends in a jump to somewhere outside it.
   */
  labeled(label: string, inner: Block): this {
    if (inner.isEmpty || this.exit !== undefined) return this;
    // A `break label` that was emitted (labels are unique per function) lets the block complete.
    const used = usesName(inner.lines, label);
    this.lines.push(used ? `${label}: {` : "{");
    pushIndented(this.lines, inner.lines);
    this.lines.push("}");
    if (inner.exit !== undefined && inner.exit !== label && !used) this.exit = inner.exit;
    return this;
  }
}

export function indent(lines: readonly string[], by = "  "): string[] {
  return lines.map((line) => (line === "" ? line : `${by}${line}`));
}

/** `indent(lines)` pushed onto `into` one by one (never `push(...lines)`: no argument limit). */
function pushIndented(into: string[], lines: readonly string[]): void {
  for (const line of lines) into.push(line === "" ? line : `  ${line}`);
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

/*
 * Identifiers in generated code. String literals do not count: they are double-quoted, on one
 * line, with backslash escapes (what `stringLiteral` writes; the pattern /"(?:[^"\\\n]|\\.)*"/).
 * A quote that starts no complete literal is an ordinary character. An identifier is a run of
 * [A-Za-z0-9_$] that does not start with a digit (a run that does is a number, `1e5`).
 *
 * A hand-written scanner rather than regular expressions: it runs over every line the emitter
 * writes (tens of megabytes for a large contract), without copying lines or allocating per
 * character.
 */

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;
}

/** Just past the closing quote of the literal opening at `start`, or -1 when none closes on the line. */
function literalEnd(line: string, start: number): number {
  for (let i = start + 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c === 10) return -1;
    if (c === 92) {
      // A backslash escapes any character but a line terminator (`.` in the pattern).
      if (i + 1 >= line.length) return -1;
      const next = line.charCodeAt(i + 1);
      if (next === 10 || next === 13 || next === 0x2028 || next === 0x2029) return -1;
      i++;
    }
  }
  return -1;
}

/**
 * Calls `visit(start, end)` for each identifier of `line` (outside string literals), left to right,
 * until it returns true; returns whether one did.
 */
function scanIdentifiers(line: string, visit: (start: number, end: number) => boolean): boolean {
  const length = line.length;
  let i = 0;
  while (i < length) {
    const c = line.charCodeAt(i);
    if (c === 34) {
      const end = literalEnd(line, i);
      i = end === -1 ? i + 1 : end;
    } else if (isWordChar(c)) {
      let end = i + 1;
      while (end < length && isWordChar(line.charCodeAt(end))) end++;
      if (!(c >= 48 && c <= 57) && visit(i, end)) return true;
      i = end;
    } else {
      i++;
    }
  }
  return false;
}

/**
 * Calls `visit` with every identifier generated code mentions (string literals do not count), in
 * order, repeats included: one pass over the code.
 */
export function forEachIdentifier(lines: readonly string[], visit: (name: string) => void): void {
  emitterWork.linesScanned += lines.length;
  for (const line of lines) {
    scanIdentifiers(line, (start, end) => {
      visit(line.slice(start, end));
      return false;
    });
  }
}

/**
 * Every identifier generated code mentions (string literals do not count): one pass, so callers
 * asking about many names do not rescan the code for each.
 */
export function identifiersIn(lines: readonly string[], into: Set<string> = new Set()): Set<string> {
  forEachIdentifier(lines, (name) => into.add(name));
  return into;
}

/** Whether generated code reads `name` (string literals do not count). */
export function usesName(lines: readonly string[], name: string): boolean {
  for (const line of lines) {
    emitterWork.linesScanned++;
    // Most lines do not even contain the text: only the others are scanned.
    if (!line.includes(name)) continue;
    if (scanIdentifiers(line, (start, end) => end - start === name.length && line.startsWith(name, start))) return true;
  }
  return false;
}
