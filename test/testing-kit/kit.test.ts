/**
 * The test kit of this contract's package (`gpu-cloud-client/testing`): answers from the contract's
 * examples, requests checked by the package's validators, scripted answers, faults and rate limits,
 * on a clock the test controls. Every wait asserted here is the kit clock's: the test's time, never
 * the machine's.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loadContract } from "../../generator/load/index.ts";
import { buildModel, type ApiModel } from "../../generator/model/index.ts";
import { ApiError, ConnectionError, GpuCloudClient, RateLimitError, runAndWait, ServerError, TimeoutError, type GpuCloudClientOptions } from "../../generated/gpu-cloud-client/src/index.ts";
import { createTestFetch, TestClock, type TestFetchOptions, type OperationName } from "../../generated/gpu-cloud-client/src/testing.ts";
import { contractPath } from "../support/prism.ts";
import { deref, loadContractDocument, resolvePointer } from "../support/contract.ts";

const contract = loadContractDocument();
/** A template the contract's own example saves: a valid body for createTemplate. */
const TEMPLATE = (Object.values<any>(contract.paths["/v2/templates"].post.requestBody.content["application/json"].examples)[0] as { value: unknown }).value;

let api: ApiModel;
beforeAll(async () => {
  api = buildModel(await loadContract(contractPath));
}, 120_000);

/** A client on a fresh kit; `options` the kit's, `client` the client's. */
function kitClient(options: TestFetchOptions<OperationName> = {}, client: Partial<GpuCloudClientOptions> = {}) {
  const kit = createTestFetch(options);
  return { kit, client: new GpuCloudClient({ apiKey: "test-key", fetch: kit.fetch, clock: kit.clock, ...client }) };
}

/** The contract's own example of an operation's response, as the YAML writes it. */
function contractExample(path: string, method: string, status: string): unknown {
  const response = deref(contract, contract.paths[path][method].responses[status]);
  const media = response.content["application/json"];
  if (media.example !== undefined) return media.example;
  const first = deref(contract, Object.values<any>(media.examples)[0]);
  return first.value;
}

describe("answers from the contract", () => {
  it("answers each operation with its documented example, headers included", async () => {
    const { kit, client } = kitClient();
    const pods = await client.listPods();
    expect(pods.status).toBe(200);
    expect(pods.data).toEqual(contractExample("/v2/pods", "get", "200"));
    const pod = await client.getPod({ path: { id: "7h9k2m4n6p" } });
    expect(pod.data).toEqual(contractExample("/v2/pods/{id}", "get", "200"));
    // The contract's RateLimit headers come with it, read by the client as from the service.
    const policy = deref(contract, deref(contract, contract.paths["/v2/pods"].get.responses["200"]).headers["RateLimit-Policy"]);
    expect(pods.headers.get("ratelimit-policy")).toBe(policy.example ?? policy.schema?.example);
    expect(pods.rateLimit?.windows[0]?.name).toBe("minute");
    expect(kit.requestsTo("getPod")[0]!.params.path).toEqual({ id: "7h9k2m4n6p" });
  });

  it("answers an operation without a body (204) with none", async () => {
    const { client } = kitClient();
    const deleted = await client.deletePod({ path: { id: "7h9k2m4n6p" } });
    expect(deleted.status).toBe(204);
  });

  it("matches the path template after any base path, and the most literal template first", async () => {
    const { kit } = kitClient();
    // `/v2/pods/{id}/logs` and `/v2/{model_endpoint_id}/...` live side by side: the literal one wins.
    const health = await kit.fetch("https://anywhere.test/base/v2/flux-dev/health");
    expect(health.status).toBe(200);
    expect(kit.requests.at(-1)!.operationId).toBe("getEndpointHealth");
    const pods = await kit.fetch("https://anywhere.test/base/v2/pods");
    expect(kit.requests.at(-1)!.operationId).toBe("listPods");
    expect(await pods.json()).toEqual(contractExample("/v2/pods", "get", "200"));
  });

  it("answers an unknown route 404 and a known path under another method 405, saying why", async () => {
    const { kit, client } = kitClient();
    const missing = await kit.fetch("https://api.test/v2/nothing/here/at/all");
    expect(missing.status).toBe(404);
    expect((await missing.json()).detail).toMatch(/matches no operation of the contract to GET \/v2\/nothing\/here\/at\/all/);
    const wrongMethod = await kit.fetch("https://api.test/v2/pods", { method: "PUT" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
    expect(kit.requests.map((request) => request.operationId)).toEqual([undefined, undefined]);
    void client;
  });
});

describe("requests checked with the package's validators", () => {
  it("answers a request that breaks the contract 400, naming each field, and records it", async () => {
    const { kit, client } = kitClient({}, { validateRequests: false });
    const error = await client.createPod({ body: { name: 5 } as never }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).detail).toMatch(/^createPod: body\.name must be a string/);
    expect(kit.invalidRequests).toHaveLength(1);
    expect(kit.invalidRequests[0]!.issues.map((issue) => issue.path)).toContain("/body/name");
  });

  it("reads typed query parameters back from their text (booleans, integers, lists)", async () => {
    const { kit, client } = kitClient();
    await client.listPods({ query: { includeClusterPods: true } });
    await client.listGpuTypes({ query: { include: ["AVAILABILITY"], product: ["POD", "SERVERLESS"] } } as never);
    expect(kit.invalidRequests).toEqual([]);
    expect(kit.requestsTo("listPods")[0]!.params.query).toEqual({ includeClusterPods: true });
    expect(kit.requestsTo("listGpuTypes")[0]!.params.query).toEqual({ include: ["AVAILABILITY"], product: ["POD", "SERVERLESS"] });
  });

  it("answers the example call of every operation the client sends, each request matching the contract", async () => {
    const { kit, client } = kitClient();
    let sent = 0;
    for (const operation of api.operations) {
      const call = client[operation.methodName as keyof GpuCloudClient] as unknown as (params?: unknown) => unknown;
      const result = call.call(client, structuredClone(operation.exampleParams));
      // Event streams are iterated: their first event is the answer.
      const outcome = Symbol.asyncIterator in Object(result) ? (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().next() : result;
      const error = await Promise.resolve(outcome).then(() => undefined, (caught: unknown) => caught);
      // An example the contract leaves incomplete ("…") is refused before sending: nothing to answer.
      if (error !== undefined && (error as Error).name === "InvalidRequestError") continue;
      sent++;
      const received = kit.requestsTo(operation.operationId as OperationName);
      expect(received.length, operation.operationId).toBeGreaterThan(0);
      expect(received.flatMap((request) => request.issues), operation.operationId).toEqual([]);
    }
    expect(sent).toBeGreaterThan(api.operations.length / 2);
    expect(kit.invalidRequests).toEqual([]);
  });
});

describe("scripted answers", () => {
  it("answers a scripted status, body and headers once, then the contract's example again", async () => {
    const { client, kit } = kitClient();
    kit.answer("listPods", { status: 200, body: { pods: [] }, headers: { "x-request-id": "req-1" } });
    const scripted = await client.listPods();
    expect(scripted.data).toEqual({ pods: [] });
    expect(scripted.requestId).toBe("req-1");
    expect((await client.listPods()).data).toEqual(contractExample("/v2/pods", "get", "200"));
  });

  it("answers a sequence: 503 then 200, retried by the client after its backoff on the kit's clock", async () => {
    const { client, kit } = kitClient({}, { retryBaseDelayMs: 1_000, random: () => 0.5 });
    kit.answer("getPod", { status: 503 }, { status: 200 });
    const pod = await client.getPod({ path: { id: "7h9k2m4n6p" } });
    expect(pod.status).toBe(200);
    const [first, second] = kit.requestsTo("getPod");
    expect(second!.at - first!.at).toBe(500);
  });

  it("answers an error status with its documented example, typed by the client", async () => {
    const { client, kit } = kitClient();
    kit.answer("getPod", { status: 404 });
    const error = await client.getPod({ path: { id: "missing" } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    const documented = deref(contract, contract.paths["/v2/pods/{id}"].get.responses["404"]);
    const media = documented.content["application/problem+json"];
    const example = media.example ?? deref(contract, Object.values<any>(media.examples ?? {})[0])?.value ?? deref(contract, resolvePointer(contract, media.schema.$ref))?.examples?.[0];
    if (example?.title !== undefined) expect((error as ApiError).title).toBe(example.title);
  });

  it("lets a handler answer an operation, and a fallback the routes the contract lacks", async () => {
    const { client, kit } = kitClient({
      handlers: { getPod: (_request, context) => Response.json({ ...contractExample("/v2/pods/{id}", "get", "200") as object, id: (context.params.path as { id: string }).id }) },
      fallback: (request) => new Response(`no ${new URL(request.url).pathname}`, { status: 418 }),
    });
    expect((await client.getPod({ path: { id: "abc" } })).data.id).toBe("abc");
    const other = await kit.fetch("https://api.test/elsewhere");
    expect([other.status, await other.text()]).toEqual([418, "no /elsewhere"]);
    kit.handle("listPods", async (_request, context) => {
      const example = context.example();
      const body = await example.json();
      return Response.json({ pods: body.pods.slice(0, 1) }, { headers: example.headers });
    });
    expect((await client.listPods()).data.pods).toHaveLength(1);
  });

  it("lets one handler answer every operation (a fake of the service), after the kit's request check", async () => {
    const seen: Array<string | undefined> = [];
    const { client, kit } = kitClient({ handlers: { "*": (_request, context) => (seen.push(context.operationId), context.example()) } }, { validateRequests: false });
    expect((await client.listPods()).status).toBe(200);
    expect((await client.getPod({ path: { id: "p1" } })).status).toBe(200);
    await client.createPod({ body: { name: 5 } as never }).catch(() => undefined);
    expect(seen).toEqual(["listPods", "getPod"]);
    expect(kit.invalidRequests.map((request) => request.operationId)).toEqual(["createPod"]);
  });

  it("forgets scripts, handlers and records on reset", async () => {
    const { client, kit } = kitClient();
    kit.answer("listPods", { status: 500, times: Infinity });
    kit.reset();
    expect((await client.listPods()).status).toBe(200);
    expect(kit.requests).toHaveLength(1);
  });

  it("refuses a script for an operation the contract does not have", () => {
    const { kit } = kitClient();
    expect(() => kit.answer("noSuchOperation" as OperationName, { status: 200 })).toThrow(/knows no operation "noSuchOperation"/);
  });
});

describe("faults", () => {
  it("drops the connection before the answer: a GET is retried, a POST fails with a ConnectionError", async () => {
    const { client, kit } = kitClient({}, { retryBaseDelayMs: 10 });
    kit.answer("listPods", { fault: "network" });
    expect((await client.listPods()).status).toBe(200);
    expect(kit.requestsTo("listPods")).toHaveLength(2);
    kit.answer("createTemplate", { fault: "network" });
    const error = await client.createTemplate({ body: structuredClone(TEMPLATE) } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(kit.requestsTo("createTemplate")).toHaveLength(1);
  });

  it("refuses the connection: even a POST is sent again, since nothing reached the server", async () => {
    const { client, kit } = kitClient({}, { retryBaseDelayMs: 10 });
    kit.answer("createTemplate", { fault: "refused" });
    const created = await client.createTemplate({ body: structuredClone(TEMPLATE) } as never).catch((caught: unknown) => caught);
    expect(kit.requestsTo("createTemplate")).toHaveLength(2);
    expect(created).not.toBeInstanceOf(ConnectionError);
  });

  it("aborts the connection (AbortError) and resets it mid-body: the client retries a GET each time", async () => {
    const { client, kit } = kitClient({}, { retryBaseDelayMs: 10 });
    kit.answer("listPods", { fault: "abort" }, { fault: "reset" });
    expect((await client.listPods()).data).toEqual(contractExample("/v2/pods", "get", "200"));
    expect(kit.requestsTo("listPods")).toHaveLength(3);
  });

  it("a reset body fails a call with no retries left as a ConnectionError", async () => {
    const { client, kit } = kitClient({}, { maxRetries: 0 });
    kit.answer("listPods", { fault: "reset" });
    await expect(client.listPods()).rejects.toBeInstanceOf(ConnectionError);
  });

  it("delays an answer on the kit's clock: past the client's timeout it is a TimeoutError after exactly that long", async () => {
    const { client, kit } = kitClient({}, { timeoutMs: 5_000, maxRetries: 0 });
    kit.answer("listPods", { delayMs: 2_000 });
    expect((await client.listPods()).status).toBe(200);
    expect(kit.clock.elapsedMs).toBe(2_000);
    kit.answer("listPods", { delayMs: 30_000 });
    const before = kit.clock.now();
    await expect(client.listPods()).rejects.toBeInstanceOf(TimeoutError);
    expect(kit.clock.now() - before).toBe(5_000);
  });

  it("never answers (hang) until the attempt's timeout, each attempt timed on the kit's clock", async () => {
    const { client, kit } = kitClient({}, { timeoutMs: 60_000, maxRetries: 1, retryBaseDelayMs: 1_000, random: () => 0 });
    kit.answer("listPods", { fault: "hang", times: 2 });
    await expect(client.listPods()).rejects.toBeInstanceOf(TimeoutError);
    expect(kit.requestsTo("listPods")).toHaveLength(2);
    expect(kit.clock.elapsedMs).toBe(120_000);
  });
});

describe("job helpers", () => {
  it("poll on the client's clock: a job in progress twice, then the contract's finished job, after 6 s of the test's time", async () => {
    const { client, kit } = kitClient();
    kit.answer("getJobStatus", { body: { id: "job-1", status: "IN_PROGRESS" }, times: 2 });
    const result = await runAndWait(client, "black-forest-labs-flux-1-dev", { prompt: "a lighthouse" });
    expect(result.status).toBe("COMPLETED");
    const polls = kit.requestsTo("getJobStatus").map((request) => request.at - kit.requestsTo("run")[0]!.at);
    // waitForJob's default interval, 2 s: each wait the kit clock's.
    expect(polls).toEqual([2_000, 4_000, 6_000]);
    expect(kit.clock.elapsedMs).toBe(6_000);
  });
});

describe("event streams", () => {
  it("answers a stream from its example, cut halfway, resumed after the reconnect delay on the kit's clock, ended by a 204", async () => {
    const { client, kit } = kitClient();
    kit.answer("getPodLogs", { fault: "reset" }, {}, { status: 204 });
    const lines: string[] = [];
    for await (const event of client.getPodLogs({ path: { id: "7h9k2m4n6p" } })) lines.push((event.data as { line: string }).line);
    const received = kit.requestsTo("getPodLogs");
    expect(received.map((request) => request.at - received[0]!.at)).toEqual([0, 1_000, 2_000]);
    // The whole example came on the second connection; the third asked for what follows its last event.
    const example = (await (await kit.fetch("https://api.test/v2/pods/7h9k2m4n6p/logs")).text()).match(/^id: (.*)$/gm)!;
    expect(lines).toHaveLength(example.length);
    expect(received[2]!.headers.get("last-event-id")).toBe(example.at(-1)!.slice("id: ".length));
  });
});

describe("rate limits, with no real waiting", () => {
  it("a 429 with Retry-After: 12 is waited on the kit's clock: 12 s of the test's time", async () => {
    const { client, kit } = kitClient();
    kit.answer("listPods", { retryAfterSeconds: 12 });
    const pods = await client.listPods();
    expect(pods.status).toBe(200);
    const [limited, retried] = kit.requestsTo("listPods");
    expect(retried!.at - limited!.at).toBe(12_000);
    expect(kit.clock.elapsedMs).toBe(12_000);
  });

  it("sends the 429 with Retry-After and the contract's RateLimit fields; past the retries it is a RateLimitError", async () => {
    const { client, kit } = kitClient({}, { maxRetries: 1 });
    kit.answer("listPods", { retryAfterSeconds: 12, times: Infinity });
    const error = await client.listPods().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(12);
    const response = await kit.fetch("https://api.test/v2/pods");
    expect(response.headers.get("retry-after")).toBe("12");
    expect(response.headers.get("ratelimit")).toBe('"minute";r=0;t=12');
    expect(response.headers.get("ratelimit-policy")).toBe('"minute";q=60;w=60');
    // Two waits of 12 s, then the one the test made: the test's time, not the machine's.
    expect(kit.clock.elapsedMs).toBe(12_000);
  });

  it("a longer wait than maxRetryAfterMs is not waited at all", async () => {
    const { client, kit } = kitClient();
    kit.answer("listPods", { retryAfterSeconds: 3_600 });
    await expect(client.listPods()).rejects.toBeInstanceOf(RateLimitError);
    expect(kit.clock.elapsedMs).toBe(0);
  });

  it("counts a quota on the kit's clock: the third call in a window waits for its reset", async () => {
    const { client, kit } = kitClient();
    kit.rateLimit("listPods", { limit: 2, windowSeconds: 60 });
    const first = await client.listPods();
    expect(first.rateLimit?.windows[0]).toMatchObject({ name: "minute", remaining: 1, quota: 2, windowSeconds: 60 });
    await kit.clock.advance(15_000);
    await client.listPods();
    await client.listPods();
    const times = kit.requestsTo("listPods").map((request) => request.at - kit.requestsTo("listPods")[0]!.at);
    // The third is answered 429 at 15 s, asked to wait the window's 45 s left, and sent again at 60 s.
    expect(times).toEqual([0, 15_000, 15_000, 60_000]);
  });

  it("a 503 answer asks nothing: the client's backoff, no Retry-After", async () => {
    const { client, kit } = kitClient({}, { maxRetries: 0 });
    kit.answer("listPods", { status: 503 });
    await expect(client.listPods()).rejects.toBeInstanceOf(ServerError);
  });
});

describe("TestClock", () => {
  it("moves only when told to without auto-advance, firing timers in time order", async () => {
    const clock = new TestClock({ autoAdvance: false, start: new Date("2030-01-01T00:00:00Z") });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push("b"), 2_000);
    clock.setTimeout(() => fired.push("a"), 1_000);
    const cleared = clock.setTimeout(() => fired.push("never"), 1_500);
    clock.clearTimeout(cleared);
    await clock.advance(1_500);
    expect(fired).toEqual(["a"]);
    expect(clock.now()).toBe(Date.parse("2030-01-01T00:00:01.500Z"));
    await clock.runAll();
    expect(fired).toEqual(["a", "b"]);
    expect(clock.elapsedMs).toBe(2_000);
  });

  it("a manual clock drives a client's Retry-After wait with advance()", async () => {
    const clock = new TestClock({ autoAdvance: false });
    const { client, kit } = kitClient({ clock });
    kit.answer("listPods", { retryAfterSeconds: 12 });
    let done = false;
    const call = client.listPods().then((result) => ((done = true), result));
    // Manual time moves only once the code waits on it: the 429 first has to arrive.
    await vi.waitFor(() => expect(kit.requests).toHaveLength(1));
    await clock.advance(11_000);
    expect(done).toBe(false);
    await clock.advance(1_000);
    expect((await call).status).toBe(200);
    expect(kit.requestsTo("listPods")).toHaveLength(2);
  });

  it("sleep rejects with the signal's reason when it aborts first", async () => {
    const clock = new TestClock({ autoAdvance: false });
    const controller = new AbortController();
    const sleeping = clock.sleep(10_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(sleeping).rejects.toThrow("stop");
    expect(clock.pending).toBe(0);
  });
});
