/**
 * How long `runsync` asks the service to hold it (the contract's `x-server-wait` parameter): the
 * call's timeout less a margin, within the contract's limits, so an unfinished job comes back with
 * its id rather than being cut off by the timeout.
 */
import { ClientCore } from "../client-core.js";
import type { RequestOptions } from "../client-core.js";
import { checkNumber } from "../option-checks.js";

/** Options of a call the server may hold open (`runsync`): how long it may wait before answering. */
export interface ServerWaitOptions extends RequestOptions {
  /**
   * How long the server may hold the request, in milliseconds. Default: the request's timeout less
   * 5 s, within the limits the contract gives, so an unfinished job comes back with its id rather
   * than being cut off by the timeout.
   */
  waitMs?: number | undefined;
}

/** Room between the server's wait and the request's timeout for the answer to arrive. */
export const SERVER_WAIT_MARGIN_MS = 5_000;

/**
 * The wait to ask the server for: `options.waitMs`, or the call's timeout (the client's by
 * default) less the margin, kept within [minimum, maximum]; without a timeout, the maximum.
 */
export function serverWaitMs(client: ClientCore, options: ServerWaitOptions | undefined, minimum: number, maximum: number): number {
  checkNumber("waitMs", options?.waitMs, { unit: "milliseconds", min: 0 });
  if (options?.waitMs !== undefined) return options.waitMs;
  const timeout = ClientCore.timeoutOf(client, options);
  const wait = timeout > 0 ? Math.floor(timeout - SERVER_WAIT_MARGIN_MS) : maximum;
  return Math.min(maximum, Math.max(minimum, wait));
}
