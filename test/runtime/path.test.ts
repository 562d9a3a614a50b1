import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../templates/runtime/errors.ts";
import { buildPath, encodePathParameter } from "../../templates/runtime/path.ts";

function refusal(run: () => unknown): InvalidRequestError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error("expected an InvalidRequestError");
}

describe("encodePathParameter", () => {
  it.each([
    ["i-123", "i-123"],
    ["a/b", "a%2Fb"],
    ["my instance", "my%20instance"],
    ["h100?x=1#f", "h100%3Fx%3D1%23f"],
    ["café-🚀", "caf%C3%A9-%F0%9F%9A%80"],
    ["100%", "100%25"],
    ["...", "..."],
    ["a..b", "a..b"],
    [42, "42"],
    [-1.5, "-1.5"],
    [0, "0"],
    [12345678901234567890n, "12345678901234567890"],
    [true, "true"],
    [false, "false"],
  ])("%o → %s", (value, encoded) => {
    expect(encodePathParameter("id", value)).toBe(encoded);
  });

  it.each([
    [undefined, 'path parameter "id" is required'],
    [null, 'path parameter "id" is required'],
    ["", 'path parameter "id" must not be empty'],
    [".", 'path parameter "id" must not be "."'],
    ["..", 'path parameter "id" must not be ".."'],
    [Number.NaN, 'path parameter "id" must be a finite number'],
    [Number.POSITIVE_INFINITY, 'path parameter "id" must be a finite number'],
    [{ toString: () => "x" }, 'path parameter "id" must hold only strings, numbers, bigints or booleans'],
    [[["a"]], 'path parameter "id" must hold only strings, numbers, bigints or booleans'],
    [[null], 'path parameter "id" must hold only strings, numbers, bigints or booleans'],
    [[1, Number.NaN], 'path parameter "id" must hold only finite numbers'],
    [[], 'path parameter "id" must not be an empty array in simple style'],
    [{}, 'path parameter "id" must not be an empty object in simple style'],
    [[""], 'path parameter "id" must not be written as an empty path segment'],
    [["."], 'path parameter "id" must not be written as the path segment "."'],
    [{ "..": undefined }, 'path parameter "id" must not be an empty object in simple style'],
    [Symbol("s"), 'path parameter "id" must be a string, number, bigint, boolean, array or object'],
    [() => "x", 'path parameter "id" must be a string, number, bigint, boolean, array or object'],
    ["\uD800", 'path parameter "id" must be well-formed Unicode'],
    [["\uD800"], 'path parameter "id" must be well-formed Unicode'],
    [{ "\uDC00": 1 }, 'path parameter "id" must be well-formed Unicode'],
  ])("refuses %o", (value, message) => {
    const error = refusal(() => encodePathParameter("id", value));
    expect(error.message).toBe(message);
    expect(error.field).toBe("path.id");
    expect(error.kind).toBe("invalid_request");
    expect(error.problems).toEqual([{ path: "path.id", message }]);
  });
});

describe("buildPath", () => {
  it("replaces every placeholder with its encoded value", () => {
    expect(buildPath("/v1/projects/{project}/instances/{id}", { project: "team a", id: "i/1" })).toBe(
      "/v1/projects/team%20a/instances/i%2F1",
    );
  });

  it("encodes a parameter used twice both times", () => {
    expect(buildPath("/{a}/x/{a}", { a: "é" })).toBe("/%C3%A9/x/%C3%A9");
  });

  it("refuses a missing parameter, naming it", () => {
    const error = refusal(() => buildPath("/v1/instances/{id}", {}));
    expect(error.message).toBe('path parameter "id" is required');
    expect(error.field).toBe("path.id");
  });

  it("does not take a parameter from the object prototype", () => {
    const error = refusal(() => buildPath("/v1/{constructor}", {}));
    expect(error.message).toBe('path parameter "constructor" is required');
    expect(error.field).toBe("path.constructor");
  });

  it("refuses dot segments that would change the addressed resource", () => {
    expect(refusal(() => buildPath("/v1/instances/{id}/stop", { id: ".." })).message).toBe('path parameter "id" must not be ".."');
  });

  it("leaves a template without placeholders unchanged", () => {
    expect(buildPath("/v1/instances", { id: "unused" })).toBe("/v1/instances");
  });
});

/**
 * OpenAPI 3.1.1's Style Examples table (§4.8.12.4), path rows: a parameter `color` that is "blue",
 * ["blue", "black", "brown"] or { R: 100, G: 200, B: 150 }, and the `undefined` column, which
 * RFC 6570 gives an empty array or object. The strings are the table's.
 */
describe("encodePathParameter in each style of OpenAPI's table", () => {
  const string = "blue";
  const array = ["blue", "black", "brown"];
  const object = { R: 100, G: 200, B: 150 };
  it.each([
    ["matrix", false, ";color", ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
    ["matrix", true, ";color", ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
    ["label", false, ".", ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
    ["label", true, ".", ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
    ["simple", false, "", "blue", "blue,black,brown", "R,100,G,200,B,150"],
    ["simple", true, "", "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ] as const)("%s, explode %s", (style, explode, undefinedColumn, stringColumn, arrayColumn, objectColumn) => {
    const write = (value: unknown) => encodePathParameter("color", value, { style, explode });
    expect(write(string)).toBe(stringColumn);
    expect(write(array)).toBe(arrayColumn);
    expect(write(object)).toBe(objectColumn);
    // An empty array or object is undefined in RFC 6570: its column, unless that is an empty or dot segment.
    if (style === "matrix") {
      expect(write([])).toBe(undefinedColumn);
      expect(write({})).toBe(undefinedColumn);
    } else {
      expect(() => write([])).toThrow(`path parameter "color" must not be an empty array in ${style} style`);
      expect(() => write({})).toThrow(`path parameter "color" must not be an empty object in ${style} style`);
    }
  });

  it.each([
    [{ style: "simple", explode: false }, "a%2Fb,c%3Bd,e%3Df,g%2Ch", "k%2F1,v%3F%23,k%2C2,v%3D"],
    [{ style: "simple", explode: true }, "a%2Fb,c%3Bd,e%3Df,g%2Ch", "k%2F1=v%3F%23,k%2C2=v%3D"],
    [{ style: "label", explode: false }, ".a%2Fb,c%3Bd,e%3Df,g%2Ch", ".k%2F1,v%3F%23,k%2C2,v%3D"],
    [{ style: "label", explode: true }, ".a%2Fb.c%3Bd.e%3Df.g%2Ch", ".k%2F1=v%3F%23.k%2C2=v%3D"],
    [{ style: "matrix", explode: false }, ";color=a%2Fb,c%3Bd,e%3Df,g%2Ch", ";color=k%2F1,v%3F%23,k%2C2,v%3D"],
    [{ style: "matrix", explode: true }, ";color=a%2Fb;color=c%3Bd;color=e%3Df;color=g%2Ch", ";k%2F1=v%3F%23;k%2C2=v%3D"],
  ] as const)("percent-encodes every item, key and value in %o, so none reads as a delimiter", (style, arrayWritten, objectWritten) => {
    expect(encodePathParameter("color", ["a/b", "c;d", "e=f", "g,h"], style)).toBe(arrayWritten);
    expect(encodePathParameter("color", { "k/1": "v?#", "k,2": "v=" }, style)).toBe(objectWritten);
  });

  it("percent-encodes a matrix parameter's name", () => {
    expect(encodePathParameter("a b;c", "x", { style: "matrix", explode: false })).toBe(";a%20b%3Bc=x");
  });

  it("writes empty values as RFC 6570 does: `;name` in matrix style, nothing after a label's dot", () => {
    expect(encodePathParameter("color", "", { style: "matrix", explode: false })).toBe(";color");
    expect(encodePathParameter("color", ["", "b"], { style: "matrix", explode: true })).toBe(";color;color=b");
    expect(encodePathParameter("color", { R: "", G: 1 }, { style: "matrix", explode: true })).toBe(";R;G=1");
    expect(encodePathParameter("color", ["", "b"], { style: "label", explode: true })).toBe("..b");
  });

  it("leaves out an object's properties that are undefined or null", () => {
    expect(encodePathParameter("color", { R: 1, G: undefined, B: null }, { style: "simple", explode: true })).toBe("R=1");
  });

  it.each([
    [{ style: "label", explode: false }, "", 'must not be "": label style writes it as the path segment "."'],
    [{ style: "label", explode: true }, ".", 'must not be ".": label style writes it as the path segment ".."'],
    [{ style: "label", explode: false }, [""], 'must not be written as the path segment "."'],
    [{ style: "label", explode: true }, ["."], 'must not be written as the path segment ".."'],
    [{ style: "simple", explode: true }, [".."], 'must not be written as the path segment ".."'],
    [{ style: "label", explode: false }, undefined, "is required"],
    [{ style: "matrix", explode: false }, null, "is required"],
  ] as const)("refuses what would empty or climb the path, in %o: %o", (style, value, reason) => {
    const error = refusal(() => encodePathParameter("color", value, style));
    expect(error.message).toBe(`path parameter "color" ${reason}`);
    expect(error.field).toBe("path.color");
  });
});

describe("buildPath with styles", () => {
  it("writes each parameter in its own style, the others in simple", () => {
    const styles = { m: { style: "matrix", explode: true }, l: { style: "label", explode: false } } as const;
    expect(buildPath("/a/{m}/b/{l}/c/{s}", { m: ["x", "y"], l: { k: "v" }, s: ["1", "2"] }, styles)).toBe("/a/;m=x;m=y/b/.k,v/c/1,2");
  });

  it("does not take a style from the object prototype", () => {
    expect(buildPath("/a/{constructor}", { constructor: "x" }, {})).toBe("/a/x");
  });
});
