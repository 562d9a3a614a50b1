import { describe, expect, it } from "vitest";
import { ContractError } from "../../generator/common/errors.ts";
import { Warnings } from "../../generator/common/warnings.ts";

describe("Warnings", () => {
  it("says each kind once, with the first place and how many places", () => {
    const warnings = new Warnings();
    warnings.add("format:phone", "/components/schemas/A/properties/p", 'format "phone" is not checked');
    warnings.add("keyword:x-z", "/components/schemas/B", "x-z is an annotation");
    warnings.add("format:phone", "/components/schemas/C", 'format "phone" is not checked');
    expect(warnings.size).toBe(2);
    expect(warnings.lines("api.yaml")).toEqual([
      'api.yaml#/components/schemas/A/properties/p: format "phone" is not checked (2 places; the first is shown)',
      "api.yaml#/components/schemas/B: x-z is an annotation",
    ]);
  });

  it("becomes a located error under --strict", () => {
    const warnings = new Warnings();
    warnings.add("a", "/x", "first");
    warnings.add("b", "/y", "second");
    const error = warnings.toError("api.yaml");
    expect(error).toBeInstanceOf(ContractError);
    expect(error.message).toBe("api.yaml#/x: first (and 1 more kinds of warning); --strict makes warnings errors");
  });
});
