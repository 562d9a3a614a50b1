import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { ApiError, AuthenticationError, BadRequestError, ConflictError, NotFoundError, PermissionDeniedError, RateLimitError, ServerError, UnexpectedStatusError, UnprocessableEntityError } from "../../templates/runtime/api-errors.ts";
import { SdkError } from "../../templates/runtime/error-base.ts";
import { errorFromResponse } from "../../templates/runtime/error-response.ts";

const SECRET = "sk-live-7f3c9a1e5b2d4c6a8e0f";
const REQUEST = { method: "GET", url: "https://api.example.com/v1/instances/i-1?expand=true", operationId: "getInstance" };

function problemResponse(status: number, problem: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });
}

/** Every way an error can be looked at; none of them may show the secret. */
function everyView(error: Error): string[] {
  return [
    error.message,
    String(error.stack),
    JSON.stringify(error),
    inspect(error, { depth: 10, showHidden: true }),
    inspect(error, { depth: 10 }),
    JSON.stringify(Object.values(error)),
  ];
}

describe("errorFromResponse picks the class and kind by status", () => {
  it.each([
    [400, BadRequestError, "bad_request"],
    [401, AuthenticationError, "authentication"],
    [403, PermissionDeniedError, "permission_denied"],
    [404, NotFoundError, "not_found"],
    [409, ConflictError, "conflict"],
    [422, UnprocessableEntityError, "unprocessable"],
    [429, RateLimitError, "rate_limit"],
    [500, ServerError, "server"],
    [503, ServerError, "server"],
    [599, ServerError, "server"],
    [402, UnexpectedStatusError, "unexpected_status"],
    [418, UnexpectedStatusError, "unexpected_status"],
    [302, UnexpectedStatusError, "unexpected_status"],
  ] as const)("%i → %o", async (status, errorClass, kind) => {
    const error = await errorFromResponse(problemResponse(status, { title: "T", status, detail: "D" }), REQUEST);
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe(kind);
    expect(error.name).toBe(errorClass.name);
    expect(error.status).toBe(status);
  });
});

describe("errorFromResponse reads the body", () => {
  it("parses a problem document into fields and message", async () => {
    const problem = { title: "Not Found", status: 404, detail: "Instance i-1 does not exist", errors: ["id: unknown"] };
    const error = await errorFromResponse(problemResponse(404, problem, { "X-Request-Id": "req-1" }), REQUEST);
    expect(error.message).toBe("GET /v1/instances/i-1 failed with 404 Not Found: Instance i-1 does not exist");
    expect(error).toMatchObject({
      title: "Not Found",
      detail: "Instance i-1 does not exist",
      errors: ["id: unknown"],
      problem,
      rawBody: JSON.stringify(problem),
      method: "GET",
      url: REQUEST.url,
      operationId: "getInstance",
    });
    expect(error.headers["x-request-id"]).toBe("req-1");
    expect(error.stack).toContain("NotFoundError: GET /v1/instances/i-1 failed");
  });

  it("uses the errors list when there is no detail", async () => {
    const error = await errorFromResponse(
      problemResponse(422, { title: "Invalid body", status: 422, errors: ["name: required", "gpu: unknown"] }),
      { method: "post", url: "https://api.example.com/v1/instances" },
    );
    expect(error.message).toBe("POST /v1/instances failed with 422 Invalid body: name: required; gpu: unknown");
    expect(error.detail).toBeUndefined();
  });

  it("tolerates an HTML body, quoting its start in the message", async () => {
    const html = `<html>\n<body>\n<h1>502 Bad Gateway</h1>${"x".repeat(500)}</body></html>`;
    const response = new Response(html, { status: 502, statusText: "Bad Gateway", headers: { "Content-Type": "text/html" } });
    const error = await errorFromResponse(response, REQUEST);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.rawBody).toBe(html);
    expect(error.problem).toBeUndefined();
    expect(error.title).toBeUndefined();
    expect(error.message).toBe(
      `GET /v1/instances/i-1 failed with 502 Bad Gateway: ${`<html> <body> <h1>502 Bad Gateway</h1>${"x".repeat(500)}`.slice(0, 200)}…`,
    );
  });

  it("tolerates malformed JSON", async () => {
    const response = new Response('{"title": "Oops', { status: 500, headers: { "Content-Type": "application/problem+json" } });
    const error = await errorFromResponse(response, REQUEST);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.rawBody).toBe('{"title": "Oops');
    expect(error.problem).toBeUndefined();
    expect(error.message).toBe('GET /v1/instances/i-1 failed with 500: {"title": "Oops');
  });

  it("tolerates an empty body", async () => {
    const error = await errorFromResponse(new Response(null, { status: 503, statusText: "Service Unavailable" }), REQUEST);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.rawBody).toBe("");
    expect(error.message).toBe("GET /v1/instances/i-1 failed with 503 Service Unavailable");
  });

  it("tolerates JSON that is not a problem document", async () => {
    const error = await errorFromResponse(problemResponse(409, ["busy"]), REQUEST);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.problem).toEqual(["busy"]);
    expect(error.title).toBeUndefined();
    expect(error.message).toBe('GET /v1/instances/i-1 failed with 409: ["busy"]');
  });

  it("ignores problem members of the wrong type", async () => {
    const error = await errorFromResponse(problemResponse(400, { title: 7, detail: "Bad", errors: ["a", 1] }), REQUEST);
    expect(error.title).toBeUndefined();
    expect(error.errors).toEqual(["a"]);
    expect(error.message).toBe("GET /v1/instances/i-1 failed with 400: Bad");
  });

  it("tolerates a body that was already read", async () => {
    const response = problemResponse(404, { title: "Not Found" });
    await response.text();
    const error = await errorFromResponse(response, REQUEST);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.rawBody).toBe("");
  });

  it("keeps at most 64 KiB of the body", async () => {
    const body = "a".repeat(200 * 1024);
    const error = await errorFromResponse(new Response(body, { status: 500 }), REQUEST);
    expect(error.rawBody).toBe("a".repeat(64 * 1024));
  });

  it("stops reading at 64 KiB and cancels the rest of an endless body", async () => {
    const chunk = new TextEncoder().encode("b".repeat(32 * 1024));
    let sent = 0;
    const cancelled = vi.fn();
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (sent++ < 3) controller.enqueue(chunk);
        return sent > 3 ? new Promise(() => undefined) : undefined; // then never ends
      },
      cancel: cancelled,
    });
    const error = await errorFromResponse(new Response(endless, { status: 500 }), REQUEST);
    expect(error.rawBody).toBe("b".repeat(64 * 1024));
    expect(cancelled).toHaveBeenCalledTimes(1);
  });

  it("parses the rate limit headers", async () => {
    const error = await errorFromResponse(
      problemResponse(429, { title: "Too Many Requests" }, { RateLimit: '"minute";r=0;t=12', "RateLimit-Policy": '"minute";q=60;w=60' }),
      REQUEST,
    );
    expect(error.rateLimit).toEqual({
      windows: [{ name: "minute", remaining: 0, resetSeconds: 12, quota: 60, windowSeconds: 60 }],
      problems: [],
    });
  });
});

describe("RateLimitError.retryAfter", () => {
  it("comes from Retry-After seconds", async () => {
    const error = await errorFromResponse(problemResponse(429, { title: "Slow down" }, { "Retry-After": "12" }), REQUEST);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 12, retryAfterMs: 12_000 });
    expect(error.toJSON()).toMatchObject({ retryAfter: 12, retryAfterMs: 12_000 });
  });

  it("comes from a Retry-After HTTP-date, rounded up to whole seconds", async () => {
    const date = new Date(Date.now() + 30_500).toUTCString();
    const error = (await errorFromResponse(problemResponse(429, {}, { "Retry-After": date }), REQUEST)) as RateLimitError;
    expect(error.retryAfter).toBeGreaterThanOrEqual(29);
    expect(error.retryAfter).toBeLessThanOrEqual(31);
  });

  it("comes, without Retry-After, from the reset of the RateLimit window used up (Retry-After first)", async () => {
    const exhausted = { RateLimit: '"minute";r=0;t=12, "hour";r=0;t=1800, "day";r=40;t=80000' };
    const error = (await errorFromResponse(problemResponse(429, {}, exhausted), REQUEST)) as RateLimitError;
    expect(error).toMatchObject({ retryAfter: 1_800, retryAfterMs: 1_800_000 });
    const both = (await errorFromResponse(problemResponse(429, {}, { ...exhausted, "Retry-After": "5" }), REQUEST)) as RateLimitError;
    expect(both.retryAfterMs).toBe(5_000);
    const left = (await errorFromResponse(problemResponse(429, {}, { RateLimit: '"minute";r=3;t=12' }), REQUEST)) as RateLimitError;
    expect(left.retryAfterMs).toBeUndefined();
  });

  it("is undefined without a usable Retry-After", async () => {
    const error = (await errorFromResponse(problemResponse(429, {}, { "Retry-After": "later" }), REQUEST)) as RateLimitError;
    expect(error.retryAfter).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
  });
});

describe("ServerError.retryAfter", () => {
  it("comes from a 503's Retry-After, seconds or date; a RateLimit header is no wait for a 5xx", async () => {
    const seconds = (await errorFromResponse(problemResponse(503, {}, { "Retry-After": "120" }), REQUEST)) as ServerError;
    expect(seconds).toBeInstanceOf(ServerError);
    expect(seconds).toMatchObject({ retryAfter: 120, retryAfterMs: 120_000 });
    expect(seconds.toJSON()).toMatchObject({ retryAfter: 120, retryAfterMs: 120_000 });
    const date = (await errorFromResponse(problemResponse(503, {}, { "Retry-After": new Date(Date.now() + 30_500).toUTCString() }), REQUEST)) as ServerError;
    expect(date.retryAfter).toBeGreaterThanOrEqual(29);
    const limited = (await errorFromResponse(problemResponse(503, {}, { RateLimit: '"minute";r=0;t=12' }), REQUEST)) as ServerError;
    expect(limited.retryAfterMs).toBeUndefined();
  });
});

describe("secrets never leak from an ApiError", () => {
  it("drops credential headers and strips userinfo from the URL", async () => {
    const response = problemResponse(401, { title: "Unauthorized" }, {
      Authorization: `Bearer ${SECRET}`,
      "Proxy-Authorization": `Basic ${SECRET}`,
      "Set-Cookie": `session=${SECRET}`,
      Cookie: `session=${SECRET}`,
      "X-Api-Key": SECRET,
      "X-Request-Id": "req-9",
    });
    const error = await errorFromResponse(response, { method: "GET", url: `https://user:${SECRET}@api.example.com/v1/me?page=2` });
    expect(error.url).toBe("https://api.example.com/v1/me?page=2");
    expect(Object.keys(error.headers).sort()).toEqual(["content-type", "x-request-id"]);
    for (const view of everyView(error)) expect(view).not.toContain(SECRET);
  });

  it("blanks out secrets the server echoes in the body or in other headers", async () => {
    const problem = { title: `Bad key ${SECRET}`, detail: `Key ${SECRET} is revoked`, errors: [SECRET], [SECRET]: { nested: [SECRET] } };
    const response = problemResponse(403, problem, { "X-Debug-Auth": `Bearer ${SECRET}` });
    const error = await errorFromResponse(response, { ...REQUEST, secrets: [SECRET] });
    expect(error.message).toBe("GET /v1/instances/i-1 failed with 403 Bad key [REDACTED]: Key [REDACTED] is revoked");
    expect(error.headers["x-debug-auth"]).toBe("Bearer [REDACTED]");
    expect(error.problem).toEqual({
      title: "Bad key [REDACTED]",
      detail: "Key [REDACTED] is revoked",
      errors: ["[REDACTED]"],
      "[REDACTED]": { nested: ["[REDACTED]"] },
    });
    for (const view of everyView(error)) expect(view).not.toContain(SECRET);
  });

  it("serialises only plain data", async () => {
    const error = await errorFromResponse(problemResponse(404, { title: "Not Found", detail: "gone" }), REQUEST);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "NotFoundError",
      kind: "not_found",
      message: "GET /v1/instances/i-1 failed with 404 Not Found: gone",
      status: 404,
      title: "Not Found",
      detail: "gone",
      headers: { "content-type": "application/problem+json" },
      method: "GET",
      url: REQUEST.url,
      operationId: "getInstance",
    });
  });
});
