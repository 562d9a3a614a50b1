/**
 * From one page to the next: the items a page holds and the parameters of the page after it, as the
 * operation's `PaginationSpec` says, or the end. A page that does not fit the spec (no items array,
 * a cursor or next URL seen before, the same page twice) throws an `UnexpectedResponseError` saying
 * so: a shape recognised wrongly ends in a clear error, never in an endless loop.
 */
import type { ApiResult, OperationParams, OperationSpec } from "../client-core.js";
import { UnexpectedResponseError } from "../errors.js";
import { valueAt } from "../json-pointer.js";
import { nextLink } from "./link-header.js";
import type { PaginationSpec } from "./types.js";

/** Where a relative next URL is read against: only its query is used. */
const RELATIVE_BASE = "http://next-page.invalid/";

export class NextPage {
  readonly #spec: OperationSpec;
  readonly #pagination: PaginationSpec;
  /** Cursors and next URLs already followed: one coming back means the server is going round. */
  readonly #followed = new Set<string>();
  /** The first and last items of the page before (page and offset kinds): the same again means the parameter is ignored. */
  #previousEnds: string | undefined;
  /** Items seen in this iteration, for `total`. */
  #seen = 0;

  constructor(spec: OperationSpec, pagination: PaginationSpec) {
    this.#spec = spec;
    this.#pagination = pagination;
  }

  /** The page's items; throws when the body has no array where the spec says. */
  items(result: ApiResult<unknown>): unknown[] {
    const items = valueAt(result.data, this.#pagination.items);
    if (!Array.isArray(items)) {
      const where = this.#pagination.items === "" ? "the body is" : `${this.#pagination.items} is`;
      this.#fail(result, `${where} ${describe(items)}, not the array of items the operation's ${this.#pagination.kind} pagination reads`);
    }
    return items;
  }

  /** The parameters of the page after the one `params` asked for and `result` answered, or undefined at the end. */
  next(params: OperationParams, result: ApiResult<unknown>, items: readonly unknown[]): OperationParams | undefined {
    this.#seen += items.length;
    switch (this.#pagination.kind) {
      case "cursor":
        return this.#nextCursor(params, result, items);
      case "page":
        return this.#nextNumber(params, result, items, (current) => current + 1, this.#pagination.firstPage ?? 1);
      case "offset":
        return this.#nextNumber(params, result, items, (current) => current + items.length, 0);
      case "link":
        return this.#follow(params, result, nextLink(result.headers.get("link")), "the Link header's next URL");
      case "next-url": {
        const next = valueAt(result.data, this.#pagination.next ?? "");
        if (next === undefined || next === null || next === "") return undefined;
        if (typeof next !== "string") this.#fail(result, `the next URL at ${this.#pagination.next} is ${describe(next)}, not a string`);
        return this.#follow(params, result, next, `the next URL at ${this.#pagination.next}`);
      }
    }
  }

  #nextCursor(params: OperationParams, result: ApiResult<unknown>, items: readonly unknown[]): OperationParams | undefined {
    const pagination = this.#pagination;
    const hasMore = pagination.hasMore === undefined ? undefined : valueAt(result.data, pagination.hasMore);
    if (hasMore === false) return undefined;
    let cursor: unknown;
    let from: string;
    if (pagination.lastItem !== undefined) {
      from = `the last item's ${pagination.lastItem}`;
      if (items.length === 0) {
        if (hasMore === true) this.#fail(result, `${pagination.hasMore} says more pages follow, but the page has no item to continue after`);
        return undefined;
      }
      cursor = valueAt(items[items.length - 1], pagination.lastItem);
      if (cursor === undefined || cursor === null || cursor === "") this.#fail(result, `${from} is missing, so the next page cannot be asked for`);
    } else {
      from = pagination.cursor ?? "";
      cursor = valueAt(result.data, from);
      if (cursor === undefined || cursor === null || cursor === "") {
        if (hasMore === true) this.#fail(result, `${pagination.hasMore} says more pages follow, but the body has no cursor at ${from}`);
        return undefined;
      }
    }
    if (typeof cursor !== "string" && typeof cursor !== "number") this.#fail(result, `the cursor at ${from} is ${describe(cursor)}, not a string or a number`);
    const param = pagination.param ?? "";
    const key = String(cursor);
    if (this.#followed.has(key) || key === String(queryOf(params)[param] ?? "\u0000")) {
      this.#fail(result, `the cursor ${param}=${key} came back after it was sent (no progress), so iteration stops rather than go round`);
    }
    this.#followed.add(key);
    return withQuery(params, { ...queryOf(params), [param]: cursor });
  }

  #nextNumber(params: OperationParams, result: ApiResult<unknown>, items: readonly unknown[], step: (current: number) => number, start: number): OperationParams | undefined {
    if (items.length === 0) return undefined;
    const pagination = this.#pagination;
    const param = pagination.param ?? "";
    const given = queryOf(params)[param];
    const current = given === undefined ? start : Number(given);
    if (!Number.isFinite(current)) this.#fail(result, `${param}=${String(given)} is not a number to count pages from`);
    const total = numberAt(result.data, pagination.total);
    const totalPages = numberAt(result.data, pagination.totalPages);
    const next = step(current);
    if (totalPages !== undefined && next > totalPages - 1 + (pagination.firstPage ?? 1)) return undefined;
    if (total !== undefined && (pagination.kind === "offset" ? next >= total : this.#seen >= total)) return undefined;
    const ends = `${JSON.stringify(items[0])}\u0000${JSON.stringify(items[items.length - 1])}`;
    if (ends === this.#previousEnds) this.#fail(result, `the page for ${param}=${current} holds the same items as the one before: the server seems to ignore ${param}, so iteration stops rather than go round`);
    this.#previousEnds = ends;
    return withQuery(params, { ...queryOf(params), [param]: next });
  }

  /** The next URL's query, sent on the same operation (its path parameters kept). */
  #follow(params: OperationParams, result: ApiResult<unknown>, target: string | undefined, what: string): OperationParams | undefined {
    if (target === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(target, RELATIVE_BASE);
    } catch {
      this.#fail(result, `${what} (${target}) is not a URL`);
    }
    if (url.search === "" || url.search === "?") this.#fail(result, `${what} (${target}) has no query: a next page that differs only in its path cannot be asked for through this operation`);
    const key = [...url.searchParams].map(([name, value]) => `${name}=${value}`).sort().join("&");
    if (this.#followed.has(key)) this.#fail(result, `${what} (${target}) was followed before (no progress), so iteration stops rather than go round`);
    this.#followed.add(key);
    return withQuery(params, queryFromUrl(url, this.#pagination.queryTypes ?? {}));
  }

  #fail(result: ApiResult<unknown>, reason: string): never {
    throw new UnexpectedResponseError({
      status: result.status,
      method: this.#spec.method,
      url: this.#spec.path,
      operationId: this.#spec.operationId,
      requestId: result.requestId,
      reason: `pagination of ${this.#spec.operationId}: ${reason}`,
      rawBody: "",
    });
  }
}

function queryOf(params: OperationParams): Record<string, unknown> {
  return (params.query ?? {}) as Record<string, unknown>;
}

function withQuery(params: OperationParams, query: Record<string, unknown>): OperationParams {
  return { ...params, query };
}

function numberAt(data: unknown, pointer: string | undefined): number | undefined {
  if (pointer === undefined) return undefined;
  const value = valueAt(data, pointer);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A URL's query as the operation's parameters: repeated names as arrays, typed ones converted. */
function queryFromUrl(url: URL, types: NonNullable<PaginationSpec["queryTypes"]>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    const type = types[name];
    if (type === "array" || values.length > 1) query[name] = values;
    else query[name] = convert(values[0]!, type);
  }
  return query;
}

function convert(value: string, type: "integer" | "number" | "boolean" | "array" | undefined): unknown {
  if ((type === "integer" || type === "number") && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
