/**
 * Authentication per security scheme (templates/runtime/auth.ts through ClientCore), against a
 * loopback server that records what each request carried: basic, an apiKey in a header and in the
 * query, bearer tokens (a string or a function), alternatives, public operations, missing
 * credentials refused before sending, and every credential kept out of errors, logs and inspect.
 */
import { createServer } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthSpec } from "../../templates/runtime/auth.ts";
import { ClientCore } from "../../templates/runtime/client-core.ts";
import type { CoreOptions, OperationSpec } from "../../templates/runtime/client-core.ts";
import { InvalidRequestError } from "../../templates/runtime/errors.ts";

const AUTH = {
  schemes: {
    basicAuth: { kind: "basic", username: "username", password: "password" },
    headerKey: { kind: "header", name: "X-API-Key", option: "apiKey" },
    queryKey: { kind: "query", name: "api_key", option: "queryKey" },
    oauth: { kind: "bearer", option: "accessToken" },
  },
  credentials: {
    username: { env: "AUTH_TEST_USERNAME", label: "username" },
    password: { env: "AUTH_TEST_PASSWORD", label: "password" },
    apiKey: { env: "AUTH_TEST_API_KEY", label: "API key" },
    queryKey: { env: "AUTH_TEST_QUERY_KEY", label: "API key (queryKey)" },
    accessToken: { env: "AUTH_TEST_ACCESS_TOKEN", label: "access token" },
  },
  security: [["basicAuth"]],
  required: false,
} as const satisfies AuthSpec;

const PASSWORD = "pw-s3cret-Ω-long";
const API_KEY = "hk-1a2b3c4d5e6f7a8b";
const QUERY_KEY = "qk-9f8e7d6c5b4a3f2e";
const TOKEN = "tok-abcdef0123456789";

function spec(operationId: string, security?: OperationSpec["security"]): OperationSpec {
  return { operationId, method: "GET", path: `/${operationId}`, server: "api", responseKind: "none", ...(security === undefined ? {} : { security }) };
}

const OPS = {
  account: spec("account"),
  publicHealth: spec("publicHealth", []),
  header: spec("header", [["headerKey"]]),
  query: spec("query", [["queryKey"]]),
  oauth: spec("oauth", [["oauth"]]),
  either: spec("either", [["oauth"], ["basicAuth"]]),
  both: spec("both", [["basicAuth", "headerKey"]]),
  optional: spec("optional", [["headerKey"], []]),
};

class Client extends ClientCore {
  call(name: keyof typeof OPS, query?: object, headers?: Record<string, string>) {
    return this.request<undefined>(OPS[name], query ? { query } : {}, headers ? { headers } : {});
  }
}

let base = "";
let status = 204;
let echo = false;
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
const server = createServer((request, response) => {
  seen.push({ url: request.url ?? "", headers: request.headers });
  if (echo) {
    // A server that echoes what it got, credentials included.
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify({ title: "echo", detail: `${request.url} ${JSON.stringify(request.headers)}` }));
  } else {
    response.writeHead(status).end();
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client(credentials: Record<string, unknown>, options: CoreOptions = {}): Client {
  return new Client({ maxRetries: 0, ...options, credentials }, { servers: { api: base }, auth: AUTH });
}

async function sent(c: Client, name: keyof typeof OPS, query?: object, headers?: Record<string, string>) {
  seen.length = 0;
  await c.call(name, query, headers);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

const ALL = { username: "ada", password: PASSWORD, apiKey: API_KEY, queryKey: QUERY_KEY, accessToken: TOKEN };

describe("credentials sent per scheme", () => {
  it("basic: Authorization: Basic base64(username:password), UTF-8", async () => {
    const { headers } = await sent(client(ALL), "account");
    expect(headers.authorization).toBe(`Basic ${Buffer.from(`ada:${PASSWORD}`, "utf8").toString("base64")}`);
    expect(headers["x-api-key"]).toBeUndefined();
  });

  it("apiKey in a header, replacing a caller's header of that name in any case", async () => {
    const { headers } = await sent(client(ALL), "header", undefined, { "x-api-key": "from-caller", "X-Other": "kept" });
    expect(headers["x-api-key"]).toBe(API_KEY);
    expect(headers["x-other"]).toBe("kept");
    expect(headers.authorization).toBeUndefined();
  });

  it("apiKey in the query, beside the caller's parameters", async () => {
    const { url, headers } = await sent(client(ALL), "query", { q: "x y" });
    const params = new URL(url, base).searchParams;
    expect(params.get("api_key")).toBe(QUERY_KEY);
    expect(params.get("q")).toBe("x y");
    expect(headers.authorization).toBeUndefined();
  });

  it("oauth2 / openIdConnect: a token string as a bearer token", async () => {
    const { headers } = await sent(client(ALL), "oauth");
    expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("a bearer credential replaces any Authorization the caller set, in any case, and keeps the caller's other headers", async () => {
    for (const name of ["Authorization", "authorization", "AUTHORIZATION"]) {
      const { headers } = await sent(client(ALL), "oauth", undefined, { [name]: "Bearer other", "X-Trace": "t1" });
      expect(headers.authorization, name).toBe(`Bearer ${TOKEN}`);
      expect(headers["x-trace"], name).toBe("t1");
    }
  });

  it("sends X-Client-Name only when a userAgent is configured, and refuses one that cannot be a header value", async () => {
    expect((await sent(client(ALL), "account")).headers["x-client-name"]).toBeUndefined();
    expect((await sent(client(ALL, { userAgent: "gpu-cloud-sdk/1.2.3" }), "account")).headers["x-client-name"]).toBe("gpu-cloud-sdk/1.2.3");
    expect(() => client(ALL, { userAgent: "sdk\r\nX-Injected: 1" })).toThrow(expect.objectContaining({ field: "userAgent" }));
  });

  it("a token function is called per request, sync or async", async () => {
    let n = 0;
    const c = client({ accessToken: async () => `tok-${++n}` });
    expect((await sent(c, "oauth")).headers.authorization).toBe("Bearer tok-1");
    expect((await sent(c, "oauth")).headers.authorization).toBe("Bearer tok-2");
    const sync = client({ accessToken: () => "tok-sync" });
    expect((await sent(sync, "oauth")).headers.authorization).toBe("Bearer tok-sync");
    // A token no header can carry is refused before sending, naming the option, not quoting it.
    seen.length = 0;
    const bad = (await client({ accessToken: () => "tok\nsecret-part" }).call("oauth").catch((e: unknown) => e)) as InvalidRequestError;
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad.field).toBe("accessToken");
    expect(bad.message).not.toContain("secret-part");
    expect(seen).toEqual([]);
  });

  it("a public operation sends no credential; an AND sends all; an OR the first satisfiable", async () => {
    expect((await sent(client(ALL), "publicHealth")).headers.authorization).toBeUndefined();
    const both = (await sent(client(ALL), "both")).headers;
    expect(both.authorization).toMatch(/^Basic /);
    expect(both["x-api-key"]).toBe(API_KEY);
    expect((await sent(client(ALL), "either")).headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect((await sent(client({ username: "ada", password: PASSWORD }), "either")).headers.authorization).toMatch(/^Basic /);
  });

  it("an optional requirement ({}) sends the key when given and nothing otherwise", async () => {
    expect((await sent(client({ apiKey: API_KEY }), "optional")).headers["x-api-key"]).toBe(API_KEY);
    expect((await sent(client({}), "optional")).headers["x-api-key"]).toBeUndefined();
  });

  it("reads credentials from the environment when no option is given", async () => {
    process.env.AUTH_TEST_API_KEY = "from-env";
    try {
      expect((await sent(client({}), "header")).headers["x-api-key"]).toBe("from-env");
    } finally {
      delete process.env.AUTH_TEST_API_KEY;
    }
  });
});

describe("missing credentials", () => {
  it("a client without any is made; a call needing one is refused before sending, naming the option", async () => {
    const c = client({});
    seen.length = 0;
    const error = await c.call("header").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).field).toBe("apiKey");
    expect((error as InvalidRequestError).message).toBe("header: No API key: pass { apiKey } or set the AUTH_TEST_API_KEY environment variable. Nothing was sent.");
    const basic = (await client({ username: "ada" }).call("account").catch((e: unknown) => e)) as InvalidRequestError;
    expect(basic.field).toBe("password");
    expect(basic.problems.map((p) => [p.path, p.keyword])).toEqual([["password", "required"]]);
    // The first alternative names what to give when none is satisfiable.
    expect(((await c.call("either").catch((e: unknown) => e)) as InvalidRequestError).field).toBe("accessToken");
    expect(seen).toEqual([]);
    await expect(c.call("publicHealth")).resolves.toMatchObject({ status: 204 });
  });

  it("a requirement every operation has is checked when the client is made", () => {
    const required = { ...AUTH, security: [["headerKey"]], required: true } as const satisfies AuthSpec;
    expect(() => new Client({ credentials: {} }, { servers: { api: base }, auth: required })).toThrow(
      "No API key: pass { apiKey } or set the AUTH_TEST_API_KEY environment variable.",
    );
  });

  it("a contract without security needs no option and sends nothing", async () => {
    const open = new Client({ maxRetries: 0 }, { servers: { api: base } });
    seen.length = 0;
    await open.call("account");
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("a credential that cannot be a header value is refused without being quoted", () => {
    const error = (() => {
      try {
        client({ apiKey: "bad\nkey-value" });
      } catch (e) {
        return e as InvalidRequestError;
      }
    })();
    expect(error?.field).toBe("apiKey");
    expect(error?.message).not.toContain("key-value");
  });
});

describe("redaction", () => {
  const basic = Buffer.from(`ada:${PASSWORD}`, "utf8").toString("base64");
  const forms = [PASSWORD, basic, API_KEY, QUERY_KEY, TOKEN, `ada:${PASSWORD}`, encodeURIComponent(PASSWORD)];

  function expectClean(text: string) {
    for (const form of forms) expect(text).not.toContain(form);
  }

  it("keeps every credential out of errors, their JSON, inspect, the query string in URLs, and log lines", async () => {
    const lines: string[] = [];
    const logger = { debug: (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields)}`) };
    const c = client(ALL, { logger });
    status = 401;
    echo = true;
    try {
      for (const name of ["account", "header", "query", "oauth", "both"] as const) {
        const error = await c.call(name).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expectClean(JSON.stringify(error));
        expectClean(inspect(error, { depth: 10 }));
        expectClean(String((error as Error).message));
      }
    } finally {
      status = 204;
      echo = false;
    }
    expect(lines.length).toBeGreaterThan(0);
    expectClean(lines.join("\n"));
    expectClean(inspect(c, { depth: 10, showHidden: true }));
    expectClean(JSON.stringify(c));
  });

  it("keeps a token a function gave out of errors", async () => {
    const c = client({ accessToken: async () => TOKEN });
    status = 403;
    echo = true;
    try {
      const error = await c.call("oauth").catch((e: unknown) => e);
      expectClean(JSON.stringify(error));
    } finally {
      status = 204;
      echo = false;
    }
  });

  it("keeps the query key out of a connection error's URL", async () => {
    const c = new Client({ maxRetries: 0, credentials: ALL }, { servers: { api: "http://127.0.0.1:9" }, auth: AUTH });
    const error = await c.call("query").catch((e: unknown) => e);
    expect(String((error as { url?: string }).url)).toContain("api_key=");
    expectClean(JSON.stringify(error));
    expectClean(inspect(error, { depth: 10 }));
  });
});

describe("redirects", () => {
  it("a request carrying a header or query key follows no redirect, so no other origin gets the key", async () => {
    const other: IncomingHttpHeaders[] = [];
    const elsewhere = createServer((request, response) => {
      other.push(request.headers);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const target = `http://localhost:${(elsewhere.address() as AddressInfo).port}/landing`;
    const redirecting = createServer((_, response) => response.writeHead(302, { location: target }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const c = new Client({ maxRetries: 0, credentials: ALL }, { servers: { api: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}` }, auth: AUTH });
      const error = await c.call("header").catch((e: unknown) => e);
      expect((error as { status?: number }).status).toBe(302);
      expect(other).toEqual([]);
      // Authorization alone is dropped by fetch itself on a cross-origin redirect.
      await c.call("account");
      expect(other).toHaveLength(1);
      expect(other[0]!.authorization).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });
});
