import { describe, expect, it } from "vitest";
import { crash, refusalLine } from "../../bench/corpus-measure.ts";
import type { ChildResult } from "../../bench/lib.ts";

function child(stderr: string, code: number | null, timedOut = false): ChildResult {
  return { code, signal: code === null ? (timedOut ? "SIGKILL" : "SIGABRT") : null, timedOut, stdout: "", stderr, wallMs: 1 };
}

describe("why a step gave no figures", () => {
  it("names a heap exhaustion, with the default heap's size, before anything else", () => {
    const stderr = "<--- Last few GCs --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb090e0 node::Abort() [node]\n";
    expect(crash(child(stderr, null), 180_000, 4144)).toBe("heap exhausted (default heap, 4144 MiB)");
  });

  it("names a timeout", () => {
    expect(crash(child("", null, true), 180_000, 4144)).toBe("timed out after 180 s");
  });

  it("otherwise gives the exit code or signal and the last line", () => {
    expect(crash(child("warning: x\nTypeError: boom\n    at f (a.js:1:1)\n", 1), 180_000, 4144)).toBe("crashed (exit 1): at f (a.js:1:1)");
    expect(crash({ ...child("", null), signal: "SIGKILL" }, 180_000, 4144)).toBe("crashed (SIGKILL): ");
  });
});

describe("the refusal's first line", () => {
  it("is the generator's error line, warnings left out", () => {
    expect(refusalLine('warning: #/paths: something\nerror: #/components/schemas/A: "$recursiveAnchor" is not supported\n')).toBe('#/components/schemas/A: "$recursiveAnchor" is not supported');
  });

  it("is openapi-typescript's ✘ line", () => {
    expect(refusalLine("✨ openapi-typescript 7.13.0\n \u001b[31m✘  Can't resolve $ref at #/paths/~1a\u001b[39m\nfile:///x/redoc.mjs:74\nError: Can't resolve $ref\n")).toBe("Can't resolve $ref at #/paths/~1a");
  });

  it("falls back to the last line", () => {
    expect(refusalLine("first\nlast\n")).toBe("last");
  });
});
