/**
 * The pagination runtime's pieces on their own: the `Link` header's next target (RFC 8288), and
 * each kind's step from a page to the next one, its end, and the errors that stop a server going
 * round (the shapes the Stripe and GitHub clients do not show: next URLs, offsets, page counts).
 */
import { describe, expect, it } from "vitest";
import type { ApiResult, OperationParams, OperationSpec } from "../../templates/runtime/client-core.ts";
import { nextLink } from "../../templates/runtime/pagination/link-header.ts";
import { NextPage } from "../../templates/runtime/pagination/next-page.ts";
import type { PaginationSpec } from "../../templates/runtime/pagination/types.ts";

const SPEC: OperationSpec = { operationId: "listThings", method: "GET", path: "/things", server: "baseUrl", responseKind: "json" };

function answer(data: unknown, headers: Record<string, string> = {}): ApiResult<unknown> {
  return { data, status: 200, headers: new Headers(headers), requestId: undefined, rateLimit: undefined, response: new Response() };
}

/** The parameters each page is asked with, from `first`, as `pages` answer in turn. */
function walk(pagination: PaginationSpec, first: OperationParams, pages: Array<ApiResult<unknown>>): OperationParams[] {
  const next = new NextPage(SPEC, pagination);
  const asked = [first];
  for (const page of pages) {
    const following = next.next(asked.at(-1)!, page, next.items(page));
    if (following === undefined) break;
    asked.push(following);
  }
  return asked;
}

describe("nextLink", () => {
  it.each([
    ['<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"', "https://api.github.com/repositories/1/issues?page=2"],
    ['<https://x.test/a?page=1>; rel="prev", <https://x.test/a?page=3>; rel=next', "https://x.test/a?page=3"],
    ['<https://x.test/a?q=a,b>; title="one, two"; rel="last next"', "https://x.test/a?q=a,b"],
    ['<https://x.test/a?page=1>; rel="first"', undefined],
    ["", undefined],
  ])("%s", (header, want) => {
    expect(nextLink(header)).toBe(want);
  });

  it("reads no header as no next page", () => {
    expect(nextLink(null)).toBeUndefined();
  });
});

describe("NextPage", () => {
  it("next-url: sends the URL's query on the operation, typed as the contract says, until next is null", () => {
    const pagination: PaginationSpec = { kind: "next-url", items: "/data", next: "/links/next", queryTypes: { limit: "integer", archived: "boolean" } };
    const asked = walk(pagination, { path: { id: "7" }, query: { limit: 2 } }, [
      answer({ data: [1, 2], links: { next: "https://other.test/v2/things?limit=2&cursor=abc&archived=false" } }),
      answer({ data: [3, 4], links: { next: "/v2/things?limit=2&cursor=def&tag=a&tag=b" } }),
      answer({ data: [5], links: { next: null } }),
    ]);
    expect(asked).toEqual([
      { path: { id: "7" }, query: { limit: 2 } },
      { path: { id: "7" }, query: { limit: 2, cursor: "abc", archived: false } },
      { path: { id: "7" }, query: { limit: 2, cursor: "def", tag: ["a", "b"] } },
    ]);
  });

  it("next-url: refuses a next URL seen before, and one without a query", () => {
    const pagination: PaginationSpec = { kind: "next-url", items: "/data", next: "/next" };
    expect(() => walk(pagination, {}, [answer({ data: [1], next: "/t?c=1" }), answer({ data: [2], next: "/t?c=1" })])).toThrow(/the next URL at \/next \(\/t\?c=1\) was followed before \(no progress\)/);
    expect(() => walk(pagination, {}, [answer({ data: [1], next: "/things/page/2" })])).toThrow(/has no query: a next page that differs only in its path cannot be asked for/);
  });

  it("offset: moves on by each page's length and ends at the total", () => {
    const pagination: PaginationSpec = { kind: "offset", items: "/results", param: "offset", total: "/total" };
    const asked = walk(pagination, { query: { limit: 2 } }, [answer({ results: ["a", "b"], total: 5 }), answer({ results: ["c", "d"], total: 5 }), answer({ results: ["e"], total: 5 })]);
    expect(asked.map((params) => (params.query as { offset?: number }).offset)).toEqual([undefined, 2, 4]);
  });

  it("offset: a short page does not end it, an empty one does", () => {
    const pagination: PaginationSpec = { kind: "offset", items: "", param: "skip" };
    const asked = walk(pagination, {}, [answer(["a", "b"]), answer(["c"]), answer([])]);
    expect(asked.map((params) => (params.query as { skip?: number } | undefined)?.skip)).toEqual([undefined, 2, 3]);
  });

  it("page: counts from firstPage and ends at the number of pages", () => {
    const pagination: PaginationSpec = { kind: "page", items: "/items", param: "page", firstPage: 0, totalPages: "/pages" };
    const asked = walk(pagination, {}, [answer({ items: [1], pages: 3 }), answer({ items: [2], pages: 3 }), answer({ items: [3], pages: 3 })]);
    expect(asked.map((params) => (params.query as { page?: number } | undefined)?.page)).toEqual([undefined, 1, 2]);
  });

  it("page: the same items for two page numbers end in an error, not a loop", () => {
    const pagination: PaginationSpec = { kind: "page", items: "/items", param: "page" };
    expect(() => walk(pagination, {}, [answer({ items: [{ id: 1 }] }), answer({ items: [{ id: 1 }] })])).toThrow(
      /pagination of listThings: the page for page=2 holds the same items as the one before: the server seems to ignore page/,
    );
  });

  it("cursor: has_more true without a cursor is an error; false ends it whatever the cursor", () => {
    const pagination: PaginationSpec = { kind: "cursor", items: "/data", param: "page_token", cursor: "/next", hasMore: "/more" };
    expect(() => walk(pagination, {}, [answer({ data: [1], more: true, next: null })])).toThrow(/\/more says more pages follow, but the body has no cursor at \/next/);
    expect(walk(pagination, {}, [answer({ data: [1], more: false, next: "t2" })])).toHaveLength(1);
  });

  it("cursor: a cursor that comes back later (a cycle) is an error", () => {
    const pagination: PaginationSpec = { kind: "cursor", items: "/data", param: "page_token", cursor: "/next" };
    expect(() => walk(pagination, {}, [answer({ data: [1], next: "a" }), answer({ data: [2], next: "b" }), answer({ data: [3], next: "a" })])).toThrow(
      /the cursor page_token=a came back after it was sent \(no progress\)/,
    );
  });

  it("names where the items were looked for when they are not an array", () => {
    const next = new NextPage(SPEC, { kind: "link", items: "" });
    expect(() => next.items(answer({ message: "rate limited" }))).toThrow(/pagination of listThings: the body is an object, not the array of items the operation's link pagination reads/);
  });
});
