/** How the command says a run failed: one line for the user's mistakes, the stack for the generator's own. */
import { ContractError, EmitterError, UsageError } from "../common/errors.ts";

export function errorText(error: unknown): string {
  // A contract problem, a refused option or --out, a library's failure on the document: the user's to fix.
  if (error instanceof ContractError || error instanceof UsageError || error instanceof EmitterError) return `error: ${error.message}\n`;
  return `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`;
}
