/**
 * Recursion detection. A `$ref` applied to the same value as the schema around it (directly, or
 * under allOf, anyOf, oneOf, not, if/then/else, dependentSchemas) does not descend into the
 * value: a cycle of such `$ref`s would never end, so it is refused. A cycle through a property
 * or an item is fine: each call goes one level deeper into a finite value.
 */
import { ContractError } from "../../common/errors.ts";
import type { Unit } from "./unit.ts";

export class SameInstanceRefs {
  /** Per unit, the units its schema refers to on the same value, with the first such `$ref`'s pointer. */
  private readonly edges = new Map<Unit, Map<Unit, string>>();

  add(from: Unit, to: Unit, at: string): void {
    let targets = this.edges.get(from);
    if (targets === undefined) this.edges.set(from, (targets = new Map()));
    if (!targets.has(to)) targets.set(to, at);
  }

  /**
   * Throws a ContractError at a `$ref` closing a cycle. A depth-first walk with its own stack: a
   * long chain of `allOf: [{$ref}]` schemas must not overflow the call stack.
   */
  refuseCycles(units: Iterable<Unit>): void {
    const state = new Map<Unit, "visiting" | "done">();
    const edgesOf = (unit: Unit) => (this.edges.get(unit) ?? new Map<Unit, string>()).entries();
    for (const root of units) {
      if (state.has(root)) continue;
      state.set(root, "visiting");
      const stack = [{ unit: root, edges: edgesOf(root) }];
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as (typeof stack)[number];
        const edge = top.edges.next();
        if (edge.done === true) {
          state.set(top.unit, "done");
          stack.pop();
          continue;
        }
        const [target, at] = edge.value;
        const seen = state.get(target);
        if (seen === "visiting") {
          throw new ContractError(at, "$ref cycle that never descends into the value: validation would not terminate");
        }
        if (seen === undefined) {
          state.set(target, "visiting");
          stack.push({ unit: target, edges: edgesOf(target) });
        }
      }
    }
  }
}
