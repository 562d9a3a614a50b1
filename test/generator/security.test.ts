/**
 * The model's security (generator/model/security.ts): schemes become credential options named after
 * what they need, each operation carries its alternatives, unusable schemes are warned about and
 * left out, and bad security is refused with its pointer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { loadContract } from "../../generator/load/contract.ts";
import { buildModel } from "../../generator/model/index.ts";
import { Warnings } from "../../generator/common/warnings.ts";

const fixtures = fileURLToPath(new URL("../fixtures/contracts/", import.meta.url));

async function model(file: string) {
  const warnings = new Warnings();
  const api = buildModel(await loadContract(path.join(fixtures, file), warnings), { warnings });
  return { api, warnings };
}

/** A one-operation contract with the given security pieces. */
async function modelOf(document: { security?: unknown; operationSecurity?: unknown; schemes?: unknown }, warnings?: Warnings) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "security-"));
  const file = path.join(dir, "api.yaml");
  const get: Record<string, unknown> = { operationId: "ping", responses: { "204": { description: "ok" } } };
  if (document.operationSecurity !== undefined) get.security = document.operationSecurity;
  fs.writeFileSync(
    file,
    YAML.stringify({
      openapi: "3.1.0",
      info: { title: "T", version: "1.0.0" },
      servers: [{ url: "https://t.example.test" }],
      ...(document.security === undefined ? {} : { security: document.security }),
      paths: { "/ping": { get } },
      components: { securitySchemes: document.schemes ?? {} },
    }),
  );
  try {
    return buildModel(await loadContract(file), { warnings });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("security in the model", () => {
  it("names options after what each scheme needs, with env vars only for those", async () => {
    const { api, warnings } = await model("auth-schemes.yaml");
    expect(api.security.schemes.map((s) => [s.name, s.kind, s.parameter, s.options.map((o) => `${o.name}=${o.envVar}`)])).toEqual([
      ["basicAuth", "basic", undefined, ["username=AUTH_SCHEMES_USERNAME", "password=AUTH_SCHEMES_PASSWORD"]],
      ["headerKey", "header", "X-API-Key", ["apiKey=AUTH_SCHEMES_API_KEY"]],
      ["queryKey", "query", "api_key", ["apiKeyQueryKey=AUTH_SCHEMES_API_KEY_QUERY_KEY"]],
      ["oauth", "token", undefined, ["accessToken=AUTH_SCHEMES_ACCESS_TOKEN"]],
      ["oidc", "token", undefined, ["accessTokenOidc=AUTH_SCHEMES_ACCESS_TOKEN_OIDC"]],
    ]);
    expect(Object.fromEntries(api.operations.map((o) => [o.operationId, o.security]))).toEqual({
      getHealth: [],
      getAccount: [["basicAuth"]],
      withHeaderKey: [["headerKey"]],
      withQueryKey: [["queryKey"]],
      withOauth: [["oauth"]],
      withEither: [["oidc"], ["basicAuth"]],
      withBoth: [["basicAuth", "headerKey"]],
      withOptionalKey: [["headerKey"], []],
      withSessionCookie: [],
    });
    expect(api.security.requiredEverywhere).toBe(false);
    expect(warnings.groups().map((g) => [g.key, g.pointer])).toEqual([["security:cookie", "/components/securitySchemes/session/in"]]);
  });

  it("a contract without security has no scheme and public operations", async () => {
    const { api } = await model("minimal.yaml");
    expect(api.security).toEqual({ schemes: [], defaultRequirement: [], requiredEverywhere: false });
    expect(api.operations.every((o) => o.security.length === 0)).toBe(true);
  });

  it("one bearer scheme every operation needs is the apiKey, required when the client is made", async () => {
    const api = await modelOf({ security: [{ bearer: [] }], schemes: { bearer: { type: "http", scheme: "bearer" } } });
    expect(api.security.schemes.map((s) => s.options.map((o) => o.name))).toEqual([["apiKey"]]);
    expect(api.security.requiredEverywhere).toBe(true);
    expect(api.operations[0]!.security).toEqual([["bearer"]]);
  });

  it("a scheme no operation uses gives no option", async () => {
    const api = await modelOf({ schemes: { bearer: { type: "http", scheme: "bearer" } } });
    expect(api.security.schemes).toEqual([]);
  });

  it("leaves out an alternative naming no declared scheme, with a warning at its pointer", async () => {
    const warnings = new Warnings();
    const api = await modelOf({ security: [{ nope: [] }, { bearer: [] }], schemes: { bearer: { type: "http", scheme: "bearer" } } }, warnings);
    expect(api.operations[0]!.security).toEqual([["bearer"]]);
    expect(warnings.groups().map((g) => [g.pointer, g.message])).toEqual([["/security/0/nope", 'no security scheme "nope" in components.securitySchemes: the client never satisfies a requirement naming it']]);
    // Its only alternative left out: sent without credentials, for the server to judge.
    expect((await modelOf({ security: [{ nope: [] }] })).operations[0]!.security).toEqual([]);
  });

  it("an HTTP scheme other than bearer and basic is left out: its operations go without credentials", async () => {
    const api = await modelOf({ security: [{ digest: [] }], schemes: { digest: { type: "http", scheme: "digest" } } });
    expect(api.security.schemes).toEqual([]);
    expect(api.operations[0]!.security).toEqual([]);
  });
});
