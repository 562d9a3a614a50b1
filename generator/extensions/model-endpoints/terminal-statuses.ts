/**
 * `x-terminal-statuses` on the job's schema: the statuses that end a wait, each a success or a
 * failure; any other status means the job is still going.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { TerminalStatuses } from "./types.ts";

/** The first schema's `x-terminal-statuses`, checked; undefined when no schema has them. */
export function readTerminalStatuses(contract: LoadedContract): TerminalStatuses | undefined {
  for (const [name, schema] of Object.entries<any>(contract.document.components?.schemas ?? {})) {
    const terminal = schema?.["x-terminal-statuses"];
    if (terminal === undefined) continue;
    if (typeof terminal !== "object" || terminal === null || Array.isArray(terminal)) {
      throw new ContractError(pointer("components", "schemas", name, "x-terminal-statuses"), 'must be an object mapping each status to "success" or "failure"');
    }
    for (const [status, outcome] of Object.entries<any>(terminal)) {
      // The statuses become an object literal of the package, where this key would set its prototype.
      if (status === "__proto__") throw new ContractError(pointer("components", "schemas", name, "x-terminal-statuses", status), "a status named __proto__ cannot be emitted as data");
      if (outcome !== "success" && outcome !== "failure") {
        throw new ContractError(pointer("components", "schemas", name, "x-terminal-statuses", status), `must be "success" or "failure", not ${JSON.stringify(outcome)}`);
      }
    }
    return terminal;
  }
  return undefined;
}
