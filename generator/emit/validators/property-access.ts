/**
 * How generated code reads and writes a property the contract names: `o.name` for identifier
 * names, `o["a b"]` otherwise, and through the runtime's `own`/`setOwn` where a plain access would
 * reach `Object.prototype` instead of the value's own member.
 */
import { code, raw, type Code } from "../code.ts";
import { runtime } from "./runtime-helpers.ts";

const IDENTIFIER_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Whether `text` can follow a dot as a property name (or name a declaration). */
export function isIdentifierName(text: string): boolean {
  return IDENTIFIER_NAME.test(text);
}

/** Property `name` of `o`: own members only for names `Object.prototype` also has. */
export function readProperty(o: Code, name: string): Code {
  if (name === "__proto__" || name in Object.prototype) return code`${runtime("own")}(${o}, ${name})`;
  // The name after the dot is data, not a reference: it goes in as text without a name.
  return isIdentifierName(name) ? code`${o}.${raw(name)}` : code`${o}[${name}]`;
}

/** The statement setting property `name` of `o` to `value`; `__proto__` as an own member. */
export function assignProperty(o: Code, name: string, value: Code): Code {
  if (name === "__proto__") return code`${runtime("setOwn")}(${o}, ${name}, ${value});`;
  return isIdentifierName(name) ? code`${o}.${raw(name)} = ${value};` : code`${o}[${name}] = ${value};`;
}
