/** Reads a value out of a JSON document by a JSON pointer (RFC 6901), as the contract's pod keys name them. */
import { unescapeSegment } from "../json-pointer.js";

/** The value at `pointer` in `document`, or undefined when a step is missing (own properties only). */
export function valueAt(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let node: unknown = document;
  for (const segment of pointer.split("/").slice(1).map(unescapeSegment)) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
