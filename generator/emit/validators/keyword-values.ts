/**
 * Readers of keyword values: each returns the value with its type checked, or throws a
 * ContractError at the keyword's JSON pointer. The audit calls them on every schema before any
 * code is made; the keyword emitters call them again for typed values.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import { isObject, type SchemaObject } from "./schema-object.ts";

export type TypeName = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";

const TYPE_NAMES: ReadonlySet<string> = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/** The declared types, "integer" dropped when "number" is there; undefined without `type`. */
export function typeList(schema: SchemaObject, at: string): TypeName[] | undefined {
  if (!("type" in schema)) return undefined;
  const raw = schema["type"];
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((t): t is TypeName => typeof t === "string" && TYPE_NAMES.has(t))) {
    throw new ContractError(at + "/type", "type must be a type name or an array of type names");
  }
  const unique = [...new Set(list)];
  return unique.includes("number") ? unique.filter((t) => t !== "integer") : unique;
}

export function enumValues(schema: SchemaObject, keyword: string, at: string): unknown[] {
  const values = schema[keyword];
  if (!Array.isArray(values)) throw new ContractError(at + pointer(keyword), `${keyword} must be an array`);
  return values;
}

export function finiteNumber(schema: SchemaObject, keyword: string, at: string): number {
  const value = schema[keyword];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a number${typeof value === "boolean" ? " (the draft-04 boolean form is not 2020-12)" : ""}`);
  }
  return value;
}

export function divisorOf(schema: SchemaObject, keyword: string, at: string): number {
  const divisor = schema[keyword];
  if (typeof divisor !== "number" || !Number.isFinite(divisor) || divisor <= 0) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a number greater than 0`);
  }
  return divisor;
}

export function count(schema: SchemaObject, keyword: string, at: string): number {
  const value = schema[keyword];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a non-negative integer`);
  }
  return value;
}

export function boolean(schema: SchemaObject, keyword: string, at: string): boolean {
  const value = schema[keyword];
  if (typeof value !== "boolean") throw new ContractError(at + pointer(keyword), `${keyword} must be a boolean`);
  return value;
}

/** `items`: one schema (the array form is 2019-09's, rewritten before for a schema that declares that draft). */
export function itemsOf(schema: SchemaObject, keyword: string, at: string): unknown {
  const items = schema[keyword];
  if (Array.isArray(items)) throw new ContractError(at + pointer(keyword), "the array form of items is draft 2019-09; use prefixItems");
  return items;
}

/** `dependentRequired`: per property name, the names it requires. */
export function dependentRequiredOf(schema: SchemaObject, keyword: string, at: string): Array<[string, string[]]> {
  const dependencies = schema[keyword];
  if (!isObject(dependencies)) throw new ContractError(at + pointer(keyword), `${keyword} must be an object`);
  return Object.keys(dependencies).map((name) => [name, stringArray(dependencies, name, at + pointer(keyword))]);
}

/** A regular expression of the contract, and whether it compiles with the `u` flag. */
export interface Pattern {
  source: string;
  unicode: boolean;
}

/**
 * A `pattern` (or a `patternProperties` key): a string that compiles with the `u` flag, as JSON
 * Schema asks, or, as many documents written for other engines have it (`[\-\:]`), only without.
 */
export function checkPattern(source: unknown, at: string): Pattern {
  if (typeof source !== "string") throw new ContractError(at, "a pattern must be a string");
  if (compiles(source, "u") === undefined) return { source, unicode: true };
  const problem = compiles(source, "");
  if (problem !== undefined) throw new ContractError(at, `not a valid ECMAScript regular expression (with or without the u flag): ${problem}`);
  return { source, unicode: false };
}

/** A pattern valid only without the `u` flag is compiled so, and told. */
export function auditPattern(source: unknown, at: string, warnings: Warnings): void {
  if (checkPattern(source, at).unicode) return;
  warnings.add("pattern:no-u-flag", at, `pattern ${JSON.stringify(source)} is invalid with the u flag JSON Schema asks for: compiled without it`);
}

/** Undefined when `source` compiles with `flags`, else the engine's complaint. */
function compiles(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `prefixItems` (possibly empty), `allOf`, `anyOf`, `oneOf`. */
export function schemaArray(schema: SchemaObject, keyword: string, at: string): unknown[] {
  const value = schema[keyword];
  if (!Array.isArray(value) || (keyword !== "prefixItems" && value.length === 0)) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be a non-empty array of schemas`);
  }
  return value;
}

/** `properties`, `patternProperties`, `dependentSchemas`, `$defs`; empty when absent. */
export function schemaMap(schema: SchemaObject, keyword: string, at: string): Record<string, unknown> {
  if (!(keyword in schema)) return {};
  const value = schema[keyword];
  if (!isObject(value)) throw new ContractError(at + pointer(keyword), `${keyword} must be an object of schemas`);
  return value;
}

/** `required` (or a `dependentRequired` member); empty when absent. */
export function stringArray(schema: SchemaObject, keyword: string, at: string): string[] {
  if (!(keyword in schema)) return [];
  const value = schema[keyword];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new ContractError(at + pointer(keyword), `${keyword} must be an array of strings`);
  }
  return value as string[];
}
