import { describe, expect, it } from "vitest";
import { isJsonMediaType as generatorRule, mediaTypeKind as generatorKind } from "../../generator/common/media-types.ts";
import { isJsonMediaType, mediaTypeKind, requestContentType, withContentParameters } from "../../templates/runtime/media-types.ts";

describe("JSON media types", () => {
  const samples: Array<[string, boolean]> = [
    ["application/json", true],
    ["Application/JSON", true],
    ["application/problem+json", true],
    ["application/vnd.api+json", true],
    ["application/merge-patch+json", true],
    ["application/json; charset=utf-8", false],
    ["application/jsonl", false],
    ["text/json", false],
    ["application/x-www-form-urlencoded", false],
    ["multipart/form-data", false],
    ["application/+json", false],
  ];

  it.each(samples)("%s → %s", (mediaType, json) => {
    expect(isJsonMediaType(mediaType)).toBe(json);
  });

  it("follow the generator's rule", () => {
    for (const [mediaType] of samples) expect(isJsonMediaType(mediaType), mediaType).toBe(generatorRule(mediaType));
  });
});

describe("media type kinds", () => {
  const samples: Array<[string, string]> = [
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["Application/Problem+JSON", "json"],
    ["application/x-www-form-urlencoded", "form"],
    ["multipart/form-data", "multipart"],
    ["multipart/form-data; boundary=x", "multipart"],
    ["text/plain", "text"],
    ["text/csv", "text"],
    ["application/cbor", "binary"],
    ["application/x-tar", "binary"],
    ["image/jpeg", "binary"],
    ["application/xml", "binary"],
    ["multipart/mixed", "binary"],
    ["*/*", "binary"],
  ];

  it.each(samples)("%s is %s, for the client and the generator alike", (mediaType, kind) => {
    expect(mediaTypeKind(mediaType)).toBe(kind);
    expect(generatorKind(mediaType)).toBe(kind);
  });

  it("send a request's own media type, none for multipart, and for a range a Blob's type or octet-stream", () => {
    expect(requestContentType("application/cbor", new Uint8Array())).toBe("application/cbor");
    expect(requestContentType("multipart/form-data", new FormData())).toBeUndefined();
    expect(requestContentType("image/*", new Blob([], { type: "image/png" }))).toBe("image/png");
    expect(requestContentType("image/*", new Blob([]))).toBe("application/octet-stream");
    expect(requestContentType("*/*", "text")).toBe("application/octet-stream");
  });
});

describe("withContentParameters", () => {
  const content = { query: { filter: "application/json", note: "text/plain" }, header: { "X-Q": "application/json" } } as const;

  it("writes JSON content as JSON text and leaves the caller's objects as they were", () => {
    const query = { filter: { a: [1, "b"] }, note: "as is", other: { k: 1 } };
    const header = { "X-Q": null };
    const written = withContentParameters({ query, header, path: { id: 1 } }, content);
    expect(written).toEqual({ query: { filter: '{"a":[1,"b"]}', note: "as is", other: { k: 1 } }, header: { "X-Q": "null" }, path: { id: 1 } });
    expect(query.filter).toEqual({ a: [1, "b"] });
    expect(header["X-Q"]).toBeNull();
  });

  it("returns the parameters themselves when none is given", () => {
    const params = { query: { other: 1 } };
    expect(withContentParameters(params, content)).toBe(params);
    expect(withContentParameters({}, content)).toEqual({});
  });
});
