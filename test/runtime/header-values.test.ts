/**
 * Header parameters as the client writes them (templates/runtime/headers.ts): OpenAPI's `simple`
 * style, exploded or not, checked against the spec's table rather than against the code.
 */
import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../templates/runtime/errors.ts";
import { copyHeaders, headerValue } from "../../templates/runtime/headers.ts";

/**
 * OpenAPI 3.1.1's Style Examples table (§4.8.12.4), `simple` rows: `color` is "blue",
 * ["blue", "black", "brown"] or { R: 100, G: 200, B: 150 }; `undefined` (RFC 6570: an empty array
 * or object) is _empty_.
 */
describe("headerValue in OpenAPI's table", () => {
  it.each([
    [false, "", "blue", "blue,black,brown", "R,100,G,200,B,150"],
    [true, "", "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ])("simple, explode %s", (explode, undefinedColumn, stringColumn, arrayColumn, objectColumn) => {
    const write = (value: unknown) => headerValue("color", value, { explode });
    expect(write("blue")).toBe(stringColumn);
    expect(write(["blue", "black", "brown"])).toBe(arrayColumn);
    expect(write({ R: 100, G: 200, B: 150 })).toBe(objectColumn);
    expect(write([])).toBe(undefinedColumn);
    expect(write({})).toBe(undefinedColumn);
  });

  it("is not exploded without a style (OpenAPI's default)", () => {
    expect(headerValue("color", { R: 100, G: 200 }, undefined)).toBe("R,100,G,200");
  });

  it("writes primitives as text, as they are (a header is not part of a URL)", () => {
    expect(headerValue("h", 12345678901234567890n, undefined)).toBe("12345678901234567890");
    expect(headerValue("h", false, undefined)).toBe("false");
    expect(headerValue("h", ["a b", 1, true], undefined)).toBe("a b,1,true");
  });

  it("leaves out an object's properties that are undefined or null", () => {
    expect(headerValue("color", { R: 1, G: undefined, B: null }, { explode: true })).toBe("R=1");
  });

  it.each([[[["nested"]]], [[null]], [{ R: { r: 1 } }], [[() => 1]]])("refuses %o: items and properties are primitives", (value) => {
    let error: unknown;
    try {
      headerValue("color", value, { explode: false });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ message: 'header parameter "color" must hold only strings, numbers, bigints or booleans', field: "header.color" });
  });
});

describe("copyHeaders", () => {
  it("writes each header in its style, leaves out undefined and null, and the credentials' headers", () => {
    const into: Record<string, string> = {};
    copyHeaders({ list: ["a", "b"], point: { x: 1, y: 2 }, flat: { x: 1 }, n: 5, none: undefined, nil: null, authorization: "x" }, into, undefined, { point: { explode: true } });
    expect(into).toEqual({ list: "a,b", point: "x=1,y=2", flat: "x,1", n: "5" });
  });
});
