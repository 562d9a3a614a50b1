/**
 * The pagination extension's model-stage side: the operations that page (detect.ts: an
 * `x-pagination`, else a recognised shape), matched to the model's operations, and the lines that
 * say so in the generator's output.
 */
import { runtimeExports } from "../../model/names.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ExtensionReader } from "../reader.ts";
import { detectPagination } from "./detect.ts";
import { PAGINATION_EXTENSION as NAME, type PaginationKind, type PaginationModel } from "./types.ts";

export const paginationReader: ExtensionReader = {
  name: NAME,
  isUsedBy: (document) => detectPagination(document).detections.length > 0,
  methodNames: [],
  exportNames: () => runtimeExports(NAME),
  read: (contract, api, warnings) => {
    const { detections, warnings: found } = detectPagination(contract.document);
    for (const warning of found) warnings.add(...warning);
    return readPagination(api, detections);
  },
  notes: (model) => paginationNotes(model as PaginationModel),
};

function readPagination(api: ApiModel, detections: ReturnType<typeof detectPagination>["detections"]): PaginationModel | undefined {
  const byRoute = new Map(detections.map((detection) => [`${detection.method} ${detection.path}`, detection]));
  const operations = api.operations.flatMap((operation) => {
    const detection = byRoute.get(`${operation.method} ${operation.path}`);
    if (detection === undefined) return [];
    const { strategy, source, queryTypes } = detection;
    return [{ operationId: operation.operationId, strategy, source, queryTypes }];
  });
  return operations.length === 0 ? undefined : { operations };
}

const KIND_ORDER: readonly PaginationKind[] = ["cursor", "page", "offset", "link", "next-url"];

/**
 * `pagination: 12 operations (cursor 8, link 4)`, then one line per kind naming its first
 * operations and how many of them the contract's `x-pagination` said.
 */
export function paginationNotes(model: PaginationModel): string[] {
  const byKind = new Map<PaginationKind, PaginationModel["operations"]>();
  for (const operation of model.operations) byKind.set(operation.strategy.kind, [...(byKind.get(operation.strategy.kind) ?? []), operation]);
  const kinds = KIND_ORDER.filter((kind) => byKind.has(kind));
  const count = (n: number) => `${n} operation${n === 1 ? "" : "s"}`;
  const lines = [`pagination: ${count(model.operations.length)} (${kinds.map((kind) => `${kind} ${byKind.get(kind)!.length}`).join(", ")})`];
  for (const kind of kinds) {
    const operations = byKind.get(kind)!;
    const named = operations.slice(0, 3).map((operation) => operation.operationId);
    const more = operations.length > named.length ? `, … ${operations.length - named.length} more` : "";
    const declared = operations.filter((operation) => operation.source === "x-pagination").length;
    const from = declared === 0 ? "recognised" : declared === operations.length ? "from x-pagination" : `${declared} from x-pagination, ${operations.length - declared} recognised`;
    lines.push(`  ${kind}: ${count(operations.length)}, ${from} (${named.join(", ")}${more})`);
  }
  return lines;
}
