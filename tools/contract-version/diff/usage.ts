/**
 * Which directions each component schema is used in: reached from a parameter or request body it
 * is input, from a response output, from an `x-model-endpoints` model its input or output schema.
 * A change is classified by the directions its schema travels in.
 */
import { pointer as toPointer, unescapeSegment } from "../../../generator/common/json-pointer.ts";
import type { LoadedContract } from "../../../generator/load/contract.ts";
import type { ApiModel } from "../../../generator/model/index.ts";
import type { Json } from "../contract.ts";
import type { Direction } from "./context.ts";
import { modelEndpointsOf } from "../../../generator/extensions/model-endpoints/model.ts";

/** Adds the uses found in `contract` to `usage` (component schema name → directions). */
export function collectUsage(contract: LoadedContract, model: ApiModel, usage: Map<string, Set<Direction>>): void {
  const mark = (node: Json, direction: Direction, seen: Set<string>) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) mark(item, direction, seen);
      return;
    }
    if (typeof node.$ref === "string") {
      const match = /^#\/components\/schemas\/([^/]+)$/.exec(node.$ref);
      if (match) {
        const name = unescapeSegment(match[1]!);
        const set = usage.get(name) ?? new Set<Direction>();
        set.add(direction);
        usage.set(name, set);
      }
      if (seen.has(node.$ref)) return;
      seen.add(node.$ref);
      try {
        mark(contract.resolve(node.$ref), direction, seen);
      } catch {
        /* a dangling ref is the loader's problem */
      }
      return;
    }
    for (const value of Object.values(node)) mark(value, direction, seen);
  };
  for (const operation of model.operations) {
    for (const parameter of operation.parameters) if (parameter.schemaPointer !== undefined) mark(contract.at(parameter.schemaPointer), "input", new Set());
    if (operation.requestBody?.schemaPointer !== undefined) mark(contract.at(operation.requestBody.schemaPointer), "input", new Set());
    const raw = contract.at<Json>(operation.pointer);
    mark(raw?.responses, "output", new Set());
  }
  for (const m of modelEndpointsOf(model)?.endpoints ?? []) {
    mark({ $ref: `#${toPointer("components", "schemas", m.inputSchema)}` }, "input", new Set());
    mark({ $ref: `#${toPointer("components", "schemas", m.outputSchema)}` }, "output", new Set());
  }
}
