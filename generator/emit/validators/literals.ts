/**
 * JSON values written as TypeScript literals in generated code (strings go through
 * `stringLiteral`, so contract text stays data).
 */
import { stringLiteral } from "../../common/escape.ts";

/** A finite number as code; -0 is written `0`, which compares equal anyway. */
export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
  return value === 0 ? "0" : String(value);
}

/** A JSON primitive (string, number, boolean or null) as code. */
export function primitiveLiteral(value: unknown): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return numberLiteral(value);
  return String(value);
}
