/**
 * OpenAPI 3.0 in: a bundled 3.0 document becomes 3.1 through Scalar's upgrader (nullable → a
 * `null` type, boolean exclusive bounds → numbers, `example` → `examples`, …), so every later
 * stage reads one version. The upgrade keeps most nodes where they were; `sourcePointer` maps a
 * pointer into the upgraded document back to a real place in the document as written, so a
 * message never names a node the user did not write.
 */
import { upgrade } from "@scalar/openapi-upgrader";
import { parsePointer, pointer } from "../common/json-pointer.ts";
import type { PointerMap } from "../common/warnings.ts";

export interface Upgraded {
  document: unknown;
  /** A pointer into `document` as a pointer into the document before the upgrade. */
  sourcePointer: PointerMap;
}

const same: PointerMap = (p) => p;

/** `written` unchanged when it is not 3.0, else its 3.1 upgrade (on a copy: `written` stays as it was). */
export function upgradeTo31(written: unknown): Upgraded {
  const version = (written as { openapi?: unknown }).openapi;
  if (typeof version !== "string" || !/^3\.0\.\d+$/.test(version)) return { document: written, sourcePointer: same };
  const document = upgrade(structuredClone(written) as never, "3.1");
  return { document, sourcePointer: (p) => pointerInWritten(written, p) };
}

/**
 * Follows `at` (a pointer into the upgraded document) through `written`, undoing the moves the
 * upgrade makes; where it cannot go on, the deepest place reached (which the user wrote) is named.
 */
export function pointerInWritten(written: unknown, at: string): string {
  const segments = parsePointer(at);
  const out: string[] = [];
  let node = written;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (has(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
      out.push(segment);
      continue;
    }
    if (!isObject(node)) break;
    // `example: x` became `examples: [x]` (a schema) or `examples: {default: {value: x}}`.
    if (segment === "examples" && has(node, "example")) {
      out.push("example");
      node = node["example"];
      i += segments[i + 1] === "default" && segments[i + 2] === "value" ? 2 : segments[i + 1] === "0" ? 1 : segments.length;
      continue;
    }
    // `nullable: true` beside a `$ref` or an `allOf` became `anyOf: [that, {type: null}]`.
    if (segment === "anyOf" && node["nullable"] === true) {
      const arm = segments[i + 1];
      i += 1;
      if (arm !== "0") break;
      const allOf = node["allOf"];
      if (Array.isArray(allOf) && allOf.length === 1) {
        out.push("allOf", "0");
        node = allOf[0];
      }
      continue;
    }
    // The root's `x-webhooks` became `webhooks`.
    if (segment === "webhooks" && out.length === 0 && has(node, "x-webhooks")) {
      out.push("x-webhooks");
      node = node["x-webhooks"];
      continue;
    }
    break;
  }
  return pointer(...out);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function has(node: unknown, segment: string): boolean {
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < node.length;
  return isObject(node) && Object.hasOwn(node, segment);
}
