/**
 * Idempotency keys (the idempotency-keys fixture): a POST whose contract declares a key header is
 * retried after a timeout, a reset or a 503 with the same key on every attempt, one key per call
 * (the caller's as it is, or a UUID made for the call); a POST without one, or opted out, is never
 * sent again once it may have reached the server. No key the server saw shows in an error or a log line.
 */
import { json, problem, reset, silent, type Reply } from "../fault-server.ts";
import { PAYMENTS, type CaseContext, type FaultCase } from "../case-kit.ts";

const MONEY = { amount: 1250, currency: "EUR" };
const PAID = json(201, { id: "pay-1", ...MONEY });
const UNAVAILABLE = problem(503, "try again", { "Retry-After": "0" });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const route = (path: string, reply: Reply | Reply[]) => ({ routes: [{ method: "POST", path, reply }] });
const payments = (...replies: Reply[]) => route("/payments", replies);

const createPayment = (ctx: CaseContext, header?: Record<string, string>, options: Record<string, unknown> = {}, client: Record<string, unknown> = {}) =>
  ctx.paymentsClient(client).createPayment({ body: MONEY, ...(header === undefined ? {} : { header }) }, { signal: ctx.signal, ...options });

/**
 * The keys the server read in `header`, one per request: the requests of each call (`perCall`
 * requests each, in order) carry one key, a call's own (`given`, or a fresh UUID each), and no key
 * shows in the call's error or the client's log lines.
 */
const keys =
  (header: string, perCall: number[], given?: string[]) =>
  (outcome: { error: unknown }, ctx: CaseContext): string[] => {
    const sent = ctx.a.requests.map((request) => request.headers[header]);
    const problems: string[] = [];
    if (sent.length !== perCall.reduce((sum, n) => sum + n, 0)) problems.push(`${sent.length} requests, not ${perCall.join(" + ")}`);
    let first = 0;
    const callKeys = perCall.map((n, call) => {
      const mine = sent.slice(first, (first += n));
      const key = mine[0];
      if (key === undefined) problems.push(`call ${call + 1} sent no ${header}`);
      else if (mine.some((other) => other !== key)) problems.push(`call ${call + 1} sent ${header} ${JSON.stringify(mine)}: not one key on every attempt`);
      const expected = given?.[call];
      if (expected !== undefined ? key !== expected : key !== undefined && !UUID.test(key)) problems.push(`call ${call + 1} sent ${header} ${JSON.stringify(key)}, not ${expected === undefined ? "a UUID made for it" : JSON.stringify(expected)}`);
      return key;
    });
    if (new Set(callKeys).size !== callKeys.length) problems.push(`two calls sent the same key: ${JSON.stringify(callKeys)}`);
    const shown = [outcome.error instanceof Error ? `${outcome.error.message} ${JSON.stringify(outcome.error)} ${String(outcome.error.stack)}` : "", ...ctx.log];
    for (const key of callKeys) if (key !== undefined && shown.some((text) => text.includes(key))) problems.push(`the idempotency key ${key} shows in the error or a log line`);
    return problems;
  };

/** Exactly one request reached the server, carrying no idempotency key. */
const sentOnceWithout = (header: string) => (_: unknown, ctx: CaseContext) => {
  const requests = ctx.a.requests;
  return [
    ...(requests.length === 1 ? [] : [`${requests.length} requests reached the server: a POST that may have run was sent again`]),
    ...requests.filter((request) => request.headers[header] !== undefined).map((request) => `${request.method} ${request.path} carried ${header}`),
  ];
};

export const IDEMPOTENCY_KEY_CASES: FaultCase[] = [
  // A declared key: retried like a GET, with the same key.
  {
    name: "createPayment (POST, Idempotency-Key): the first attempt times out: retried with the same key",
    a: () => payments(silent(), PAID),
    run: (ctx) => createPayment(ctx, undefined, {}, { timeoutMs: 500 }),
    expect: { result: "ok", counts: { "POST /payments": 2 }, check: keys("idempotency-key", [2]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): reset after the request is read: retried with the same key",
    a: () => payments(reset(), PAID),
    run: (ctx) => createPayment(ctx),
    expect: { result: "ok", counts: { "POST /payments": 2 }, check: keys("idempotency-key", [2]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): a 503 then a 201: retried with the same key",
    a: () => payments(UNAVAILABLE, PAID),
    run: (ctx) => createPayment(ctx),
    expect: { result: "ok", counts: { "POST /payments": 2 }, check: keys("idempotency-key", [2]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): reset every time: three attempts with one key, then a ConnectionError without it",
    a: () => payments(reset()),
    run: (ctx) => createPayment(ctx),
    expect: { result: PAYMENTS.ConnectionError, counts: { "POST /payments": 3 }, check: keys("idempotency-key", [3]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): two calls, each retried once: one key per call, the two different",
    a: () => payments(reset(), PAID, UNAVAILABLE, PAID),
    run: async (ctx) => {
      await createPayment(ctx);
      return createPayment(ctx);
    },
    expect: { result: "ok", counts: { "POST /payments": 4 }, check: keys("idempotency-key", [2, 2]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): the caller's key, reset then answered: sent as it is on both attempts",
    a: () => payments(reset(), PAID),
    run: (ctx) => createPayment(ctx, { "Idempotency-Key": "order-42/payment" }),
    expect: { result: "ok", counts: { "POST /payments": 2 }, check: keys("idempotency-key", [2], ["order-42/payment"]) },
  },
  {
    name: "createPayment (POST, Idempotency-Key): the caller's key among the call's headers: sent as it is, retried",
    a: () => payments(UNAVAILABLE, PAID),
    run: (ctx) => createPayment(ctx, undefined, { headers: { "IDEMPOTENCY-KEY": "order-43" } }),
    expect: { result: "ok", counts: { "POST /payments": 2 }, check: keys("idempotency-key", [2], ["order-43"]) },
  },
  {
    name: "createRefund (POST, required X-Idempotency-Key): the caller's key, a 503 then a 201: the same key twice",
    a: () => route("/refunds", [UNAVAILABLE, PAID]),
    run: (ctx) => ctx.paymentsClient().createRefund({ body: MONEY, header: { "X-Idempotency-Key": "refund-2026-0001" } }, { signal: ctx.signal }),
    expect: { result: "ok", counts: { "POST /refunds": 2 }, check: keys("x-idempotency-key", [2], ["refund-2026-0001"]) },
  },
  {
    name: "createPayout (POST, Request-Token named by x-idempotency-key): reset then answered: the same key twice",
    a: () => route("/payouts", [reset(), PAID]),
    run: (ctx) => ctx.paymentsClient().createPayout({ body: MONEY }, { signal: ctx.signal }),
    expect: { result: "ok", counts: { "POST /payouts": 2 }, check: keys("request-token", [2]) },
  },
  {
    name: "createPayment: a caller's key that is no header value: an InvalidRequestError that does not quote it, nothing sent",
    a: () => payments(PAID),
    run: (ctx) => createPayment(ctx, { "Idempotency-Key": "order-44\r\nX-Injected: 1" }),
    expect: {
      result: PAYMENTS.InvalidRequestError,
      counts: {},
      check: (outcome) => (outcome.error instanceof Error && outcome.error.message.includes("order-44") ? [`the error quotes the key: ${outcome.error.message}`] : []),
    },
  },

  // No key, or opted out: the never-resend rule.
  {
    name: "createTransfer (POST, no key header): reset after the request is read: a ConnectionError, not sent again",
    a: () => route("/transfers", [reset(), PAID]),
    run: (ctx) => ctx.paymentsClient().createTransfer({ body: MONEY }, { signal: ctx.signal }),
    expect: { result: PAYMENTS.ConnectionError, counts: { "POST /transfers": 1 }, check: sentOnceWithout("idempotency-key") },
  },
  {
    name: "createTransfer (POST, no key header): the first attempt times out: a TimeoutError, not sent again",
    a: () => route("/transfers", [silent(), PAID]),
    run: (ctx) => ctx.paymentsClient({ timeoutMs: 500 }).createTransfer({ body: MONEY }, { signal: ctx.signal }),
    expect: { result: PAYMENTS.TimeoutError, counts: { "POST /transfers": 1 }, check: sentOnceWithout("idempotency-key") },
  },
  {
    name: "createTransfer (POST, no key header): a 503: a ServerError, not sent again",
    a: () => route("/transfers", [UNAVAILABLE, PAID]),
    run: (ctx) => ctx.paymentsClient().createTransfer({ body: MONEY }, { signal: ctx.signal }),
    expect: { result: PAYMENTS.ServerError, counts: { "POST /transfers": 1 }, check: sentOnceWithout("idempotency-key") },
  },
  {
    name: "createCapture (POST, Idempotency-Key the contract says is none): reset: not sent again, no key made",
    a: () => route("/payments/pay-1/captures", [reset(), PAID]),
    run: (ctx) => ctx.paymentsClient().createCapture({ path: { paymentId: "pay-1" } }, { signal: ctx.signal }),
    expect: { result: PAYMENTS.ConnectionError, counts: { "POST /payments/pay-1/captures": 1 }, check: sentOnceWithout("idempotency-key") },
  },
  {
    name: "createPayment with idempotencyKey: false: reset after the request is read: not sent again, no key made",
    a: () => payments(reset(), PAID),
    run: (ctx) => createPayment(ctx, undefined, { idempotencyKey: false }),
    expect: { result: PAYMENTS.ConnectionError, counts: { "POST /payments": 1 }, check: sentOnceWithout("idempotency-key") },
  },
];
