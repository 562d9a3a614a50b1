/**
 * RFC 9651 list parsing (templates/runtime/structured-fields.ts) checked against every list case
 * of httpwg/structured-field-tests, read in place from the shared suites folder.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseStructuredList } from "../../templates/runtime/rate-limit.ts";
import type { StructuredBareItem, StructuredItem, StructuredListMember, StructuredParams } from "../../templates/runtime/rate-limit.ts";

const SUITE_DIR = path.resolve(import.meta.dirname, "../../../shared/suites/structured-field-tests");

interface SuiteCase {
  name: string;
  raw?: string[];
  header_type: "item" | "list" | "dictionary";
  expected?: unknown;
  must_fail?: boolean;
  can_fail?: boolean;
}

function loadListCases(): Array<{ id: string; test: SuiteCase }> {
  return readdirSync(SUITE_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) => {
      const tests = JSON.parse(readFileSync(path.join(SUITE_DIR, file), "utf8")) as SuiteCase[];
      return tests.filter((test) => test.header_type === "list").map((test) => ({ id: `${file}: ${test.name}`, test }));
    });
}

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 with padding, the suite's encoding of binary content. */
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let buffer = 0;
  let output = "";
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return output.padEnd(Math.ceil(output.length / 8) * 8, "=");
}

/** Our plain-data representation, converted to the suite's JSON encoding. */
function toSuiteBareItem(value: StructuredBareItem): unknown {
  if (typeof value !== "object") return value;
  if (value.type === "binary") return { __type: "binary", value: base32(value.value) };
  return { __type: value.type, value: value.value };
}

function toSuiteParams(params: StructuredParams): unknown {
  return Object.entries(params).map(([key, value]) => [key, toSuiteBareItem(value)]);
}

function toSuiteItem(item: StructuredItem): unknown {
  return [toSuiteBareItem(item.value), toSuiteParams(item.params)];
}

function toSuiteMember(member: StructuredListMember): unknown {
  if (Array.isArray(member.value)) return [member.value.map(toSuiteItem), toSuiteParams(member.params)];
  return toSuiteItem({ value: member.value, params: member.params });
}

describe("parseStructuredList conformance (httpwg/structured-field-tests)", () => {
  it("finds the suite next to the repository", () => {
    expect(existsSync(SUITE_DIR), SUITE_DIR).toBe(true);
  });

  // Guarded so that a missing suite fails the test above instead of the whole file's collection.
  const cases = existsSync(SUITE_DIR) ? loadListCases() : [];

  it("has the list cases of every top-level file (319 at the pinned commit)", () => {
    expect(cases.length).toBe(319);
  });

  // The runtime's own parser (structured-fields.ts) agrees with every list case: none is listed as a known disagreement.
  it.each(cases.map(({ id, test }) => [id, test] as const))("%s", (_id, test) => {
    const result = parseStructuredList((test.raw ?? []).join(", "));
    if (test.must_fail) {
      expect(result.ok).toBe(false);
    } else if (result.ok) {
      expect(result.members.map(toSuiteMember)).toEqual(test.expected);
    } else {
      expect(test.can_fail, `unexpected failure: ${result.reason}`).toBe(true);
    }
  });
});
