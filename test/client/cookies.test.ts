/**
 * Cookie parameters are sent in one `Cookie` header, each written in OpenAPI's `form` style and
 * percent-encoded where a cookie value cannot hold a character; the generator warns once per
 * document that browsers do not send them. Through the clients generated from ReadMe's cookie
 * examples (3.0, and 3.1 with every `explode`), against a loopback server that records what arrived.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";

const examples = path.join(repoRoot, "node_modules/@readme/oas-examples");

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());

/** The Cookie header of the request `call` sends. */
async function sentCookie(call: () => Promise<unknown>): Promise<string | undefined> {
  server.requests.length = 0;
  await call();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!.headers.cookie;
}

describe("the client generated from parameters-cookies.json (3.0)", () => {
  let generated: GeneratedClient;
  let client: any;
  beforeAll(async () => {
    generated = await generateClient(path.join(examples, "3.0/json/parameters-cookies.json"), "cookies-3.0");
    client = new generated.Client({ baseUrl: server.url, maxRetries: 0 });
  }, 60_000);

  it("warns once that browsers do not send cookie parameters", () => {
    const cookieWarnings = generated.warnings.filter((line) => line.includes("Cookie header"));
    expect(cookieWarnings).toHaveLength(1);
    expect(cookieWarnings[0]).toMatch(/#\/paths\/~1post\/post\/parameters\/0: cookie parameters are sent in a Cookie header, which browsers do not let a page set.* \(2 places; the first is shown\)$/);
  });

  it("sends them in one Cookie header, percent-encoding what a cookie value cannot hold", async () => {
    expect(await sentCookie(() => client.postPost({ cookie: { foo: "plain-value", bar: 'a b;c,d"é%' } }))).toBe("foo=plain-value; bar=a%20b%3Bc%2Cd%22%C3%A9%25");
  });

  it("leaves out the ones not given, and sends no Cookie header without any", async () => {
    expect(await sentCookie(() => client.postPost({ cookie: { bar: "only" } }))).toBe("bar=only");
    expect(await sentCookie(() => client.postPost())).toBeUndefined();
  });

  it("adds them after a Cookie header the caller set", async () => {
    expect(await sentCookie(() => client.postPost({ cookie: { foo: "1" } }, { headers: { cookie: "session=abc" } }))).toBe("session=abc; foo=1");
  });

  it("checks them against their schemas before sending", async () => {
    server.requests.length = 0;
    await expect(client.postPost({ cookie: { foo: 7 } })).rejects.toMatchObject({ name: "InvalidRequestError", field: "cookie.foo" });
    expect(server.requests).toEqual([]);
  });

  it("tells, in the method's doc comment, that browsers drop them", () => {
    const source = fs.readFileSync(path.join(generated.outDir, "src/client.ts"), "utf8");
    expect(source).toContain("Cookie parameters (`foo`, `bar`) are sent in one `Cookie` header: Node, Deno and Bun send it; a browser drops it");
  });
});

describe("the client generated from parameters-style.json (3.1), every explode", () => {
  let client: any;
  beforeAll(async () => {
    const generated = await generateClient(path.join(examples, "3.1/json/parameters-style.json"), "cookies-3.1");
    const servers = Object.fromEntries(generated.api.servers.map((s) => [s.key, server.url]));
    client = new generated.Client({ ...servers, maxRetries: 0 });
  }, 60_000);

  const cookie = { primitive: "p", array: ["a", "b c"], object: { name: "n", description: "d" } };

  it.each([
    ["cookiesStandard", "primitive=p; array=a; array=b%20c; name=n; description=d"],
    ["cookiesFormExploded", "primitive=p; array=a; array=b%20c; name=n; description=d"],
    ["cookiesFormNonExploded", "primitive=p; array=a,b%20c; object=name,n,description,d"],
  ])("%s sends %s", async (method, expected) => {
    expect(await sentCookie(() => client[method]({ cookie }))).toBe(expected);
  });
});
