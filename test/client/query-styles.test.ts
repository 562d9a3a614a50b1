/**
 * Query parameters are written as the contract says: OpenAPI's default (`form`, exploded) for
 * arrays and objects alike, and each parameter's own `style`/`explode`/`allowReserved`.
 */
import { describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec } from "../../templates/runtime/client-core.ts";

/** The query string the client sends for `query` under `spec`. */
async function sentQuery(query: object, queryStyles?: OperationSpec["queryStyles"]): Promise<string> {
  let url = "";
  const spec: OperationSpec = { operationId: "search", method: "GET", path: "/search", server: "api", responseKind: "none", ...(queryStyles ? { queryStyles } : {}) };
  class Client extends ClientCore {
    search() {
      return this.request<unknown>(spec, { query });
    }
  }
  const fetch = async (request: Request) => {
    url = request.url;
    return new Response(null, { status: 204 });
  };
  await new Client({ fetch }, { servers: { api: "https://api.example.test" } }).search();
  return decodeURIComponent(new URL(url).search.slice(1));
}

describe("query parameters", () => {
  it("follow OpenAPI's default, form exploded, for arrays and objects", async () => {
    expect(await sentQuery({ ids: [1, 2, 3], filter: { color: "red", size: "m" }, flag: true, none: undefined, empty: [] })).toBe(
      "ids=1&ids=2&ids=3&color=red&size=m&flag=true",
    );
  });

  it("follow each parameter's style and explode", async () => {
    const styles: OperationSpec["queryStyles"] = {
      ids: { style: "form", explode: false },
      tags: { style: "pipeDelimited", explode: false },
      words: { style: "spaceDelimited", explode: false },
      filter: { style: "deepObject", explode: true },
      pair: { style: "form", explode: false },
    };
    const query = { ids: [1, 2, 3], tags: ["a", "b"], words: ["x", "y"], filter: { color: "red" }, pair: { k: "v", n: 1 } };
    expect(await sentQuery(query, styles)).toBe("ids=1,2,3&tags=a|b&words=x y&filter[color]=red&pair=k,v,n,1");
  });

  it("percent-encode reserved characters unless allowReserved", async () => {
    const raw = async (queryStyles?: OperationSpec["queryStyles"]) => {
      let url = "";
      const spec: OperationSpec = { operationId: "s", method: "GET", path: "/s", server: "api", responseKind: "none", queryStyles };
      class Client extends ClientCore {
        s() {
          return this.request<unknown>(spec, { query: { q: "a/b?c" } });
        }
      }
      const fetch = async (request: Request) => ((url = request.url), new Response(null, { status: 204 }));
      await new Client({ fetch }, { servers: { api: "https://api.example.test" } }).s();
      return new URL(url).search;
    };
    expect(await raw()).toBe("?q=a%2Fb%3Fc");
    expect(await raw({ q: { style: "form", explode: true, allowReserved: true } })).toBe("?q=a/b?c");
  });
});
