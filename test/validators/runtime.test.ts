/**
 * The hand-written helpers of `templates/runtime/validation.ts` and the format checkers of
 * `formats.ts` (also run against the JSON-Schema-Test-Suite by the conformance test).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cloneJson,
  collapseIssues,
  countProperties,
  decimalMultiple,
  deepEqual,
  duplicatePair,
  escapeSegment,
  formatIssues,
  own,
  setOwn,
  ucs2length,
  type ValidationIssue,
} from "../../templates/runtime/validation.ts";
import { URI_PATTERN, URI_REFERENCE_PATTERN, validDate, validDateTime, validEmail, validUri, validUriReference, validUuid } from "../../templates/runtime/formats.ts";

describe("decimalMultiple", () => {
  it.each([
    { value: 0.3, divisor: 0.1, want: true },
    { value: 0.0075, divisor: 0.0001, want: true },
    { value: 19.99, divisor: 0.01, want: true },
    { value: 4.5, divisor: 1.5, want: true },
    { value: -0.6, divisor: 0.2, want: true },
    { value: 1e308, divisor: 0.5, want: true },
    { value: 1e-7, divisor: 1e-8, want: true },
    { value: 0.35, divisor: 0.1, want: false },
    { value: 7, divisor: 0.3, want: false },
    { value: 0.00751, divisor: 0.0001, want: false },
    { value: 1e308, divisor: 0.123456789, want: false },
    { value: 12, divisor: 4, want: true },
    { value: 13, divisor: 4, want: false },
    // Past 2^53 the value is its decimal text: 10^24 mod 7 = 1 though the double 1e24 is a multiple of 7.
    { value: 1e24, divisor: 7, want: false },
    { value: 1e300, divisor: 3, want: false },
    { value: 1e300, divisor: 1.5, want: false },
    { value: 1e23, divisor: 1e21, want: true },
    { value: 3e20, divisor: 3, want: true },
  ])("$value multipleOf $divisor is $want", ({ value, divisor, want }) => {
    expect(decimalMultiple(value, divisor)).toBe(want);
  });
});

describe("equality and uniqueness", () => {
  it("compares JSON values", () => {
    expect(deepEqual({ a: [1, { b: null }] }, { a: [1.0, { b: null }] })).toBe(true);
    expect(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([0], [false])).toBe(false);
    expect(deepEqual({}, [])).toBe(false);
    expect(deepEqual(Object.create(null), {})).toBe(true);
  });

  it("finds the first duplicate pair, small and large arrays", () => {
    expect(duplicatePair([1, "1", true, [1], { a: 1 }])).toBeUndefined();
    expect(duplicatePair([{ a: 1, b: [2] }, 3, { b: [2], a: 1 }])).toEqual([0, 2]);
    const large = Array.from({ length: 100 }, (_, i) => ({ i }));
    expect(duplicatePair(large)).toBeUndefined();
    large.push({ i: 42 });
    expect(duplicatePair(large)).toEqual([42, 100]);
    expect(duplicatePair([...Array.from({ length: 30 }, (_, i) => i), "5", 5])).toEqual([5, 31]);
  });
});

describe("strings and objects", () => {
  it("counts code points", () => {
    expect(ucs2length("")).toBe(0);
    expect(ucs2length("abc")).toBe(3);
    expect(ucs2length("😀a😀")).toBe(3);
    expect(ucs2length("\ud800")).toBe(1);
    expect(ucs2length("\ud800\ud800")).toBe(2);
    expect(ucs2length("\udc00\ud800")).toBe(2);
  });

  it("escapes JSON pointer segments", () => {
    expect(escapeSegment("plain")).toBe("plain");
    expect(escapeSegment("a/b~c")).toBe("a~1b~0c");
  });

  it("reads and writes own properties only", () => {
    expect(own({}, "constructor")).toBeUndefined();
    expect(own({ constructor: 1 }, "constructor")).toBe(1);
    const target: Record<string, unknown> = {};
    setOwn(target, "__proto__", { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(["__proto__"]);
    expect(countProperties(target)).toBe(1);
  });

  it("copies JSON deeply, keeping __proto__ as data", () => {
    const original = JSON.parse('{"a": [{"b": 1}], "__proto__": {"x": 1}}');
    const copy = cloneJson(original);
    expect(copy).toEqual(original);
    expect(copy.a[0]).not.toBe(original.a[0]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
  });
});

describe("formats", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["1900-02-29", false],
    ["2000-02-29", true],
    ["2024-04-31", false],
    ["2024-4-01", false],
  ])("date %s is %s", (text, want) => expect(validDate(text)).toBe(want));

  it.each([
    ["2026-06-01T12:00:00Z", true],
    ["2026-06-01t12:00:00.123456z", true],
    ["2026-06-01T12:00:00+05:30", true],
    ["2026-06-01T12:00:00", false],
    ["2026-06-01T12:00:00.Z", false],
    ["2026-06-01 12:00:00Z", false],
    ["2026-06-01T23:59:60Z", true],
    ["2026-06-02T01:29:60+01:30", true],
    ["2026-06-01T23:59:60+01:00", false],
  ])("date-time %s is %s", (text, want) => expect(validDateTime(text)).toBe(want));

  it.each([
    ["https://files.example-gpu.cloud/outputs/6c1b3a9e.mp4", true],
    ["urn:isbn:0451450523", true],
    ["http://[2001:db8::7]:8080/p?q#f", true],
    ["relative/path", false],
    ["https://example.org/a b", false],
    ["https://example.org/%zz", false],
  ])("uri %s is %s", (text, want) => expect(validUri(text)).toBe(want));

  it("uri, uri-reference: the fast scans accept exactly what the RFC 3986 grammar does", () => {
    const pieces = ["./", "../", "x:", "http", "https", "urn", "a", "Z9", "+", "-", ".", ":", "/", "//", "?", "#", "@", "[", "]", "::1", "[::1]", "[v1.x]", "[::ffff:1.2.3.4]", "%", "%2F", "%zz", "%a", "~", "'", "(", ")", ",", ";", "=", "!", "$", "&", "*", "127.0.0.1", ":80", ":x", " ", "é", "\\", "{", "|"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect([text, validUri(text), validUriReference(text)]).toEqual([text, URI_PATTERN.test(text), URI_REFERENCE_PATTERN.test(text)]);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    ["x@example.org", true],
    ['"a b"@example.org', true],
    ["x@[IPv6:2001:db8::1]", true],
    ["x@-example.org", false],
    ["x@example..org", false],
    ["x.@example.org", false],
  ])("email %s is %s", (text, want) => expect(validEmail(text)).toBe(want));

  it("uuid", () => {
    expect(validUuid("6c1b3a9e-2d4f-4e8a-b7c5-91f0d2e3a4b5")).toBe(true);
    expect(validUuid("6c1b3a9e-2d4f-4e8a-b7c5-91f0d2e3a4b5-u1")).toBe(false);
  });
});

describe("reporting", () => {
  const issues: ValidationIssue[] = [
    { path: "", keyword: "required", message: 'must have required property "image"', schemaPath: "/components/schemas/ImageToVideoInput/required" },
    { path: "/duration", keyword: "enum", message: "must be one of 5, 10, 15", schemaPath: "/components/schemas/ImageToVideoInput/properties/duration/enum" },
  ];

  it("formats issues one per line", () => {
    expect(formatIssues(issues)).toBe('2 validation issues:\n  (root): must have required property "image"\n  /duration: must be one of 5, 10, 15');
    expect(formatIssues(issues.slice(0, 1))).toBe('1 validation issue:\n  (root): must have required property "image"');
    expect(formatIssues([])).toBe("no validation issues");
  });

  it("collapses sub-issues into one", () => {
    const list: ValidationIssue[] = [issues[0] as ValidationIssue, { path: "", keyword: "maxLength", message: "too long", schemaPath: "/x" }, { path: "", keyword: "pattern", message: "bad", schemaPath: "/y" }];
    collapseIssues(list, 1, "/o", "propertyNames", 'property name "k" is invalid', "/s", "/propertyNames");
    expect(list).toEqual([issues[0], { path: "/o", keyword: "propertyNames", message: 'property name "k" is invalid: too long; bad', schemaPath: "/s/propertyNames" }]);
  });
});
