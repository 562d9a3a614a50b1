/**
 * What the parts of the diff share: the two contracts with their models, the list changes go to,
 * and the keys and helper every part classifies with.
 */
import { compareStrings } from "../../../generator/common/compare.ts";
import type { LoadedContract } from "../../../generator/load/contract.ts";
import type { ApiModel } from "../../../generator/model/index.ts";
import { RANK, type Bump, type ContractChange } from "../semver.ts";

/** How the package's user meets a schema: sending it (input) or receiving it (output). */
export type Direction = "input" | "output";

export interface DiffContext {
  readonly base: LoadedContract;
  readonly head: LoadedContract;
  readonly baseModel: ApiModel;
  readonly headModel: ApiModel;
  /** Records a change at a JSON pointer (`/paths/...` or `#/paths/...`). */
  add(bump: Bump, at: string, message: string): void;
}

/** Keys that only document: a difference in them is a patch. */
export const DOC_KEYS = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "$comment", "tags", "contact", "license", "termsOfService"]);

/** The changes found, each pointer and message once (a schema can be reached from several places). */
export class ChangeList {
  readonly #changes: ContractChange[] = [];

  add(bump: Bump, at: string, message: string): void {
    const pointer = at.startsWith("#") ? at : `#${at}`;
    if (!this.#changes.some((c) => c.pointer === pointer && c.message === message)) this.#changes.push({ bump, pointer, message });
  }

  /** Stable order: by severity, then pointer, then message. */
  sorted(): ContractChange[] {
    return this.#changes.sort((a, b) => RANK[b.bump] - RANK[a.bump] || compareStrings(a.pointer, b.pointer) || compareStrings(a.message, b.message));
  }
}

/** The keys of several objects, each once, in first-seen order. */
export function union(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}
