import { describe, expect, it } from "vitest";
import { isJsonMediaType as generatorRule } from "../../generator/media-types.ts";
import { isJsonMediaType } from "../../templates/runtime/media-types.ts";

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
