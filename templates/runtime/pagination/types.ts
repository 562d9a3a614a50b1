/**
 * The pagination runtime's types: how an operation pages (the generator writes one
 * `PaginationSpec` per operation), what a caller bounds an iteration with, and what a page is.
 */
import type { ApiResult, RequestOptions } from "../client-core.js";

/**
 * How an operation moves to its next page. Pointers are JSON pointers into the successful body;
 * `items` is `""` when the body is the array of items.
 * - `cursor`: `param` takes the next cursor, read from the body (`cursor`) or from the page's last
 *   item (`lastItem`); `hasMore` false, no cursor, or (with `lastItem`) an empty page ends it.
 * - `page`: `param` counts pages from `firstPage` (1); an empty page, `totalPages` or `total` ends it.
 * - `offset`: `param` moves on by each page's length from 0; an empty page or `total` ends it.
 * - `link`: the `Link` header's `rel="next"` URL; `next-url`: the body's `next`. Its query is sent
 *   on the same operation (its scheme, host and path are not followed); none ends it.
 */
export interface PaginationSpec {
  kind: "cursor" | "page" | "offset" | "link" | "next-url";
  items: string;
  param?: string | undefined;
  cursor?: string | undefined;
  lastItem?: string | undefined;
  hasMore?: string | undefined;
  total?: string | undefined;
  totalPages?: string | undefined;
  firstPage?: number | undefined;
  next?: string | undefined;
  /** Query parameters of a next URL typed otherwise than as strings, sent as the contract types them (`page=2` as 2). */
  queryTypes?: Readonly<Record<string, "integer" | "number" | "boolean" | "array">> | undefined;
}

/** A paging call's options: a call's, and what bounds the iteration. */
export interface PaginationOptions extends RequestOptions {
  /** Stops the iteration after this many items (a page iteration after the page that reaches it); no further page is asked for. */
  maxItems?: number | undefined;
  /** Asks for at most this many pages, the first included. */
  maxPages?: number | undefined;
}

/** One page: its items, and the whole answer (typed body, status, headers, rate limits, request id). */
export interface PageOfItems<T, Item> {
  items: Item[];
  result: ApiResult<T>;
}

/**
 * The type of the items at `Path` (property names) in a body of type `T`: `ItemsAt<{ data: Customer[] }, ["data"]>`
 * is `Customer`, `ItemsAt<Repo[], []>` is `Repo`; `unknown` where the type says no array is there.
 */
export type ItemsAt<T, Path extends readonly string[]> = Path extends readonly [infer Key extends string, ...infer Rest extends readonly string[]]
  ? ItemsAt<PropertyOf<NonNullable<T>, Key>, Rest>
  : [NonNullable<T>] extends [never]
    ? unknown
    : NonNullable<T> extends readonly (infer Item)[]
      ? Item
      : unknown;

/** The type of property `Key` of each member of `T` that has it (a union keeps the members that do). */
type PropertyOf<T, Key extends string> = T extends { readonly [K in Key]?: infer Value } ? Value : never;
