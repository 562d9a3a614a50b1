/**
 * A problem in the contract, located by a JSON pointer (RFC 6901) into the file
 * that holds it. The CLI prints `message` as is, never a stack trace.
 */
export class ContractError extends Error {
  /** The problem without the location prefix, for callers that format locations themselves. */
  readonly reason: string;

  constructor(
    readonly pointer: string,
    message: string,
    readonly file?: string,
  ) {
    super(`${file ?? ""}#${pointer}: ${message}`);
    this.name = "ContractError";
    this.reason = message;
  }
}

/**
 * A refusal about how the generator was asked to run (an output folder holding other files, a
 * path that is not a folder), not a bug: the CLI prints `message` as is, never a stack trace.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * A library the generator runs failed on the document (openapi-typescript, in its worker thread)
 * without saying where: one line for the CLI, not a stack trace; the original stays the `cause`.
 */
export class EmitterError extends Error {
  override readonly name = "EmitterError";
}
