/**
 * The base class of every error the client throws, the kinds that tell them apart, and how each
 * class gets its name. The generated package exports the base class under a name of its own
 * (a client class `AcmeClient` exports it as `AcmeError`): the brand comes from the contract.
 */

export type ApiErrorKind =
  | "bad_request"
  | "authentication"
  | "permission_denied"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "rate_limit"
  | "server"
  | "unexpected_status"
  | "connection"
  | "timeout"
  | "aborted"
  | "invalid_request"
  | "invalid_response"
  | "response_too_large"
  | "job_failed"
  | "cost_limit";

/** The most of a body an error keeps (a raw body is read no further). */
export const MAX_RAW_BODY_BYTES = 64 * 1024;

/**
 * Names live on the prototype, set from string literals: class names do not
 * survive minifiers, and an own `name` property would clutter every inspection.
 */
export function nameClass(errorClass: { prototype: Error }, name: string): void {
  Object.defineProperty(errorClass.prototype, "name", { value: name, writable: true, configurable: true });
}

/** Base class of every error this client throws. */
export class SdkError extends Error {
  static {
    nameClass(this, "SdkError");
  }

  readonly kind: ApiErrorKind;

  constructor(kind: ApiErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}
