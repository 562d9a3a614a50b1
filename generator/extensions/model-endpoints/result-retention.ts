/**
 * `x-result-retention-seconds` on a submitting operation (`run`, `runsync`): how long the service
 * keeps a finished job's results, so that a job result can say until when it can be read again
 * and a poll after that is known for what it is. The one place that reads and checks it.
 */
import { ContractError } from "../../common/errors.ts";
import type { EndpointRole } from "./types.ts";

export function readResultRetention(operation: object, at: string, role: EndpointRole | undefined): number | undefined {
  const raw: unknown = (operation as Record<string, unknown>)["x-result-retention-seconds"];
  if (raw === undefined) return undefined;
  const where = `${at}/x-result-retention-seconds`;
  if (role !== "run" && role !== "runsync") {
    throw new ContractError(where, 'is only for the operation with x-model-endpoint-role "run" or "runsync" (the job is kept after the operation that made it)');
  }
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw < 1) throw new ContractError(where, "must be a positive whole number of seconds");
  return raw;
}
