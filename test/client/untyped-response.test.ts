/**
 * An operation that documents no response (`responseKind: "auto"`): its answer is read as JSON
 * when the Content-Type says JSON (parameters and `+json` suffixes included), as text otherwise;
 * no body is undefined, and a body its Content-Type calls JSON that is not JSON is a typed error.
 */
import { describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec } from "../../generated/gpu-cloud-client/src/runtime/client-core.ts";
import { ApiError } from "../../generated/gpu-cloud-client/src/index.ts";

const spec: OperationSpec = { operationId: "putThing", method: "PUT", path: "/things", server: "api", responseKind: "auto" };

function clientAnswering(reply: () => Response) {
  class Client extends ClientCore {
    constructor() {
      super({ maxRetries: 0, fetch: async () => reply() }, { servers: { api: "https://api.example.test" } });
    }
    put() {
      return this.request<unknown>(spec);
    }
  }
  return new Client();
}

describe("a response the contract does not document", () => {
  it.each([
    ["application/json", '{"a":1}', { a: 1 }],
    ["application/json; charset=utf-8", "[1,2]", [1, 2]],
    ["application/problem+json", '"text"', "text"],
    ["text/plain", '{"a":1}', '{"a":1}'],
    ["text/html; charset=utf-8", "<p>hi</p>", "<p>hi</p>"],
    [null, "plain words", "plain words"],
    ["application/json", "", undefined],
    [null, "", undefined],
  ])("Content-Type %s, body %j: data %j", async (contentType, body, data) => {
    const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
    const client = clientAnswering(() => new Response(body, { status: 200, headers }));
    await expect(client.put()).resolves.toMatchObject({ status: 200, data });
  });

  it("is undefined on 204, and a typed error when its Content-Type says JSON and it is not", async () => {
    await expect(clientAnswering(() => new Response(null, { status: 204 })).put()).resolves.toMatchObject({ status: 204, data: undefined });
    const broken = clientAnswering(() => new Response("{not json", { status: 200, headers: { "content-type": "application/json" } }));
    await expect(broken.put()).rejects.toBeInstanceOf(ApiError);
    await expect(broken.put()).rejects.toThrow(/returned 200 with a body that is not JSON/);
  });
});
