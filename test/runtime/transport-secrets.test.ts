/**
 * What the transport shows of a call: one log line per attempt with no key, header or body, and
 * no key in any error it makes or any error made from its answer, even when a server or the
 * network echoes it.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorFromAnswer } from "../../templates/runtime/error-response.ts";
import { ConnectionError } from "../../templates/runtime/errors.ts";
import { ServerError } from "../../templates/runtime/api-errors.ts";
import { API_KEY, call, closeServers, closedPortUrl, injectedFetch, rejection, send, startServer } from "./transport-harness.ts";

afterEach(async () => {
  vi.useRealTimers();
  await closeServers();
});

describe("logging and secrets", () => {
  it("logs one line per attempt with no key, header or body", async () => {
    const server = await startServer((response, _request, count) => (count === 1 ? send(response, 503, API_KEY) : send(response, 200, API_KEY)));
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = { debug: (message: string, fields?: Record<string, unknown>) => lines.push([message, fields]) };
    await call(`${server.url}/v1/instances?page=2`, { method: "PUT", body: "secret-body", headers: { "x-trace": "trace-header" } }, { logger, random: () => 0 });
    // Without a logName (the generated client passes its package's), messages start with nothing.
    expect(lines.map(([message]) => message)).toEqual(["request attempt", "request attempt"]);
    expect(lines.map(([, fields]) => fields)).toEqual([
      { method: "PUT", url: `${server.url}/v1/instances?page=2`, attempt: 1, status: 503, delayMs: 0 },
      { method: "PUT", url: `${server.url}/v1/instances?page=2`, attempt: 2, status: 200, delayMs: undefined },
    ]);
    const logged = JSON.stringify(lines);
    for (const forbidden of [API_KEY, "Bearer", "secret-body", "trace-header"]) expect(logged).not.toContain(forbidden);
  });

  it("keeps the key out of the error made from an answer, even when the server echoes it", async () => {
    const server = await startServer((response, request) =>
      send(response, 500, JSON.stringify({ title: "Internal", detail: `got ${request.headers.authorization}` }), {
        "Content-Type": "application/problem+json",
        "X-Echo": String(request.headers.authorization),
        "Set-Cookie": `k=${API_KEY}`,
      }),
    );
    const lines: unknown[] = [];
    const url = `${server.url}/v1/instances`;
    const answer = await call(url, {}, { maxRetries: 0, logger: { debug: (...args: unknown[]) => lines.push(args) } });
    if (answer.ok) throw new Error(`expected the 500, got ${answer.status}`);
    const error = errorFromAnswer(answer, { method: "GET", url, secrets: [API_KEY] });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.detail).toBe("got Bearer [REDACTED]");
    const views = [error.message, JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(Object.values(error)), JSON.stringify(lines)];
    for (const view of views) expect(view).not.toContain(API_KEY);
  });

  it("blanks the key out of a network error message that quotes it", async () => {
    const { fetch } = injectedFetch(() =>
      Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error(`proxy rejected Bearer ${API_KEY}`), { code: "EPROXY" }) })),
    );
    const error = await rejection(call("https://api.example.com/v1/me", {}, { fetch, maxRetries: 0 }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toEqual({ name: "Error", message: "proxy rejected Bearer [REDACTED]", code: "EPROXY" });
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });

  it("keeps the key out of connection and timeout errors, and out of a URL that carries it", async () => {
    const refusedUrl = await closedPortUrl();
    const connection = await rejection(call(`${refusedUrl}/v1/me?api_key=${API_KEY}`, {}, { maxRetries: 0 }));
    const silentServer = await startServer(() => undefined);
    const timeout = await rejection(call(`${silentServer.url}/v1/me`, {}, { timeoutMs: 20, maxRetries: 0 }));
    expect(connection).toBeInstanceOf(ConnectionError);
    expect((connection as ConnectionError).url).toContain("api_key=");
    for (const error of [connection, timeout]) {
      expect(error).toBeInstanceOf(Error);
      for (const view of [JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), JSON.stringify(Object.values(error as object))]) {
        expect(view).not.toContain(API_KEY);
      }
    }
  });
});
