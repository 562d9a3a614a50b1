/**
 * Which units have defaults, answered for many units in one pass instead of one walk per unit:
 * Tarjan's strongly connected components (with its own stack) over the units reachable through
 * properties, items, allOf and `$ref`. A unit is settled when its answer needs no unit created:
 * it has a default right there (the walk stops at it), or it reaches only existing units that
 * scan cleanly. Others stay open: the caller walks them, which creates the units (or throws).
 */
import type { Unit } from "../unit.ts";
import type { Scans } from "./scan.ts";

interface Node {
  at: string;
  refs: readonly string[];
  next: number;
  index: number;
  low: number;
  /** Some default reached through a finished component. */
  has: boolean;
  /** Reaches a unit that does not exist yet or does not scan. */
  open: boolean;
}

/** What is known of a unit met in a pass: its answer, or "open". */
type Known = boolean | "open";

export class SettledUnits {
  /** Answers per unit pointer, each computed once. */
  private readonly answers = new Map<string, boolean>();
  /** Units found open, with the number of units there were then: no use looking again before it grows. */
  private readonly openAt = new Map<string, number>();

  constructor(
    private readonly units: ReadonlyMap<string, Unit>,
    private readonly scans: Scans,
  ) {}

  /** Whether the unit at `root` has defaults, or undefined when it is open. */
  answer(root: string): boolean | undefined {
    const known = this.answers.get(root);
    if (known !== undefined) return known;
    if (this.openAt.get(root) === this.units.size) return undefined;
    const answer = new Pass(this.answers, this.scans).run(root);
    if (answer === "open") this.openAt.set(root, this.units.size);
    return answer === "open" ? undefined : answer;
  }
}

/** One pass from a root: settles every unit it finishes, in `answers`. */
class Pass {
  private readonly nodes = new Map<string, Node>();
  /** Tarjan's stack of nodes whose component is not finished. */
  private readonly components: Node[] = [];
  /** The depth-first path. */
  private readonly path: Node[] = [];
  /** Units of this pass left open. */
  private readonly open = new Set<string>();

  constructor(
    private readonly answers: Map<string, boolean>,
    private readonly scans: Scans,
  ) {}

  run(root: string): Known {
    const first = this.enter(root);
    if (typeof first !== "object") return first;
    while (this.path.length > 0) {
      const node = this.path[this.path.length - 1] as Node;
      if (node.next < node.refs.length) this.follow(node, node.refs[node.next++] as string);
      else this.leave(node);
    }
    return this.answers.get(root) ?? "open";
  }

  /** The node for `at`, pushed on both stacks, or what is already known of it. */
  private enter(at: string): Node | Known {
    const answer = this.answers.get(at);
    if (answer !== undefined) return answer;
    if (this.open.has(at)) return "open";
    const scan = this.scans.ofExistingUnit(at);
    if (scan === undefined) {
      this.open.add(at);
      return "open";
    }
    if (scan.direct) {
      this.answers.set(at, true);
      return true;
    }
    const node: Node = { at, refs: scan.refs, next: 0, index: this.nodes.size, low: this.nodes.size, has: false, open: false };
    this.nodes.set(at, node);
    this.components.push(node);
    this.path.push(node);
    return node;
  }

  private follow(node: Node, to: string): void {
    const met = this.nodes.get(to);
    if (met === undefined) {
      const entered = this.enter(to);
      if (typeof entered !== "object") take(node, entered);
    } else if (this.answers.has(to) || this.open.has(to)) {
      take(node, this.answers.get(to) ?? "open");
    } else {
      // Still on the component stack: the same component, folded in when it is finished.
      node.low = Math.min(node.low, met.index);
    }
  }

  private leave(node: Node): void {
    this.path.pop();
    const parent = this.path[this.path.length - 1];
    if (node.low === node.index) {
      const known = this.finishComponent(node);
      if (parent !== undefined) take(parent, known);
    } else if (parent !== undefined) {
      parent.low = Math.min(parent.low, node.low);
      parent.has ||= node.has;
      parent.open ||= node.open;
    }
  }

  /** Every unit from `node` up on the component stack: one answer for all. */
  private finishComponent(node: Node): Known {
    const members = this.components.splice(this.components.lastIndexOf(node));
    const has = members.some((member) => member.has);
    const isOpen = members.some((member) => member.open);
    for (const member of members) {
      if (isOpen) this.open.add(member.at);
      else this.answers.set(member.at, has);
    }
    return isOpen ? "open" : has;
  }
}

/** Folds what is known of a finished successor into `node`. */
function take(node: Node, known: Known): void {
  if (known === "open") node.open = true;
  else if (known) node.has = true;
}
