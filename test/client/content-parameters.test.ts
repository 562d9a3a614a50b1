/**
 * Parameters described by `content` rather than `schema` are typed and checked by their media type's
 * schema and sent as that media type writes them: JSON text for JSON, URL-encoded in a query,
 * percent-encoded in a path, as it is in a header or a cookie; another media type's string as it
 * is. Through the client generated from Directus's document (a JSON `filter` query parameter) and
 * through ClientCore for every location, against a loopback server that records what arrived.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientCore, type OperationParams, type OperationSpec } from "../../templates/runtime/client-core.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

const FILTER = { _or: [{ status: { _eq: "published" } }, { title: { _contains: "a&b=c; d" } }] };

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"data":[]}' }));
});
afterAll(() => server.close());

describe("the client generated from Directus's document", () => {
  let directus: GeneratedClient;
  let client: any;
  beforeAll(async () => {
    directus = await generateClient(path.join(repoRoot, "node_modules/@directus/specs/dist/openapi.json"), "content-directus");
    client = new directus.Client({ apiKeyAuth: "Bearer admin-token", baseUrl: server.url, maxRetries: 0 });
  }, 120_000);

  it("sends a JSON query parameter as URL-encoded JSON text, beside the others", async () => {
    server.requests.length = 0;
    await client.getItems({ path: { collection: "articles" }, query: { filter: FILTER, limit: 5, fields: ["id", "title"] } });
    const url = new URL(server.requests[0]!.url, server.url);
    expect(url.pathname).toBe("/items/articles");
    expect(JSON.parse(url.searchParams.get("filter")!)).toEqual(FILTER);
    expect(url.search).toContain(`filter=${encodeURIComponent(JSON.stringify(FILTER))}`);
    expect(url.searchParams.get("limit")).toBe("5");
    expect(url.searchParams.get("fields")).toBe("id,title");
  });

  it("checks the value against the content's schema before sending", async () => {
    server.requests.length = 0;
    await expect(client.getItems({ path: { collection: "articles" }, query: { filter: "status=published" } })).rejects.toMatchObject({
      name: "InvalidRequestError",
      field: "query.filter",
    });
    expect(server.requests).toEqual([]);
  });

  it("types the parameter as its content's schema, under strict", () => {
    const usage = path.join(directus.outDir, "usage-check.ts");
    fs.writeFileSync(
      usage,
      [
        `import type { ${directus.Client.name} as Client } from "./src/index.ts";`,
        "export async function use(client: Client): Promise<void> {",
        "  await client.getItems({ path: { collection: 'articles' }, query: { filter: { title: { _eq: 'Hello' } }, deep: { related: { _limit: 3 } } } });",
        "  // @ts-expect-error the filter is an object, written as JSON by the client",
        "  await client.getItems({ path: { collection: 'articles' }, query: { filter: 5 } });",
        "}",
      ].join("\n"),
    );
    expect(typeCheck([usage])).toEqual([]);
  }, TYPE_CHECK_BUDGET_MS);
});

describe("a content parameter through ClientCore", () => {
  const spec: OperationSpec = {
    operationId: "find",
    method: "GET",
    path: "/things/{where}",
    server: "api",
    responseKind: "json",
    contentParameters: { path: { where: "application/json" }, query: { q: "application/json", raw: "text/plain" }, header: { "X-Filter": "application/json" }, cookie: { prefs: "application/json" } },
  };
  const send = async (params: OperationParams) => {
    class Client extends ClientCore {
      find() {
        return this.request<unknown>(spec, params);
      }
    }
    server.requests.length = 0;
    await new Client({ maxRetries: 0 }, { servers: { api: server.url } }).find();
    return server.requests[0]!;
  };

  it("writes JSON in every location, each encoded as its location encodes a string", async () => {
    const received = await send({
      path: { where: { id: "a/b" } },
      query: { q: ["x", 1], raw: "a=b c" },
      header: { "X-Filter": { status: "ok" } },
      cookie: { prefs: { theme: "dark mode" } },
    });
    const [pathname, search] = received.url.split("?");
    expect(pathname).toBe(`/things/${encodeURIComponent('{"id":"a/b"}')}`);
    const query = new URLSearchParams(search);
    expect(query.get("q")).toBe('["x",1]');
    // Another media type's string goes as it is (URL-encoded as any query value).
    expect(query.get("raw")).toBe("a=b c");
    expect(received.headers["x-filter"]).toBe('{"status":"ok"}');
    // Only what a cookie value cannot hold is escaped (`"`, space), braces and colons stay.
    expect(received.headers.cookie).toBe("prefs={%22theme%22:%22dark%20mode%22}");
  });

  it("writes JSON null, false and 0, and leaves out only what is undefined", async () => {
    const received = await send({ path: { where: null }, query: { q: false, raw: undefined }, header: { "X-Filter": 0 } });
    expect(received.url).toBe("/things/null?q=false");
    expect(received.headers["x-filter"]).toBe("0");
  });
});
