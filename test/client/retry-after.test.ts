/**
 * The waits a server asks for: Retry-After (in seconds or as an HTTP date), a RateLimit window's
 * reset on a 429 without it, and none past maxRetryAfterMs. On vitest's fake timers against a
 * scripted fetch: each wait is the fake clock's, exactly, however fast the machine is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GpuCloudClient, RateLimitError, ServerError, type GpuCloudClientOptions } from "../../generated/gpu-cloud-client/src/index.ts";
import { driven, jsonResponse, scriptedFetch } from "../support/scripted-fetch.ts";
import { KEY } from "./resilience-client.ts";

beforeEach(() => {
  // On a whole second, so that an HTTP date (whole seconds) is as far ahead as it says.
  vi.useFakeTimers({ now: Date.parse("2026-11-22T12:00:00.000Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client whose first request `first` answers, every later one `200 {"pods":[]}`; the requests it sent, and when. */
function scripted(first: () => Response, options: Partial<GpuCloudClientOptions> = {}) {
  const { fetch, requests } = scriptedFetch((_, n) => (n === 1 ? first() : jsonResponse(200, { pods: [] })));
  const client = new GpuCloudClient({ apiKey: KEY, baseUrl: "https://api.test", publicEndpointBaseUrl: "https://api.test", retryBaseDelayMs: 5, retryMaxDelayMs: 20, fetch, ...options });
  return { client, requests };
}

/** How long after the first attempt the retry came, once the call succeeded. */
async function retriedAfter(first: () => Response): Promise<number> {
  const { client, requests } = scripted(first);
  const { data } = await driven(client.listPods());
  expect(data.pods).toEqual([]);
  expect(requests).toHaveLength(2);
  return requests[1]!.at - requests[0]!.at;
}

describe("waits the server asks for", () => {
  it("waits Retry-After on 429 before retrying a DELETE", async () => {
    const { client, requests } = scripted(() => jsonResponse(429, { title: "Too Many Requests", status: 429, detail: "minute window" }, { "retry-after": "1" }));
    const { status } = await driven(client.deleteRegistry({ path: { id: "r1" } })).catch(() => ({ status: 0 }));
    expect(requests.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
    expect(requests[1]!.at - requests[0]!.at).toBe(1_000);
    expect(status).toBe(200);
  });

  it("waits Retry-After on 503, in seconds or as an HTTP date", async () => {
    const unavailable = (retryAfter: string) => () => jsonResponse(503, { title: "Unavailable", status: 503 }, { "retry-after": retryAfter });
    expect(await retriedAfter(unavailable("1"))).toBe(1_000);
    expect(await retriedAfter(unavailable(new Date(Date.now() + 2_000).toUTCString()))).toBe(2_000);
  });

  it("waits, on a 429 without Retry-After, for the reset of the RateLimit window used up", async () => {
    const limited = () => jsonResponse(429, { title: "Too Many Requests", status: 429 }, { ratelimit: '"hour";r=5;t=3000, "minute";r=0;t=1', "ratelimit-policy": '"minute";q=10;w=60' });
    expect(await retriedAfter(limited)).toBe(1_000);
  });

  it("does not wait past maxRetryAfterMs: the typed error says the wait asked for", async () => {
    const over = scripted(() => jsonResponse(503, { title: "Unavailable", status: 503 }, { "retry-after": "120" }));
    const unavailable = await driven(over.client.listPods()).catch((e) => e);
    expect(unavailable).toBeInstanceOf(ServerError);
    expect(unavailable).toMatchObject({ status: 503, retryAfterMs: 120_000, retryAfter: 120 });
    expect(over.requests).toHaveLength(1);

    const reset = scripted(() => jsonResponse(429, { title: "Too Many Requests", status: 429 }, { ratelimit: '"minute";r=0;t=3600' }));
    const limited = await driven(reset.client.listPods()).catch((e) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ retryAfterMs: 3_600_000, retryAfter: 3_600 });
    expect(reset.requests).toHaveLength(1);

    const capped = scripted(() => jsonResponse(503, { title: "Unavailable", status: 503 }, { "retry-after": "2" }), { maxRetryAfterMs: 1_000 });
    const lowerCap = await driven(capped.client.listPods()).catch((e) => e);
    expect(lowerCap).toMatchObject({ status: 503, retryAfterMs: 2_000 });
    expect(capped.requests).toHaveLength(1);
  });
});
