/**
 * The paging shapes recognised without `x-pagination`, on a GET operation's query parameters, its
 * first successful JSON response and that response's headers, tried in this order:
 *
 * - link: the response declares a `Link` header (GitHub): the next page is its `rel="next"` URL;
 * - cursor from the body: a next cursor (`nextPageToken`, `next_cursor`, `next_page`…) that a query
 *   parameter of the same name less `next` takes back (`pageToken`, `cursor`, `page`);
 * - cursor from the last item: a has-more flag (`has_more`) and a `starting_after` (or `after`)
 *   parameter taking the last item's `id` (Stripe);
 * - next-url: a next URL in the body (`next`, `next_url`, `nextLink`, `links.next`, `_links.next.href`);
 * - page or offset with a total: a `page` (or `offset`) parameter and a total count (or number of
 *   pages) in the body.
 *
 * Each needs the items: the body itself when it is an array, else its array property of a common
 * name (`data`, `items`, `results`…) or its only array property. A list that shows none of these
 * does not page.
 */
import { pointer, unescapeSegment } from "../../common/json-pointer.ts";
import { isObject, itemsOf, propertiesOf, typesOf, type Follow } from "./schema-shape.ts";
import type { PaginationStrategy } from "./types.ts";

/** What recognition reads of one operation. */
export interface OperationView {
  /** The declared query parameters' schemas (followed; undefined for one without a schema), by name. */
  query: Map<string, unknown>;
  /** The first successful JSON response's schema, followed; undefined without one. */
  body: unknown;
  /** The first successful response declares a `Link` header. */
  linkHeader: boolean;
}

const ITEM_ARRAYS = ["data", "items", "results", "records", "entries", "values", "elements", "nodes", "content", "list"];
/** Objects of the body that hold paging facts one level down (`meta.total`, `response_metadata.next_cursor`). */
const CONTAINERS = ["meta", "pagination", "paging", "page_info", "pageInfo", "response_metadata", "links", "_links", "metadata"];
const NEXT_CURSORS = ["nextPageToken", "next_page_token", "next_cursor", "nextCursor", "next_token", "nextToken", "next_page", "nextPage", "continuation_token", "continuationToken"];
const HAS_MORE = ["has_more", "hasMore", "has_next", "hasNext", "has_next_page", "hasNextPage"];
const AFTER_PARAMETERS = ["starting_after", "after"];
const NEXT_URLS = ["next", "next_url", "nextUrl", "next_page_url", "nextPageUrl", "nextLink", "next_link", "@odata.nextLink", "odata.nextLink"];
const PAGE_PARAMETERS = ["page", "page_number", "pageNumber", "pageNo"];
const OFFSET_PARAMETERS = ["offset", "skip"];
const TOTALS = ["total", "total_count", "totalCount", "total_results", "totalResults", "total_items", "totalItems", "total_entries", "totalElements", "count"];
const TOTAL_PAGES = ["total_pages", "totalPages", "page_count", "pageCount", "last_page", "lastPage"];
const URL_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "iri-reference"]);

export function recognise(view: OperationView, follow: Follow): PaginationStrategy | undefined {
  const items = itemsPointer(view.body, follow);
  if (items === undefined) return undefined;
  if (view.linkHeader) return { kind: "link", items };
  const body = view.body;
  const objectBody = typesOf(body, follow).has("object") || propertiesOf(body, follow).size > 0;
  if (!objectBody) return undefined;
  const hasMore = find(body, HAS_MORE, (schema) => typesOf(schema, follow).has("boolean"), follow);

  for (const name of NEXT_CURSORS) {
    const at = find(body, [name], (schema) => isScalar(schema, follow) && !isUrl(schema, follow), follow);
    if (at === undefined) continue;
    const param = matchingParameter(name, view.query);
    if (param !== undefined) return { kind: "cursor", items, param, cursor: at, ...(hasMore === undefined ? {} : { hasMore }) };
  }

  const after = AFTER_PARAMETERS.find((name) => view.query.has(name));
  if (hasMore !== undefined && after !== undefined) {
    const lastId = find(body, ["last_id", "lastId"], (schema) => isScalar(schema, follow), follow);
    if (lastId !== undefined) return { kind: "cursor", items, param: after, cursor: lastId, hasMore };
    if (itemsHaveId(view.body, items, follow)) return { kind: "cursor", items, param: after, lastItem: "/id", hasMore };
  }

  const next = nextUrl(body, follow);
  if (next !== undefined) return { kind: "next-url", items, next };

  const total = find(body, TOTALS, (schema) => isNumber(schema, follow), follow);
  const totalPages = find(body, TOTAL_PAGES, (schema) => isNumber(schema, follow), follow);
  const page = PAGE_PARAMETERS.find((name) => view.query.has(name) && isNumber(view.query.get(name), follow));
  if (page !== undefined && (total !== undefined || totalPages !== undefined)) {
    const firstPage = firstPageOf(view.query.get(page), follow);
    return { kind: "page", items, param: page, ...(firstPage === 1 ? {} : { firstPage }), ...(total === undefined ? {} : { total }), ...(totalPages === undefined ? {} : { totalPages }) };
  }
  const offset = OFFSET_PARAMETERS.find((name) => view.query.has(name) && isNumber(view.query.get(name), follow));
  if (offset !== undefined && total !== undefined) return { kind: "offset", items, param: offset, total };
  return undefined;
}

/** Where the items are: `""` for an array body, else the pointer of its items property; undefined without one. */
export function itemsPointer(body: unknown, follow: Follow): string | undefined {
  if (body === undefined) return undefined;
  if (typesOf(body, follow).has("array")) return "";
  const arrays = [...propertiesOf(body, follow)].filter(([, schema]) => typesOf(schema, follow).has("array")).map(([name]) => name);
  const named = ITEM_ARRAYS.find((name) => arrays.includes(name));
  const chosen = named ?? (arrays.length === 1 ? arrays[0] : undefined);
  return chosen === undefined ? undefined : pointer(chosen);
}

/** The pointer of the first of `names` (at the top, else in a container) whose schema passes `test`. */
function find(body: unknown, names: readonly string[], test: (schema: unknown) => boolean, follow: Follow): string | undefined {
  const top = propertiesOf(body, follow);
  for (const name of names) if (top.has(name) && test(top.get(name))) return pointer(name);
  for (const container of CONTAINERS) {
    if (!top.has(container)) continue;
    const inner = propertiesOf(top.get(container), follow);
    for (const name of names) if (inner.has(name) && test(inner.get(name))) return pointer(container, name);
  }
  return undefined;
}

/** A next URL: a string of one of the names, or a HAL link object (`_links.next.href`). */
function nextUrl(body: unknown, follow: Follow): string | undefined {
  const plain = find(body, NEXT_URLS, (schema) => typesOf(schema, follow).has("string"), follow);
  if (plain !== undefined) return plain;
  const named = find(body, ["next_page", "nextPage"], (schema) => isUrl(schema, follow), follow);
  if (named !== undefined) return named;
  const link = find(body, ["next"], (schema) => typesOf(propertiesOf(schema, follow).get("href"), follow).has("string"), follow);
  return link === undefined ? undefined : `${link}/href`;
}

/** The query parameter that takes a body's next cursor back: the same name, or the name less `next`. */
function matchingParameter(bodyName: string, query: Map<string, unknown>): string | undefined {
  const wanted = new Set([normalise(bodyName), normalise(bodyName).replace(/^next/, "")]);
  return [...query.keys()].find((name) => wanted.has(normalise(name)));
}

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function itemsHaveId(body: unknown, items: string, follow: Follow): boolean {
  const array = items === "" ? body : propertiesOf(body, follow).get(unescapeSegment(items.slice(1)));
  const item = itemsOf(array, follow);
  const properties = propertiesOf(item, follow);
  // An item of several shapes (Stripe's payment sources) is taken at its word; one that lists its properties must list `id`.
  return properties.size === 0 ? isObject(item) : properties.has("id");
}

function isScalar(schema: unknown, follow: Follow): boolean {
  const types = typesOf(schema, follow);
  return types.has("string") || types.has("integer") || types.has("number");
}

function isNumber(schema: unknown, follow: Follow): boolean {
  const types = typesOf(schema, follow);
  return types.has("integer") || types.has("number");
}

function isUrl(schema: unknown, follow: Follow): boolean {
  const value = follow(schema);
  return isObject(value) && typeof value.format === "string" && URL_FORMATS.has(value.format);
}

/** A page parameter's first value: its default when that is 0 or 1, else 1 (a `minimum: 0` only says a page is not negative). */
function firstPageOf(schema: unknown, follow: Follow): number {
  const value = follow(schema);
  return isObject(value) && value.default === 0 ? 0 : 1;
}
