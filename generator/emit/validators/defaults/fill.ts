/**
 * The fill functions: `f_<Stem>(o)` fills the missing properties of an already copied value in
 * place, through properties, items (after the `prefixItems` positions), allOf and `$ref` (a call
 * of the target's fill function).
 */
import { ContractError } from "../../../common/errors.ts";
import { pointer } from "../../../common/json-pointer.ts";
import { Block, code, functionDeclaration, name, raw, Scope, type Code, type Declaration } from "../../code.ts";
import type { ValidatorCompiler } from "../compile.ts";
import type { Unit } from "../unit.ts";
import { typeGuard } from "../keywords/type.ts";
import { numberLiteral } from "../../../common/escape.ts";
import { assignProperty, readProperty } from "../property-access.ts";
import { runtime } from "../runtime-helpers.ts";
import { isObject, type SchemaObject } from "../schema-object.ts";
import type { DefaultsReach } from "./reach.ts";

/** The parameter of the fill functions: the copy being filled. */
const OBJECT = name("o");

export function fillName(unit: Unit): string {
  return `f_${unit.stem}`;
}

export class FillFunctions {
  constructor(
    private readonly compiler: ValidatorCompiler,
    private readonly reach: DefaultsReach,
  ) {}

  /** `function f_X(o) { … }` */
  declaration(unit: Unit): Declaration {
    const body = this.fill(unit.schema, unit.pointer, OBJECT, new Scope());
    const o = body.uses(OBJECT) ? OBJECT : name("_o");
    return functionDeclaration(fillName(unit), o, body);
  }

  private fill(schema: unknown, at: string, o: Code, scope: Scope): Block {
    const b = new Block();
    if (!isObject(schema)) return b;
    for (const target of this.compiler.refTargetsOf(schema, at)) {
      if (this.reach.unitHasDefaults(target)) b.add(code`${name(fillName(target))}(${o});`);
    }
    const allOf = schema["allOf"];
    if (Array.isArray(allOf)) allOf.forEach((sub, index) => b.append(this.fill(sub, `${at}/allOf/${index}`, o, scope)));
    const properties = schema["properties"];
    if (isObject(properties)) b.wrap(code`if (${typeGuard("object", o)}) {`, this.properties(properties, at, o, scope));
    this.items(schema, at, o, scope, b);
    return b;
  }

  /** Each property's default where it is missing, then the defaults inside it. */
  private properties(properties: SchemaObject, at: string, o: Code, scope: Scope): Block {
    const members = new Block();
    for (const [name, sub] of Object.entries(properties)) {
      if (!isObject(sub)) continue;
      const subAt = at + pointer("properties", name);
      const current = readProperty(o, name);
      if (Object.hasOwn(sub, "default")) {
        members.add(code`if (${current} === undefined) ${assignProperty(o, name, this.defaultValue(sub["default"], subAt))}`);
      }
      if (!this.reach.schemaHasDefaults(sub, subAt)) continue;
      const x = scope.local("x");
      const inner = this.fill(sub, subAt, x, scope);
      if (!inner.isEmpty) members.add(code`const ${x} = ${current};`).append(inner);
    }
    return members;
  }

  private items(schema: SchemaObject, at: string, o: Code, scope: Scope, b: Block): void {
    const items = schema["items"];
    if (!isObject(items) || !this.reach.schemaHasDefaults(items, at + "/items")) return;
    const i = scope.local("i");
    const x = scope.local("x");
    const inner = this.fill(items, at + "/items", x, scope);
    if (inner.isEmpty) return;
    // `items` covers only the elements after those of `prefixItems` (whose defaults are not applied).
    const prefixItems = schema["prefixItems"];
    const first = Array.isArray(prefixItems) ? prefixItems.length : 0;
    const loop = new Block().wrap(code`for (let ${i} = ${first}; ${i} < ${o}.length; ${i}++) {`, new Block().add(code`const ${x} = ${o}[${i}];`).append(inner));
    b.wrap(code`if (${typeGuard("array", o)}) {`, loop);
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
