/**
 * `withDefaults…` support: for a unit whose schema has `default`s reachable through `properties`
 * (recursively through `properties`, `items`, `allOf` and `$ref`), a function `f_<Stem>(o)` that
 * fills missing properties of an already copied value in place. Defaults under `anyOf`, `oneOf`,
 * `if`/`then`/`else` or `prefixItems` are not applied: which branch applies is not known up front.
 */
import { ContractError } from "../../errors.ts";
import { pointer } from "../../json-pointer.ts";
import { Block, code, functionDeclaration, name, raw, Scope, type Code, type Declaration } from "./code.ts";
import type { ValidatorCompiler } from "./compile.ts";
import type { Unit } from "./context.ts";
import { typeGuard } from "./keywords/type.ts";
import { numberLiteral } from "./literals.ts";
import { assignProperty, readProperty } from "./property-access.ts";
import { runtime } from "./runtime-helpers.ts";
import { isObject, type SchemaObject } from "./schema-object.ts";

/** The parameter of the fill functions: the copy being filled. */
const OBJECT = name("o");

interface Scan {
  /** A property schema right here (not behind a `$ref`) has a `default`. */
  direct: boolean;
  /** Pointers of `$ref` targets reached through properties, items and allOf. */
  refs: string[];
}

const NO_SCHEMAS: readonly SchemaObject[] = [];

/** Whether one of the schema's own `properties` has a `default`. */
function hasOwnDefaults(schema: SchemaObject): boolean {
  const properties = schema["properties"];
  if (!isObject(properties)) return false;
  for (const name in properties) {
    if (!Object.hasOwn(properties, name)) continue;
    const sub = properties[name];
    if (isObject(sub) && Object.hasOwn(sub, "default")) return true;
  }
  return false;
}

/** The lists one after another, each schema at its first place only; a list is reused when it alone is not empty. */
function mergeFirstMet(lists: readonly (readonly SchemaObject[])[]): readonly SchemaObject[] {
  const filled = lists.filter((list) => list.length > 0);
  if (filled.length <= 1) return filled[0] ?? NO_SCHEMAS;
  const merged = new Set<SchemaObject>();
  for (const list of filled) for (const schema of list) merged.add(schema);
  return [...merged];
}

export class DefaultsCompiler {
  private readonly scans = new Map<string, Scan>();
  /** Per schema object, `topLevelSchemas` of it (see `topLevelMemoized`). */
  private readonly topLevelLists = new Map<SchemaObject, readonly SchemaObject[]>();
  /**
   * Answers of `unitHasDefaults` per unit pointer, for the units whose walk below would create no
   * unit (see `settle`): computed once for each, in one pass over the graph.
   */
  private readonly settled = new Map<string, boolean>();
  /** Units found unsettled, with the number of units there were then: no use looking again before it grows. */
  private readonly unsettledAt = new Map<string, number>();

  constructor(private readonly compiler: ValidatorCompiler) {}

  /** Name of the fill function of a unit. */
  fillName(unit: Unit): string {
    return `f_${unit.stem}`;
  }

  /** Whether the unit's schema has defaults to fill, directly or through the units it reaches. */
  unitHasDefaults(unit: Unit): boolean {
    const known = this.settle(unit.pointer);
    if (known !== undefined) return known;
    // The walk creates the units it reaches (a `$ref` the validators never followed, e.g. under
    // `properties` of a string schema), in this order: kept as it is, for the stems they get.
    const seen = new Set<string>();
    const stack = [unit.pointer];
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      if (seen.has(at)) continue;
      seen.add(at);
      const scan = this.scanUnit(at);
      if (scan.direct) return true;
      for (const ref of scan.refs) stack.push(ref);
    }
    return false;
  }

  /**
   * `unitHasDefaults` of the unit at `root` without walking its graph again for every unit that
   * asks: one pass (Tarjan's strongly connected components, with its own stack) over the units it
   * reaches through properties, items, allOf and `$ref`, which settles each unit met whose answer
   * needs no unit created: a unit with a default right there (the walk stops at it), or one that
   * reaches only existing units that scan cleanly. The answer, or undefined when the unit is not
   * settled (the walk of `unitHasDefaults` then runs as before and makes the units, or the error).
   */
  private settle(root: string): boolean | undefined {
    const known = this.settled.get(root);
    if (known !== undefined) return known;
    const units = this.compiler.units;
    if (this.unsettledAt.get(root) === units.size) return undefined;

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
    const nodes = new Map<string, Node>();
    const components: Node[] = [];
    const path: Node[] = [];
    /** Units of this pass left unsettled. */
    const open = new Set<string>();
    /** The node for `at`, or what is known of it: its answer, or "open". */
    const enter = (at: string): Node | boolean | "open" => {
      const answer = this.settled.get(at);
      if (answer !== undefined) return answer;
      if (open.has(at)) return "open";
      const unit = units.get(at);
      let scan: Scan | undefined = this.scans.get(at);
      if (scan === undefined && unit !== undefined) {
        try {
          scan = this.scan(unit.schema, at);
        } catch {
          scan = undefined;
        }
        if (scan !== undefined) this.scans.set(at, scan);
      }
      if (scan === undefined) {
        open.add(at);
        return "open";
      }
      if (scan.direct) {
        this.settled.set(at, true);
        return true;
      }
      const node: Node = { at, refs: scan.refs, next: 0, index: nodes.size, low: nodes.size, has: false, open: false };
      nodes.set(at, node);
      components.push(node);
      path.push(node);
      return node;
    };
    /** Folds what is known of a finished successor into `node`. */
    const take = (node: Node, known: boolean | "open"): void => {
      if (known === "open") node.open = true;
      else if (known) node.has = true;
    };

    const first = enter(root);
    if (typeof first !== "object") return first === "open" ? this.unsettled(root) : first;
    while (path.length > 0) {
      const node = path[path.length - 1] as Node;
      if (node.next < node.refs.length) {
        const to = node.refs[node.next++] as string;
        const met = nodes.get(to);
        if (met !== undefined) {
          // Still on the component stack: the same component, folded in when it is finished.
          if (this.settled.has(to) || open.has(to)) take(node, this.settled.get(to) ?? "open");
          else node.low = Math.min(node.low, met.index);
          continue;
        }
        const entered = enter(to);
        if (typeof entered !== "object") take(node, entered);
        continue;
      }
      path.pop();
      const parent = path[path.length - 1];
      if (node.low === node.index) {
        // A finished component: every unit from `node` up on the component stack.
        const start = components.lastIndexOf(node);
        const members = components.splice(start);
        const has = members.some((member) => member.has);
        const isOpen = members.some((member) => member.open);
        for (const member of members) {
          if (isOpen) open.add(member.at);
          else this.settled.set(member.at, has);
        }
        if (parent !== undefined) take(parent, isOpen ? "open" : has);
      } else if (parent !== undefined) {
        parent.low = Math.min(parent.low, node.low);
        parent.has ||= node.has;
        parent.open ||= node.open;
      }
    }
    return this.settled.get(root) ?? this.unsettled(root);
  }

  private unsettled(at: string): undefined {
    this.unsettledAt.set(at, this.compiler.units.size);
    return undefined;
  }

  /**
   * Names of the properties with a default at the top level of the unit's schema (directly, or
   * through `allOf` and `$ref`): the ones the `withDefaults…` input may leave out.
   */
  topLevelDefaults(unit: Unit): string[] {
    const names = new Set<string>();
    for (const schema of this.topLevelSchemas(unit)) {
      for (const [name, sub] of Object.entries(schema["properties"] as SchemaObject)) if (isObject(sub) && Object.hasOwn(sub, "default")) names.add(name);
    }
    return [...names];
  }

  /** The defaults of the top level, for the doc comment: `size: "1280*720"`. */
  describeTopLevel(unit: Unit): string[] {
    const described: string[] = [];
    for (const schema of this.topLevelSchemas(unit)) {
      for (const [name, sub] of Object.entries(schema["properties"] as SchemaObject)) {
        if (isObject(sub) && Object.hasOwn(sub, "default")) described.push(`${name}: ${JSON.stringify(sub["default"])}`);
      }
    }
    return described;
  }

  /**
   * The schemas with a property default at the top level of the unit's schema: itself and what it
   * reaches through `allOf` and `$ref`, depth first (own properties, then `allOf` in order, then
   * the `$ref` target), each schema once, in the order first met.
   */
  private topLevelSchemas(unit: Unit): readonly SchemaObject[] {
    return this.topLevelMemoized(unit) ?? this.topLevelWalk(unit);
  }

  /**
   * `topLevelSchemas`, each schema's list computed once and reused by every unit that reaches it
   * (an inheritance chain of `allOf: [{$ref}]` would otherwise be walked again from each of its
   * units: quadratic), with its own stack. A schema's list is its own entry, then its `allOf`
   * items' lists, then its target's, the repeats dropped: on an acyclic graph exactly the order
   * of the walk. The validators refuse a cycle of same-value `$ref`s, so there is none here;
   * undefined if there is one anyway (the caller then walks).
   */
  private topLevelMemoized(unit: Unit): readonly SchemaObject[] | undefined {
    interface Frame {
      schema: SchemaObject;
      at: string;
      allOf: readonly unknown[];
      /** Next child: allOf items by index, then the `$ref` target. */
      next: number;
      parts: (readonly SchemaObject[])[];
    }
    const memo = this.topLevelLists;
    const active = new Set<SchemaObject>();
    const frames: Frame[] = [];
    let result: readonly SchemaObject[] | undefined;
    /** The list of `schema`, or its frame pushed; "cycle" when it is being computed. */
    const enter = (schema: unknown, at: string): readonly SchemaObject[] | "cycle" | undefined => {
      if (!isObject(schema)) return NO_SCHEMAS;
      const known = memo.get(schema);
      if (known !== undefined) return known;
      if (active.has(schema)) return "cycle";
      active.add(schema);
      const allOf = schema["allOf"];
      const own = hasOwnDefaults(schema) ? [schema] : NO_SCHEMAS;
      frames.push({ schema, at, allOf: Array.isArray(allOf) ? allOf : [], next: 0, parts: [own] });
      return undefined;
    };
    /** A finished list handed to the frame below, or out as the result. */
    const finish = (list: readonly SchemaObject[]): void => {
      const below = frames[frames.length - 1];
      if (below === undefined) result = list;
      else below.parts.push(list);
    };

    const first = enter(unit.schema, unit.pointer);
    if (first === "cycle") return undefined;
    if (first !== undefined) return first;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as Frame;
      let child: readonly SchemaObject[] | "cycle" | undefined;
      if (frame.next < frame.allOf.length) {
        const index = frame.next++;
        child = enter(frame.allOf[index], `${frame.at}/allOf/${index}`);
      } else if (frame.next === frame.allOf.length && "$ref" in frame.schema) {
        frame.next++;
        const target = this.compiler.refTarget(frame.schema["$ref"], frame.at + "/$ref");
        child = enter(target.schema, target.pointer);
      } else {
        frames.pop();
        active.delete(frame.schema);
        const list = mergeFirstMet(frame.parts);
        memo.set(frame.schema, list);
        finish(list);
        continue;
      }
      if (child === "cycle") return undefined;
      if (child !== undefined) frame.parts.push(child);
    }
    return result;
  }

  /** `topLevelSchemas` by a plain walk: for the case `topLevelMemoized` declines. */
  private topLevelWalk(unit: Unit): SchemaObject[] {
    const found: SchemaObject[] = [];
    const seen = new Set<unknown>();
    const walk = (schema: unknown, at: string): void => {
      if (!isObject(schema) || seen.has(schema)) return;
      seen.add(schema);
      if (hasOwnDefaults(schema)) found.push(schema);
      const allOf = schema["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${at}/allOf/${index}`));
      if ("$ref" in schema) {
        const target = this.compiler.refTarget(schema["$ref"], at + "/$ref");
        walk(target.schema, target.pointer);
      }
    };
    walk(unit.schema, unit.pointer);
    return found;
  }

  /** `function f_X(o: any): void { … }` */
  fillFunction(unit: Unit): Declaration {
    const body = this.fill(unit.schema, unit.pointer, OBJECT, new Scope());
    const o = body.uses(OBJECT) ? OBJECT : name("_o");
    return functionDeclaration(this.fillName(unit), code`${o}: any`, "void", body);
  }

  private fill(schema: unknown, at: string, o: Code, scope: Scope): Block {
    const b = new Block();
    if (!isObject(schema)) return b;
    if ("$ref" in schema) {
      const target = this.compiler.refTarget(schema["$ref"], at + "/$ref");
      if (this.unitHasDefaults(target)) b.add(code`${name(this.fillName(target))}(${o});`);
    }
    const allOf = schema["allOf"];
    if (Array.isArray(allOf)) allOf.forEach((sub, index) => b.append(this.fill(sub, `${at}/allOf/${index}`, o, scope)));

    const properties = schema["properties"];
    if (isObject(properties)) {
      const members = new Block();
      for (const [name, sub] of Object.entries(properties)) {
        if (!isObject(sub)) continue;
        const subAt = at + pointer("properties", name);
        const current = readProperty(o, name);
        if (Object.hasOwn(sub, "default")) {
          members.add(code`if (${current} === undefined) ${assignProperty(o, name, this.defaultValue(sub["default"], subAt))}`);
        }
        if (!this.schemaHasDefaults(sub, subAt)) continue;
        const x = scope.local("x");
        const inner = this.fill(sub, subAt, x, scope);
        if (!inner.isEmpty) members.add(code`const ${x} = ${current};`).append(inner);
      }
      b.wrap(code`if (${typeGuard("object", o)}) {`, members);
    }

    const items = schema["items"];
    if (isObject(items) && this.schemaHasDefaults(items, at + "/items")) {
      const i = scope.local("i");
      const x = scope.local("x");
      const inner = this.fill(items, at + "/items", x, scope);
      // `items` covers only the elements after those of `prefixItems` (whose defaults are not applied).
      const prefixItems = schema["prefixItems"];
      const first = Array.isArray(prefixItems) ? prefixItems.length : 0;
      if (!inner.isEmpty) {
        const loop = new Block().wrap(code`for (let ${i} = ${first}; ${i} < ${o}.length; ${i}++) {`, new Block().add(code`const ${x} = ${o}[${i}];`).append(inner));
        b.wrap(code`if (${typeGuard("array", o)}) {`, loop);
      }
    }
    return b;
  }

  private schemaHasDefaults(schema: unknown, at: string): boolean {
    const scan = this.scan(schema, at);
    return scan.direct || scan.refs.some((ref) => this.unitHasDefaults(this.compiler.unitAt(ref)));
  }

  private scanUnit(at: string): Scan {
    let scan = this.scans.get(at);
    if (scan === undefined) {
      scan = this.scan(this.compiler.unitAt(at).schema, at);
      this.scans.set(at, scan);
    }
    return scan;
  }

  private scan(schema: unknown, at: string): Scan {
    const result: Scan = { direct: false, refs: [] };
    const walk = (node: unknown, where: string): void => {
      if (!isObject(node)) return;
      if ("$ref" in node) result.refs.push(this.compiler.resolveRef(node["$ref"], where + "/$ref"));
      const properties = node["properties"];
      if (isObject(properties)) {
        for (const [name, sub] of Object.entries(properties)) {
          if (isObject(sub) && Object.hasOwn(sub, "default")) result.direct = true;
          walk(sub, where + pointer("properties", name));
        }
      }
      const allOf = node["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${where}/allOf/${index}`));
      walk(node["items"], where + "/items");
    };
    walk(schema, at);
    return result;
  }

  /** A default as code: primitives as literals, objects and arrays as fresh copies of a constant. */
  private defaultValue(value: unknown, at: string): Code {
    switch (typeof value) {
      case "string":
        return code`${value}`;
      case "number":
        if (!Number.isFinite(value)) throw new ContractError(at + "/default", "default is not a JSON number");
        return raw(numberLiteral(value));
      case "boolean":
        return raw(String(value));
      case "object":
        return value === null ? raw("null") : code`${runtime("cloneJson")}(${this.compiler.constants.jsonValue(value)})`;
      default:
        throw new ContractError(at + "/default", "default is not a JSON value");
    }
  }
}
