import { describe, expect, it } from "vitest";
import { SdkError } from "../../templates/runtime/error-base.ts";
import { AbortedError, ConnectionError, InvalidRequestError, ResponseTooLargeError, TimeoutError } from "../../templates/runtime/errors.ts";
import { ApiError, AuthenticationError, BadRequestError, ConflictError, NotFoundError, PermissionDeniedError, RateLimitError, ServerError, UnexpectedStatusError, UnprocessableEntityError } from "../../templates/runtime/api-errors.ts";
import type { ApiErrorInit } from "../../templates/runtime/api-errors.ts";

describe("errors without a response", () => {
  const target = { method: "POST", url: "https://api.example.com/v1/instances?dry_run=1" };

  it("ConnectionError keeps only a sanitised cause", () => {
    const error = new ConnectionError({ ...target, cause: { name: "Error", message: "connect ECONNREFUSED 10.0.0.1:443", code: "ECONNREFUSED" } });
    expect(error).toMatchObject({ kind: "connection", name: "ConnectionError", ...target });
    expect(error.message).toBe("POST /v1/instances failed: connect ECONNREFUSED 10.0.0.1:443");
    expect(error.toJSON()).toMatchObject({ cause: { name: "Error", message: "connect ECONNREFUSED 10.0.0.1:443", code: "ECONNREFUSED" } });
    const reset = new ConnectionError({ ...target, cause: { name: "SocketError", message: "other side closed", code: "UND_ERR_SOCKET" } });
    expect(reset.message).toBe("POST /v1/instances failed: other side closed (UND_ERR_SOCKET)");
  });

  it("ResponseTooLargeError says which limit the body passed", () => {
    const error = new ResponseTooLargeError({ ...target, status: 200, maxResponseBytes: 1024 });
    expect(error).toMatchObject({ kind: "response_too_large", name: "ResponseTooLargeError", status: 200, maxResponseBytes: 1024 });
    expect(error.message).toBe("POST /v1/instances returned 200 with a body over maxResponseBytes (1024 bytes): the rest was not read");
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: "ResponseTooLargeError", kind: "response_too_large", message: error.message, status: 200, ...target, maxResponseBytes: 1024 });
  });

  it("TimeoutError, AbortedError and InvalidRequestError carry their data", () => {
    expect(new TimeoutError({ ...target, timeoutMs: 1500 })).toMatchObject({
      kind: "timeout",
      name: "TimeoutError",
      timeoutMs: 1500,
      message: "POST /v1/instances timed out after 1500 ms",
    });
    const aborted = new AbortedError({ ...target, reason: new Error("user navigated away") });
    expect(aborted).toMatchObject({ kind: "aborted", name: "AbortedError", reason: "user navigated away" });
    expect(aborted.message).toBe("POST /v1/instances aborted: user navigated away");
    expect(JSON.parse(JSON.stringify(aborted))).toMatchObject({ reason: "user navigated away", url: target.url });
    const invalid = new InvalidRequestError('path parameter "id" must not be ".."', { field: "path.id" });
    expect(invalid).toMatchObject({
      kind: "invalid_request",
      name: "InvalidRequestError",
      field: "path.id",
      problems: [{ path: "path.id", message: 'path parameter "id" must not be ".."' }],
    });
  });
});

describe("the classes chosen by status", () => {
  const init: ApiErrorInit = { message: "GET /v1/x failed with 404", status: 404, rawBody: "", headers: {}, method: "GET", url: "https://api.example.com/v1/x" };

  it.each([
    [BadRequestError, "bad_request"],
    [AuthenticationError, "authentication"],
    [PermissionDeniedError, "permission_denied"],
    [NotFoundError, "not_found"],
    [ConflictError, "conflict"],
    [UnprocessableEntityError, "unprocessable"],
    [RateLimitError, "rate_limit"],
    [ServerError, "server"],
    [UnexpectedStatusError, "unexpected_status"],
  ] as const)("%o takes its name and kind from its class", (errorClass, kind) => {
    const error = new errorClass(init);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.kind).toBe(kind);
    expect(error.name).toBe(errorClass.name);
    expect(Object.getPrototypeOf(errorClass)).toBe(ApiError);
    // The kind is the error's own data; the class keeps nothing else visible.
    expect(Object.keys(error)[0]).toBe("kind");
    expect(Object.getOwnPropertyNames(errorClass.prototype).sort()).toEqual(errorClass === RateLimitError || errorClass === ServerError ? ["constructor", "name", "toJSON"] : ["constructor", "name"]);
  });

  it("keeps the kind an ApiError is given, and gives a plain one unexpected_status", () => {
    expect(new ApiError("server", init).kind).toBe("server");
    expect(new ApiError(init).kind).toBe("unexpected_status");
    expect(new ApiError(init).name).toBe("ApiError");
  });

  it("passes a class's kind on to its subclasses", () => {
    class GoneError extends NotFoundError {}
    expect(new GoneError(init)).toMatchObject({ kind: "not_found", name: "NotFoundError" });
  });
});
