/** The pagination extension's part of the model: how each list operation that pages moves to its next page. */

export const PAGINATION_EXTENSION = "pagination";

/** The contract's key that says, or denies, an operation's pagination. */
export const X_PAGINATION = "x-pagination";

export type PaginationKind = "cursor" | "page" | "offset" | "link" | "next-url";

/**
 * How the next page is asked for, as the runtime's `PaginationSpec` (templates/runtime/pagination/types.ts)
 * takes it. Pointers are JSON pointers into the successful body; `items` is `""` when the body is the array.
 */
export interface PaginationStrategy {
  kind: PaginationKind;
  items: string;
  /** cursor, page, offset: the query parameter the iterator sets. */
  param?: string;
  /** cursor: where the body gives the next cursor. */
  cursor?: string;
  /** cursor: where in the page's last item the next cursor is (Stripe's `/id`). */
  lastItem?: string;
  /** cursor: a boolean saying whether more pages follow. */
  hasMore?: string;
  /** page, offset: the number of items in all pages. */
  total?: string;
  /** page: the number of pages. */
  totalPages?: string;
  /** page: the number of the first page (1 unless said). */
  firstPage?: number;
  /** next-url: where the body gives the next page's URL. */
  next?: string;
}

export interface PagedOperation {
  operationId: string;
  strategy: PaginationStrategy;
  /** Where the strategy came from: the operation's `x-pagination`, or a shape recognised in its parameters and response. */
  source: "x-pagination" | "recognised";
  /**
   * link, next-url: the declared query parameters whose values are not strings, so that the
   * next URL's text values are sent as the contract types them (`page=2` as the number 2).
   */
  queryTypes: Record<string, "integer" | "number" | "boolean" | "array">;
}

export interface PaginationModel {
  /** The operations that page, in the order of the model's operations. */
  operations: PagedOperation[];
}
