/**
 * Problems that do not stop generation (an unknown `format`, a keyword the validators ignore, a
 * finding of Redocly's struct rule): collected by every stage, said once per kind with a count and
 * the first place, on stderr. `--strict` makes them errors. Only what makes correct code impossible
 * is a `ContractError`.
 */
import { ContractError } from "./errors.ts";

export interface WarningGroup {
  /** What repeats share: `format:phone-number`, `keyword:x-foo`. */
  key: string;
  message: string;
  count: number;
  /** JSON pointer of the first occurrence. */
  pointer: string;
  /** The file the pointer is into, when not the contract's root (a part of a split contract). */
  file?: string;
}

/** Turns a pointer into the document the stages read into one into the file the user wrote. */
export type PointerMap = (pointer: string) => string;

export class Warnings {
  readonly #groups = new Map<string, WarningGroup>();

  /** Records one occurrence; occurrences with the same `key` are said once, with the first `message` and pointer. */
  add(key: string, pointer: string, message: string, file?: string): void {
    const group = this.#groups.get(key);
    if (group) group.count += 1;
    else this.#groups.set(key, { key, message, count: 1, pointer, ...(file === undefined ? {} : { file }) });
  }

  get size(): number {
    return this.#groups.size;
  }

  /** Groups in the order they were first met. */
  groups(): WarningGroup[] {
    return [...this.#groups.values()];
  }

  /** One line per group: `file#pointer: message (N places)`. */
  lines(file: string, map: PointerMap = (p) => p): string[] {
    return this.groups().map((g) => `${g.file ?? file}#${g.file ? g.pointer : map(g.pointer)}: ${g.message}${g.count > 1 ? ` (${g.count} places; the first is shown)` : ""}`);
  }

  /** `--strict`: the first warning as the error that stops generation, naming how many there are. */
  toError(file: string, map: PointerMap = (p) => p): ContractError {
    const [first] = this.groups();
    if (!first) throw new Error("no warnings to turn into an error");
    const more = this.size > 1 ? ` (and ${this.size - 1} more kinds of warning)` : "";
    return new ContractError(first.file ? first.pointer : map(first.pointer), `${first.message}${more}; --strict makes warnings errors`, first.file ?? file);
  }
}
