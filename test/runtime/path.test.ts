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
    [{ toString: () => "x" }, 'path parameter "id" must be a string, number, bigint or boolean'],
    [["a"], 'path parameter "id" must be a string, number, bigint or boolean'],
    [Symbol("s"), 'path parameter "id" must be a string, number, bigint or boolean'],
    ["\uD800", 'path parameter "id" must be well-formed Unicode'],
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
