/**
 * A discriminator's `mapping` value may name a schema of `components.schemas` rather than reference
 * it (OpenAPI: "mappings between payload values and schema names or references"). At load each
 * such name becomes the `$ref` it stands for, so every later stage reads one form: openapi-typescript
 * reads every value as a reference, and stops on a name. A value that names no schema stays as
 * written (a reference, or one the type emitter will report where it is).
 */
import { pointer, pointerRef } from "../common/json-pointer.ts";
import { forEachSchema } from "../common/schema-walk.ts";

/** `document` itself when no mapping value is a schema name, else a copy with each name as its `$ref`. */
export function mappingNamesAsRefs(document: unknown): unknown {
  const schemas = (document as { components?: { schemas?: unknown } }).components?.schemas;
  if (typeof schemas !== "object" || schemas === null) return document;
  const isName = (value: unknown): value is string => typeof value === "string" && Object.hasOwn(schemas, value);
  const mappings = (root: unknown, visit: (mapping: Record<string, unknown>) => void) =>
    forEachSchema(root, (node) => {
      const mapping = (node["discriminator"] as { mapping?: unknown } | undefined)?.mapping;
      if (typeof mapping === "object" && mapping !== null && !Array.isArray(mapping)) visit(mapping as Record<string, unknown>);
    });
  let named = false;
  mappings(document, (mapping) => (named ||= Object.values(mapping).some(isName)));
  if (!named) return document;
  const copy = structuredClone(document);
  mappings(copy, (mapping) => {
    for (const [key, value] of Object.entries(mapping)) if (isName(value)) mapping[key] = refTo(value);
  });
  return copy;
}

/** The URI fragment of a component schema: its pointer, each segment percent-encoded (a `$ref` is a URI). */
function refTo(name: string): string {
  return pointerRef(pointer("components", "schemas", name));
}
