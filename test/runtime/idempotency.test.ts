/**
 * The idempotency key of one call (templates/runtime/idempotency.ts): the caller's as given, else
 * a version-4 UUID (from `crypto.randomUUID`, or from `getRandomValues` where a page has no
 * `randomUUID`), none when the call opts out; a caller's key that is no header value is refused
 * without quoting it. What a server sees across attempts: test/faults/cases/idempotency-keys.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidRequestError } from "../../templates/runtime/errors.ts";
import { withIdempotencyKey } from "../../templates/runtime/idempotency.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

describe("withIdempotencyKey", () => {
  it("makes a UUID when the caller gave none, a new one per call", () => {
    const first: Record<string, string> = {};
    const second: Record<string, string> = {};
    expect(withIdempotencyKey("idempotency-key", first, false)).toBe(true);
    expect(withIdempotencyKey("idempotency-key", second, false)).toBe(true);
    expect(first["idempotency-key"]).toMatch(UUID);
    expect(second["idempotency-key"]).toMatch(UUID);
    expect(second["idempotency-key"]).not.toBe(first["idempotency-key"]);
  });

  it("keeps the caller's key as it is", () => {
    const headers = { "idempotency-key": "order 42/é" };
    expect(withIdempotencyKey("idempotency-key", headers, false)).toBe(true);
    expect(headers).toEqual({ "idempotency-key": "order 42/é" });
  });

  it("opted out: makes none, and the call is not idempotent", () => {
    const headers: Record<string, string> = {};
    expect(withIdempotencyKey("idempotency-key", headers, true)).toBe(false);
    expect(headers).toEqual({});
  });

  it.each([
    ["a line break", "order-9\r\nX-Other: 1"],
    ["a character beyond Latin-1", "order-9 ✓"],
    ["nothing", ""],
  ])("refuses a caller's key holding %s, without quoting it", (_, key) => {
    let error: unknown;
    try {
      withIdempotencyKey("x-idempotency-key", { "x-idempotency-key": key }, false);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).field).toBe("header.x-idempotency-key");
    if (key !== "") expect(JSON.stringify(error) + (error as Error).message).not.toContain("order-9");
  });

  it("makes a version-4 UUID from getRandomValues where randomUUID is missing (a page over plain HTTP)", () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => 0xf0 + i);
    vi.stubGlobal("crypto", { getRandomValues: (array: Uint8Array) => (array.set(bytes), array) });
    const headers: Record<string, string> = {};
    withIdempotencyKey("idempotency-key", headers, false);
    // Version nibble 4 in byte 6, variant bits 10 in byte 8; every other byte as drawn.
    expect(headers["idempotency-key"]).toBe("f0f1f2f3-f4f5-46f7-b8f9-fafbfcfdfeff");
  });
});
