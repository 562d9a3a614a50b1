import { describe, expect, it } from "vitest";
import { escapeSegment, fieldPath, unescapeSegment } from "../../templates/runtime/json-pointer.ts";
import * as validation from "../../templates/runtime/validation.ts";

describe("JSON pointer segments", () => {
  it("escape ~ and / (RFC 6901), leaving other names as they are", () => {
    expect(escapeSegment("a/b~c")).toBe("a~1b~0c");
    expect(escapeSegment("~1")).toBe("~01");
    expect(escapeSegment("plain")).toBe("plain");
  });

  it("unescape in the order RFC 6901 §4 gives: ~01 is ~1, not /", () => {
    expect(unescapeSegment("~01")).toBe("~1");
    expect(unescapeSegment("a~1b~0c")).toBe("a/b~c");
    for (const name of ["a/b~c", "~1", "~0/~", "", "é/ü"]) expect(unescapeSegment(escapeSegment(name))).toBe(name);
  });

  it("have one home: the validators' runtime hands on the same function", () => {
    expect(validation.escapeSegment).toBe(escapeSegment);
  });
});

describe("fieldPath", () => {
  it("turns a pointer into a dotted field path after its prefix, escapes undone", () => {
    expect(fieldPath("body", "/input/duration")).toBe("body.input.duration");
    expect(fieldPath("input", "/a~1b/~01")).toBe("input.a/b.~1");
    expect(fieldPath("", "/pods/3")).toBe("pods.3");
    expect(fieldPath("body", "")).toBe("body");
  });
});
