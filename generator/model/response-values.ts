/**
 * A value for a schema that gives no example of its own, built from its types and required
 * fields: what the package's test kit answers with where the contract shows no example, so it must
 * pass the response validators (formats, lengths, bounds). Not random: the same schema always gives
 * the same value. (The README's call values, which must type-check as requests, are
 * example-values.ts's.)
 */
import type { LoadedContract } from "../load/index.ts";
import { FORMAT_TEXT } from "./format-text.ts";

/** Past this depth an object is left empty and an array without items: a schema holding itself ends. */
const MAX_DEPTH = 8;


/** The schema's own example (`examples`, `example`, `default`, `const`, the first `enum`), else one built from its types. */
export function valueOfSchema(contract: LoadedContract, schema: unknown, depth = 0): unknown {
  if (schema === true || schema === undefined || schema === null) return {};
  if (typeof schema !== "object") return null;
  const node = schema as Record<string, any>;
  if (typeof node.$ref === "string") {
    if (depth >= MAX_DEPTH) return null;
    let target: unknown;
    try {
      target = contract.resolve(node.$ref);
    } catch {
      return null;
    }
    // The keywords beside a 3.1 `$ref` apply too; the target's example wins over none.
    return valueOfSchema(contract, typeof target === "object" && target !== null ? { ...target, ...withoutRef(node) } : target, depth + 1);
  }
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (node.example !== undefined) return node.example;
  if (node.default !== undefined) return node.default;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const branches = node.allOf ?? [];
  const choice = node.oneOf?.[0] ?? node.anyOf?.[0];
  if (branches.length > 0 || choice !== undefined) {
    const parts = [...branches, ...(choice === undefined ? [] : [choice])].map((part: unknown) => valueOfSchema(contract, part, depth + 1));
    const own = node.type !== undefined || node.properties !== undefined ? [valueOfSchema(contract, { ...node, allOf: undefined, oneOf: undefined, anyOf: undefined }, depth + 1)] : [];
    const all = [...own, ...parts];
    // Objects merge; otherwise the first part's value is the value.
    if (all.every((value) => typeof value === "object" && value !== null && !Array.isArray(value))) return Object.assign({}, ...all);
    return all[0];
  }
  return valueOfType(contract, node, depth);
}

function withoutRef(node: Record<string, any>): Record<string, any> {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

function valueOfType(contract: LoadedContract, node: Record<string, any>, depth: number): unknown {
  const types: unknown[] = Array.isArray(node.type) ? node.type : [node.type];
  const type = types.find((t) => t !== "null") ?? (types.includes("null") ? "null" : node.properties !== undefined ? "object" : node.items !== undefined ? "array" : undefined);
  switch (type) {
    case "object": {
      const value: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return value;
      for (const name of Array.isArray(node.required) ? node.required : []) {
        if (typeof name !== "string") continue;
        value[name] = valueOfSchema(contract, node.properties?.[name] ?? {}, depth + 1);
      }
      return value;
    }
    case "array": {
      const count = typeof node.minItems === "number" ? Math.min(node.minItems, 3) : 0;
      if (depth >= MAX_DEPTH) return [];
      return Array.from({ length: count }, () => valueOfSchema(contract, node.items ?? {}, depth + 1));
    }
    case "string": {
      const text = (typeof node.format === "string" ? FORMAT_TEXT[node.format] : undefined) ?? "string";
      const min = typeof node.minLength === "number" ? node.minLength : 0;
      return text.length >= min ? text : text.padEnd(min, "x");
    }
    case "integer":
    case "number": {
      const low = typeof node.minimum === "number" ? node.minimum : typeof node.exclusiveMinimum === "number" ? node.exclusiveMinimum + (type === "integer" ? 1 : 0.5) : 0;
      const high = typeof node.maximum === "number" ? node.maximum : typeof node.exclusiveMaximum === "number" ? node.exclusiveMaximum - 1 : undefined;
      const value = high !== undefined && low > high ? high : low;
      return type === "integer" ? Math.ceil(value) : value;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return {};
  }
}
