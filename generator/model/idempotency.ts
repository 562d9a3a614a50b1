/**
 * An operation's idempotency header: the header parameter a server reads a key from so that a
 * request sent twice does its work once (`Idempotency-Key`, Stripe's and the IETF draft's name).
 * A client that sends one key per call may retry that call like a GET. Recognised by name, or
 * named by the operation's `x-idempotency-key` (a header parameter's name, or `false`: none).
 */
import { ContractError } from "../common/errors.ts";
import type { Warnings } from "../common/warnings.ts";
import type { ParameterModel } from "./types.ts";

/** The names servers read such a key from: `Idempotency-Key`, `X-Idempotency-Key`, `Idempotency_Key`, `IdempotencyKey`, in any case. */
const IDEMPOTENCY_HEADER = /^(x-)?idempotency[-_]?key$/i;

export const IDEMPOTENCY_EXTENSION = "x-idempotency-key";

/**
 * The name (as the contract writes it) of the header parameter of `parameters` that carries the
 * operation's idempotency key, or undefined when it has none.
 */
export function readIdempotencyHeader(operation: object, parameters: readonly ParameterModel[], at: string, warnings: Warnings | undefined): string | undefined {
  const headers = parameters.filter((parameter) => parameter.in === "header");
  const named: unknown = (operation as Record<string, unknown>)[IDEMPOTENCY_EXTENSION];
  const where = `${at}/${IDEMPOTENCY_EXTENSION}`;
  if (named === false) return undefined;
  if (named !== undefined) {
    if (typeof named !== "string" || named === "") throw new ContractError(where, "must name a header parameter of the operation (its idempotency key), or be false (none)");
    const parameter = headers.find((p) => p.name.toLowerCase() === named.toLowerCase());
    if (parameter === undefined) throw new ContractError(where, `names ${JSON.stringify(named)}, which is not a header parameter of this operation`);
    return parameter.name;
  }
  const recognised = headers.filter((parameter) => IDEMPOTENCY_HEADER.test(parameter.name));
  if (recognised.length > 1) {
    warnings?.add(
      "idempotency:several",
      at,
      `header parameters ${recognised.map((p) => p.name).join(" and ")} are each an idempotency key by name: the client sends ${recognised[0]!.name} (name the one with ${IDEMPOTENCY_EXTENSION})`,
    );
  }
  return recognised[0]?.name;
}
