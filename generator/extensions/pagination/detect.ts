/**
 * Which operations of a document page, and how: each operation's `x-pagination` when it has one,
 * else the shape recognised on a GET (recognise.ts). Read on the document as written, since the
 * extension's names are taken before the model exists; the model's operations are matched by
 * method and path.
 */
import { pointer } from "../../common/json-pointer.ts";
import { mediaTypeKind } from "../../common/media-types.ts";
import type { Warnings } from "../../common/warnings.ts";
import { HTTP_METHODS } from "../../model/types.ts";
import { recognise, type OperationView } from "./recognise.ts";
import { follower, isObject, typesOf, type Follow } from "./schema-shape.ts";
import { X_PAGINATION, type PagedOperation, type PaginationStrategy } from "./types.ts";
import { readXPagination } from "./x-pagination.ts";

export interface Detection extends Omit<PagedOperation, "operationId"> {
  method: string;
  path: string;
}

/** A warning found while detecting, said when the model is read. */
export type DetectionWarning = Parameters<Warnings["add"]>;

const detected = new WeakMap<object, { detections: Detection[]; warnings: DetectionWarning[] }>();

/** Every operation that pages, in path and method order, and what to warn of; read once per document. */
export function detectPagination(document: object): { detections: Detection[]; warnings: DetectionWarning[] } {
  let result = detected.get(document);
  if (result === undefined) {
    const warnings: DetectionWarning[] = [];
    result = { detections: detectAll(document, { add: (...args: DetectionWarning) => void warnings.push(args) }), warnings };
    detected.set(document, result);
  }
  return result;
}

function detectAll(document: object, warnings: Pick<Warnings, "add">): Detection[] {
  const follow = follower(document);
  const found: Detection[] = [];
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = follow(rawItem);
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const at = `${pointer("paths", path, method)}`;
      const view = viewOf(item, operation, follow);
      let strategy: PaginationStrategy | null | undefined;
      let source: Detection["source"] = "recognised";
      if (operation[X_PAGINATION] !== undefined) {
        strategy = readXPagination(operation[X_PAGINATION], `${at}${pointer(X_PAGINATION)}`, view, follow, warnings);
        source = "x-pagination";
      } else if (method === "get") {
        strategy = recognise(view, follow);
      }
      if (!strategy) continue;
      found.push({ method, path, strategy, source, queryTypes: strategy.kind === "link" || strategy.kind === "next-url" ? queryTypes(view, follow) : {} });
    }
  }
  return found;
}

function viewOf(item: Record<string, any>, operation: Record<string, any>, follow: Follow): OperationView {
  const query = new Map<string, unknown>();
  // The operation's parameters replace the path item's of the same name.
  for (const list of [item.parameters, operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = follow(raw);
      if (isObject(parameter) && parameter.in === "query" && typeof parameter.name === "string") query.set(parameter.name, follow(parameter.schema));
    }
  }
  const responses = isObject(operation.responses) ? operation.responses : {};
  const success = Object.keys(responses)
    .filter((status) => status.startsWith("2"))
    .sort();
  for (const status of success) {
    const response = follow(responses[status]);
    if (!isObject(response)) continue;
    const content = isObject(response.content) ? response.content : {};
    const json = Object.keys(content).find((mediaType) => mediaTypeKind(mediaType) === "json");
    if (json === undefined) continue;
    const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
    return { query, body: follow(content[json]?.schema), linkHeader: headers.some((name) => name.toLowerCase() === "link") };
  }
  return { query, body: undefined, linkHeader: false };
}

/** The declared query parameters a next URL's text values are converted for: those typed otherwise than as strings. */
function queryTypes(view: OperationView, follow: Follow): PagedOperation["queryTypes"] {
  const types: PagedOperation["queryTypes"] = {};
  for (const [name, schema] of view.query) {
    const admitted = typesOf(schema, follow);
    if (admitted.has("string") || admitted.size !== 1) continue;
    const [type] = admitted;
    if (type === "integer" || type === "number" || type === "boolean" || type === "array") types[name] = type;
  }
  return types;
}
