/**
 * OpenAPI 3.0 keywords left in a schema of a document that says 3.1, read as 3.0 meant them:
 *
 * - `nullable: true` beside `type` adds "null" to the type (and `null` to an `enum`); without
 *   `type` it does nothing (OpenAPI 3.0.3: "only if type is explicitly defined");
 * - a boolean `exclusiveMinimum`/`exclusiveMaximum` makes `minimum`/`maximum` exclusive;
 * - `example` stays an annotation (3.1 has `examples`).
 */
import { pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";

type Json = Record<string, unknown>;

/** Whether one schema object has 3.0 leftovers; corrected in place (and told) when `warnings` is given. */
export function openApi30Leftovers(node: Json, at: string, warnings: Warnings | undefined): boolean {
  let found = false;
  if ("nullable" in node && typeof node["nullable"] === "boolean") {
    found = true;
    if (warnings !== undefined) nullable(node, at, warnings);
  }
  for (const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof node[exclusive] !== "boolean") continue;
    found = true;
    if (warnings === undefined) continue;
    warnings.add(
      `openapi30:${exclusive}`,
      at + pointer(exclusive),
      `boolean ${exclusive} is OpenAPI 3.0: read as 3.0 meant it (${bound} becomes exclusive); in 3.1 write ${exclusive}: <number>`,
    );
    if (node[exclusive] === true && typeof node[bound] === "number") {
      node[exclusive] = node[bound];
      delete node[bound];
    } else delete node[exclusive];
  }
  if ("example" in node) found = true;
  if ("example" in node && warnings !== undefined) {
    warnings.add("openapi30:example", at + "/example", "example in a schema is OpenAPI 3.0 (deprecated in 3.1): an annotation; write examples: [...]");
  }
  return found;
}

function nullable(node: Json, at: string, warnings: Warnings): void {
  const type = node["type"];
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  if (node["nullable"] === true && types !== undefined) {
    warnings.add("openapi30:nullable", at + "/nullable", 'nullable is OpenAPI 3.0: read as 3.0 meant it ("null" added to type); in 3.1 write type: [..., "null"]');
    if (!types.includes("null")) node["type"] = [...types, "null"];
    const values = node["enum"];
    if (Array.isArray(values) && !values.includes(null)) node["enum"] = [...values, null];
  } else {
    warnings.add(
      "openapi30:nullable-ignored",
      at + "/nullable",
      "nullable without type (or nullable: false) has no effect (OpenAPI 3.0.3); in 3.1 write type: [..., \"null\"] or anyOf: [..., { type: \"null\" }]",
    );
  }
  delete node["nullable"];
}
