/**
 * JSON data as a JavaScript expression formatted like hand-written code, for the README's
 * examples: identifier keys bare, strings through `stringLiteral`, `__proto__` computed. Nothing
 * in the data can end it early.
 */
import { propertyKeyForValue, stringLiteral } from "../common/escape.ts";

export function jsValue(value: unknown, indent = ""): string {
  if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value) ?? "null";
  if (typeof value === "string") return stringLiteral(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => jsValue(item, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 60 && !flat.includes("\n") ? flat : `[\n${items.map((item) => inner + item).join(",\n")},\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${inner}${propertyKeyForValue(key)}: ${jsValue(item, inner)}`).join(",\n")},\n${indent}}`;
  }
  return "undefined";
}
