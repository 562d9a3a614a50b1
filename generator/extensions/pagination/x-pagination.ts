/**
 * An operation's `x-pagination`: `false` says it does not page (no shape is recognised on it); an
 * object says how it pages, in the runtime's own terms (`PaginationStrategy`):
 *
 *   x-pagination:
 *     kind: cursor            # cursor | page | offset | link | next-url
 *     items: /data            # the items array in the body; "" (or left out, for an array body) is the body
 *     param: starting_after   # cursor, page, offset: the query parameter the iterator sets
 *     lastItem: /id           # cursor: the next cursor is this field of the page's last item…
 *     cursor: /next_page      # …or this field of the body (one of the two)
 *     hasMore: /has_more      # cursor: false here ends the iteration (optional)
 *     total: /total_count     # page, offset: the number of all items (optional)
 *     totalPages: /pages      # page: the number of pages (optional)
 *     firstPage: 1            # page: the first page's number (default 1)
 *     next: /links/next       # next-url: the next page's URL
 *
 * Every key is checked: one another kind does not take, a pointer that is not one, a parameter the
 * operation does not declare in its query, or items that the response schema says are no array.
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import type { Warnings } from "../../common/warnings.ts";
import { itemsPointer, type OperationView } from "./recognise.ts";
import { schemaAt, typesOf, type Follow, isObject } from "./schema-shape.ts";
import { X_PAGINATION, type PaginationKind, type PaginationStrategy } from "./types.ts";

const KEYS: Readonly<Record<PaginationKind, readonly string[]>> = {
  cursor: ["param", "lastItem", "cursor", "hasMore"],
  page: ["param", "total", "totalPages", "firstPage"],
  offset: ["param", "total"],
  link: [],
  "next-url": ["next"],
};
const KINDS = Object.keys(KEYS) as PaginationKind[];
const BODY_POINTERS = ["lastItem", "cursor", "hasMore", "total", "totalPages", "next"] as const;

/** The operation's strategy as its `x-pagination` says; `null` for `false`. `at` points at the key. */
export function readXPagination(value: unknown, at: string, view: OperationView, follow: Follow, warnings: Pick<Warnings, "add">): PaginationStrategy | null {
  if (value === false) return null;
  if (!isObject(value)) throw new ContractError(at, `${X_PAGINATION} is false (the operation does not page) or an object saying how it pages, not ${JSON.stringify(value)}`);
  const kind = value.kind;
  if (typeof kind !== "string" || !KINDS.includes(kind as PaginationKind)) {
    throw new ContractError(`${at}/kind`, `${X_PAGINATION}.kind is one of ${KINDS.join(", ")}, not ${JSON.stringify(kind)}`);
  }
  const allowed = new Set(["kind", "items", ...KEYS[kind as PaginationKind]]);
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) throw new ContractError(`${at}${pointer(key)}`, `${X_PAGINATION} of kind ${kind} takes ${[...allowed].join(", ")}; not ${key}`);
  }
  const strategy: PaginationStrategy = { kind: kind as PaginationKind, items: readItems(value.items, at, view, follow) };
  for (const key of BODY_POINTERS) {
    if (value[key] === undefined) continue;
    strategy[key] = bodyPointer(value[key], `${at}/${key}`);
  }
  if (value.param !== undefined || kind === "cursor" || kind === "page" || kind === "offset") strategy.param = queryParameter(value.param, `${at}/param`, view);
  if (value.firstPage !== undefined) {
    if (!Number.isInteger(value.firstPage) || value.firstPage < 0) throw new ContractError(`${at}/firstPage`, `${X_PAGINATION}.firstPage is a whole number, not ${JSON.stringify(value.firstPage)}`);
    strategy.firstPage = value.firstPage;
  }
  if (kind === "cursor" && (strategy.cursor === undefined) === (strategy.lastItem === undefined)) {
    throw new ContractError(at, `${X_PAGINATION} of kind cursor says where the next cursor is: cursor (a field of the body) or lastItem (a field of the page's last item), one of the two`);
  }
  if (kind === "next-url" && strategy.next === undefined) throw new ContractError(at, `${X_PAGINATION} of kind next-url says where the next URL is (next: a pointer into the body)`);
  checkAgainstSchema(strategy, at, view, follow, warnings);
  return strategy;
}

function readItems(items: unknown, at: string, view: OperationView, follow: Follow): string {
  if (items !== undefined) return items === "" ? "" : bodyPointer(items, `${at}/items`);
  const found = itemsPointer(view.body, follow);
  if (found === undefined) throw new ContractError(`${at}/items`, `${X_PAGINATION} needs items (a pointer to the array of items in the body): the response shows no array to page through`);
  return found;
}

function bodyPointer(value: unknown, at: string): string {
  if (typeof value !== "string" || !value.startsWith("/")) throw new ContractError(at, `a JSON pointer into the response body, such as "/data", not ${JSON.stringify(value)}`);
  try {
    parsePointer(value);
  } catch (error) {
    throw new ContractError(at, error instanceof ContractError ? error.reason : String(error));
  }
  return value;
}

function queryParameter(value: unknown, at: string, view: OperationView): string {
  if (typeof value !== "string" || !view.query.has(value)) {
    const declared = [...view.query.keys()];
    throw new ContractError(at, `${X_PAGINATION}.param names a query parameter of the operation (${declared.length ? declared.join(", ") : "it declares none"}), not ${JSON.stringify(value)}`);
  }
  return value;
}

/** The items must be an array where the response schema says what they are; a pointer it does not show is only a warning (checked at run time). */
function checkAgainstSchema(strategy: PaginationStrategy, at: string, view: OperationView, follow: Follow, warnings: Pick<Warnings, "add">): void {
  if (view.body === undefined) return;
  const items = strategy.items === "" ? view.body : schemaAt(view.body, parsePointer(strategy.items), follow);
  if (items === undefined) {
    warnings.add("pagination:items-not-in-schema", `${at}/items`, `${X_PAGINATION}.items ${JSON.stringify(strategy.items)} is not a property of the response schema; each page is checked for it at run time`);
    return;
  }
  const types = typesOf(items, follow);
  if (types.size > 0 && !types.has("array")) throw new ContractError(`${at}/items`, `${X_PAGINATION}.items must point at an array in the response, and ${JSON.stringify(strategy.items)} is ${[...types].join(" or ")}`);
}
