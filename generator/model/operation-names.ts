/**
 * The names an operation gets: its operationId as the package knows it (the key of its spec, its
 * validators and `operations` in `src/schema.ts`), its client method and its types. OpenAPI makes
 * operationIds unique, yet published documents repeat them; such a document is generated with a
 * warning, by one rule that depends only on the document's order:
 *
 * - operations are taken in document order: paths as written, then methods in the order get, put,
 *   post, delete, options, head, patch, trace;
 * - the first operation with an operationId keeps it (one without takes `<method><path>`);
 * - each later one with the same operationId is named `<operationId>_<method><path>`
 *   (`getThing_post/things/{id}`: method `getThingPostThingsId`, types `GetThingPostThingsId…`),
 *   and `_2`, `_3`… after that if another operation already has that name;
 * - method and type names come from those names; two that become the same identifier (`get_pod`
 *   and `getPod`), or a method named like one the client already has, take a numeric suffix
 *   (`getPod2`), the first in document order keeping the plain name.
 */
import { uniqueIdentifiers } from "../common/escape.ts";
import type { Warnings } from "../common/warnings.ts";
import type { HttpMethod } from "./types.ts";

export interface OperationNaming {
  /** The operationId as written, if any. */
  operationId: string | undefined;
  method: HttpMethod;
  path: string;
  /** Pointer of the operation object. */
  pointer: string;
}

export interface OperationNames {
  operationId: string;
  methodName: string;
  typeName: string;
}

/** Names for `operations`, in their (document) order; `reservedMethodNames` are methods the client already has. */
export function operationNames(operations: readonly OperationNaming[], reservedMethodNames: readonly string[], warnings: Warnings | undefined): OperationNames[] {
  const written = operations.map((o) => o.operationId ?? `${o.method}${o.path}`);
  const firstAt = new Map<string, number>();
  written.forEach((id, index) => {
    if (!firstAt.has(id)) firstAt.set(id, index);
  });
  // Every first occurrence keeps its name, wherever a renamed one would fall.
  const taken = new Set(firstAt.keys());
  const ids = written.map((id, index) => {
    if (firstAt.get(id) === index) return id;
    const base = `${id}_${operations[index]!.method}${operations[index]!.path}`;
    let renamed = base;
    for (let counter = 2; taken.has(renamed); counter += 1) renamed = `${base}_${counter}`;
    taken.add(renamed);
    return renamed;
  });
  const methodNames = uniqueIdentifiers(ids, { case: "camel", taken: reservedMethodNames });
  const typeNames = uniqueIdentifiers(ids, { case: "pascal" });
  ids.forEach((id, index) => {
    if (id === written[index]) return;
    const at = operations[index]!.pointer;
    const first = operations[firstAt.get(written[index]!)!]!.pointer;
    warnings?.add(
      `operationId:duplicate:${at}`,
      `${at}/operationId`,
      `operationId ${JSON.stringify(written[index])} is also the operationId of #${first}, which keeps it; this operation is generated as ${JSON.stringify(id)} (method ${methodNames[index]}, types ${typeNames[index]}…)`,
    );
  });
  return ids.map((operationId, index) => ({ operationId, methodName: methodNames[index]!, typeName: typeNames[index]! }));
}
