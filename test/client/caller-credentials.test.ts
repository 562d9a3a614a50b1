/**
 * A contract that declares no security scheme (ReadMe's petstore-expanded, OpenAPI 3.0): the
 * caller's own credential headers are sent, given per call, in the client's `headers` option or
 * set by an `onRequest` hook, and blanked out of errors and log lines like a declared credential,
 * in every spelling a server may echo. Where the contract declares schemes, the client's own
 * credentials still win over a caller's `Authorization`.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient } from "../../generated/gpu-cloud-client/src/index.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from "../support/recording-server.ts";
import { echoesOf, leaks, needlesOf, recordingLogger, surfacesOf } from "../support/secret-echoes.ts";

const TOKEN = `tok_Q7<&>"'/+=~Zx0123456789`;
const SESSION = "sess-9f8e7d6c5b4a";
const CUSTOM = "custom-key-0123456789";
const ok: Reply = { status: 200, headers: { "content-type": "application/json" }, body: "[]" };

let reply: (request: RecordedRequest) => Reply = () => ok;
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((request) => reply(request));
});
afterAll(() => server.close());

/** The headers of the one request `call` sends. */
async function sent(call: () => Promise<unknown>): Promise<RecordedRequest["headers"]> {
  server.requests.length = 0;
  await call();
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!.headers;
}

describe("a contract without securitySchemes (petstore-expanded.json)", () => {
  let generated: GeneratedClient;
  beforeAll(async () => {
    generated = await generateClient(path.join(repoRoot, "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json"), "caller-credentials");
  }, 60_000);
  const make = (options: object = {}) => new generated.Client({ baseUrl: server.url, maxRetries: 0, ...options });

  it("sends an Authorization, Cookie and custom key header given per call", async () => {
    reply = () => ok;
    const headers = await sent(() => make().findPets({}, { headers: { Authorization: `Bearer ${TOKEN}`, Cookie: `session=${SESSION}`, "X-Auth-Token": CUSTOM } }));
    expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(headers.cookie).toBe(`session=${SESSION}`);
    expect(headers["x-auth-token"]).toBe(CUSTOM);
  });

  it("sends the client's headers option on every call, a call's own header replacing the client's", async () => {
    reply = () => ok;
    const client = make({ headers: { Authorization: `Bearer ${TOKEN}`, "X-Team": "blue" } });
    expect((await sent(() => client.findPets())).authorization).toBe(`Bearer ${TOKEN}`);
    const replaced = await sent(() => client.findPets({}, { headers: { authorization: "Bearer per-call-token" } }));
    expect(replaced.authorization).toBe("Bearer per-call-token");
    expect(replaced["x-team"]).toBe("blue");
  });

  it("refuses a headers option that is not an object, naming it", () => {
    expect(() => make({ headers: "Authorization: x" })).toThrow(/^headers must be an object/);
  });

  it("sends an Authorization an onRequest hook sets, without a warning", async () => {
    reply = () => ok;
    const logger = recordingLogger();
    const client = make({ logger, hooks: { onRequest: (request: { headers: Headers }) => request.headers.set("Authorization", `Bearer ${TOKEN}`) } });
    expect((await sent(() => client.findPets())).authorization).toBe(`Bearer ${TOKEN}`);
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toEqual([]);
  });

  describe("blanks them out of errors and log lines, in every spelling a server echoes", () => {
    const echoing = (echo: string): Reply => ({ status: 500, headers: { "content-type": "application/json", "x-echo": echo }, body: `{"code":500,"message":"you sent ${echo}"}` });
    const cases: Array<[string, string, (echo: string) => Promise<unknown>]> = [
      ["per call", TOKEN, () => make({ logger }).findPets({}, { headers: { Authorization: `Bearer ${TOKEN}` } })],
      ["in the client's headers", TOKEN, () => make({ logger, headers: { Authorization: `Token ${TOKEN}` } }).findPets()],
      ["set by a hook", TOKEN, () => make({ logger, hooks: { onRequest: (request: { headers: Headers }) => request.headers.set("Authorization", `Bearer ${TOKEN}`) } }).findPets()],
      ["a cookie's value", SESSION, () => make({ logger }).findPets({}, { headers: { Cookie: `theme=dark; session=${SESSION}` } })],
      ["a custom key header", CUSTOM, () => make({ logger }).findPets({}, { headers: { "X-Auth-Token": CUSTOM } })],
    ];
    let logger = recordingLogger();
    for (const [where, secret, call] of cases) {
      it(where, async () => {
        for (const [spelling, echo] of Object.entries(echoesOf(secret))) {
          logger = recordingLogger();
          reply = () => echoing(echo);
          const error = await call(echo).catch((e: unknown) => e);
          expect(error, spelling).toBeInstanceOf(Error);
          expect((error as { status?: number }).status, spelling).toBe(500);
          expect(String((error as Error).message), spelling).toContain("[REDACTED]");
          expect(leaks([...surfacesOf(error), ...logger.lines], needlesOf(secret, [echo])), spelling).toEqual([]);
        }
      });
    }
  });
});

describe("what a caller's header keeps for redaction", () => {
  it("is no short value or part: a header named like a credential holding `1` blanks no 1 elsewhere", async () => {
    const { Authenticator } = await import("../../templates/runtime/auth.ts");
    const auth = new Authenticator(undefined, {}, {}, () => undefined);
    auth.rememberCallerHeader("X-Session", "1");
    auth.rememberCallerHeader("Cookie", "a=1; session=abcdefgh123");
    auth.rememberCallerHeader("Authorization", "Bearer tok12345678");
    auth.rememberCallerHeader("Accept", "application/json-and-long");
    expect(auth.secrets).toEqual(["a=1; session=abcdefgh123", "abcdefgh123", "Bearer tok12345678", "tok12345678"]);
  });
});

describe("a contract with security schemes (this project's)", () => {
  it("still sends its own credential over a caller's Authorization, per call and in the headers option", async () => {
    reply = () => ok;
    const client = new GpuCloudClient({ apiKey: "the-client-key", baseUrl: server.url, maxRetries: 0, headers: { Authorization: "Bearer from-options" } });
    const headers = await sent(() => client.listGpuTypes({}, { headers: { Authorization: "Bearer from-call" } }).catch(() => undefined));
    expect(headers.authorization).toBe("Bearer the-client-key");
  });
});
