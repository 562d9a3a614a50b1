/**
 * `withDefaults…` support: for a unit whose schema has `default`s reachable through `properties`
 * (recursively through `properties`, `items`, `allOf` and `$ref`), a function `f_<Stem>(o)` that
 * fills missing properties of an already copied value in place. Defaults under `anyOf`, `oneOf`,
 * `if`/`then`/`else` or `prefixItems` are not applied: which branch applies is not known up front.
 */
import { ContractError, pointer } from "../../errors.ts";
import { stringLiteral } from "../../escape.ts";
import { Block, indent, Scope, usesName } from "./code.ts";
import { isObject, readProperty, type Unit, type ValidatorCompiler } from "./compile.ts";

interface Scan {
  /** A property schema right here (not behind a `$ref`) has a `default`. */
  direct: boolean;
  /** Pointers of `$ref` targets reached through properties, items and allOf. */
  refs: string[];
}

export class DefaultsCompiler {
  private readonly scans = new Map<string, Scan>();

  constructor(private readonly compiler: ValidatorCompiler) {}

  /** Name of the fill function of a unit. */
  fillName(unit: Unit): string {
    return `f_${unit.stem}`;
  }

  /** Whether the unit's schema has defaults to fill, directly or through the units it reaches. */
  unitHasDefaults(unit: Unit): boolean {
    const seen = new Set<string>();
    const stack = [unit.pointer];
    for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
      if (seen.has(at)) continue;
      seen.add(at);
      const scan = this.scanUnit(at);
      if (scan.direct) return true;
      stack.push(...scan.refs);
    }
    return false;
  }

  /**
   * Names of the properties with a default at the top level of the unit's schema (directly, or
   * through `allOf` and `$ref`): the ones the `withDefaults…` input may leave out.
   */
  topLevelDefaults(unit: Unit): string[] {
    const names = new Set<string>();
    const seen = new Set<unknown>();
    const walk = (schema: unknown, at: string): void => {
      if (!isObject(schema) || seen.has(schema)) return;
      seen.add(schema);
      const properties = schema["properties"];
      if (isObject(properties)) {
        for (const [name, sub] of Object.entries(properties)) if (isObject(sub) && Object.hasOwn(sub, "default")) names.add(name);
      }
      const allOf = schema["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${at}/allOf/${index}`));
      if ("$ref" in schema) {
        const target = this.compiler.unitAt(this.compiler.resolveRef(schema["$ref"], at + "/$ref"));
        walk(target.schema, target.pointer);
      }
    };
    walk(unit.schema, unit.pointer);
    return [...names];
  }

  /** The defaults of the top level, for the doc comment: `size: "1280*720"`. */
  describeTopLevel(unit: Unit): string[] {
    const described: string[] = [];
    const seen = new Set<unknown>();
    const walk = (schema: unknown, at: string): void => {
      if (!isObject(schema) || seen.has(schema)) return;
      seen.add(schema);
      const properties = schema["properties"];
      if (isObject(properties)) {
        for (const [name, sub] of Object.entries(properties)) {
          if (isObject(sub) && Object.hasOwn(sub, "default")) described.push(`${name}: ${JSON.stringify(sub["default"])}`);
        }
      }
      const allOf = schema["allOf"];
      if (Array.isArray(allOf)) allOf.forEach((sub, index) => walk(sub, `${at}/allOf/${index}`));
      if ("$ref" in schema) {
        const target = this.compiler.unitAt(this.compiler.resolveRef(schema["$ref"], at + "/$ref"));
        walk(target.schema, target.pointer);
      }
    };
    walk(unit.schema, unit.pointer);
    return described;
  }

  /** `function f_X(o: any): void { … }` */
  fillFunction(unit: Unit): string[] {
    const scope = new Scope();
    const body = this.fill(unit.schema, unit.pointer, "o", scope);
    const o = usesName(body.lines, "o") ? "o" : "_o";
    return [`function ${this.fillName(unit)}(${o}: any): void {`, ...indent(body.lines), "}"];
  }

  private fill(schema: unknown, at: string, o: string, scope: Scope): Block {
    const b = new Block();
    if (!isObject(schema)) return b;
    if ("$ref" in schema) {
      const target = this.compiler.unitAt(this.compiler.resolveRef(schema["$ref"], at + "/$ref"));
      if (this.unitHasDefaults(target)) b.add(`${this.fillName(target)}(${o});`);
    }
    const allOf = schema["allOf"];
    if (Array.isArray(allOf)) allOf.forEach((sub, index) => b.append(this.fill(sub, `${at}/allOf/${index}`, o, scope)));

    const properties = schema["properties"];
    if (isObject(properties)) {
      const members = new Block();
      for (const [name, sub] of Object.entries(properties)) {
        if (!isObject(sub)) continue;
        const subAt = at + pointer("properties", name);
        const current = readProperty(this.compiler, o, name);
        if (Object.hasOwn(sub, "default")) {
          members.add(`if (${current} === undefined) ${this.assign(o, name, this.defaultValue(sub["default"], subAt))}`);
        }
        if (!this.schemaHasDefaults(sub, subAt)) continue;
        const x = scope.local("x");
        const inner = this.fill(sub, subAt, x, scope);
        if (!inner.isEmpty) members.add(`const ${x} = ${current};`).append(inner);
      }
      b.wrap(`if (typeof ${o} === "object" && ${o} !== null && !Array.isArray(${o})) {`, members);
    }

    const items = schema["items"];
    if (isObject(items) && this.schemaHasDefaults(items, at + "/items")) {
      const i = scope.local("i");
      const x = scope.local("x");
      const inner = this.fill(items, at + "/items", x, scope);
      if (!inner.isEmpty) {
        const loop = new Block().wrap(`for (let ${i} = 0; ${i} < ${o}.length; ${i}++) {`, new Block().add(`const ${x} = ${o}[${i}];`).append(inner));
        b.wrap(`if (Array.isArray(${o})) {`, loop);
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

  private defaultValue(value: unknown, at: string): string {
    switch (typeof value) {
      case "string":
        return stringLiteral(value);
      case "number":
        if (!Number.isFinite(value)) throw new ContractError(at + "/default", "default is not a JSON number");
        return value === 0 ? "0" : String(value);
      case "boolean":
        return String(value);
      case "object":
        return value === null ? "null" : `${this.compiler.helper("cloneJson")}(${this.compiler.jsonConstant(value)})`;
      default:
        throw new ContractError(at + "/default", "default is not a JSON value");
    }
  }

  private assign(o: string, name: string, value: string): string {
    if (name === "__proto__") return `${this.compiler.helper("setOwn")}(${o}, ${stringLiteral(name)}, ${value});`;
    return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${o}.${name} = ${value};` : `${o}[${stringLiteral(name)}] = ${value};`;
  }
}
