/**
 * The changes from one contract to the next, as a user of the generated TypeScript package sees
 * them, each classified:
 *
 * - major: a removed operation, parameter, request body, success response, property, enum value,
 *   model, schema (each schema is an exported type) or server option; a new required input
 *   (parameter, request body, request property); an input that became required; a narrowed type
 *   (string → enum, number → integer, a type removed, `const` added), tighter bounds on an input
 *   (minimum, maxLength, pattern…); a response field that may now be absent or has a wider type;
 *   a renamed package or key variable; anything this tool cannot classify (to be safe).
 * - minor: a new operation, optional parameter, optional request property, response field,
 *   enum value, model, schema or server; an input that became optional or wider; a moved
 *   operation, a new default server URL, a deprecation, changed defaults.
 * - patch: descriptions, summaries, titles, examples, tags, `info`, pricing data and other
 *   documentation.
 */
import type { LoadedContract } from "../../../generator/load/contract.ts";
import { buildModel } from "../../../generator/model/index.ts";
import type { ContractChange } from "../semver.ts";
import { ChangeList, type DiffContext, type Direction } from "./context.ts";
import { diffInfo, diffModels, diffRest, diffSdk, diffServers } from "./document.ts";
import { diffOperations } from "./operations.ts";
import { SchemaDiff } from "./schemas.ts";
import { collectUsage } from "./usage.ts";

/** Every change, most severe first, then by pointer and message. */
export function diffContracts(base: LoadedContract, head: LoadedContract): ContractChange[] {
  const changes = new ChangeList();
  const cx: DiffContext = { base, head, baseModel: buildModel(base), headModel: buildModel(head), add: (bump, at, message) => changes.add(bump, at, message) };
  const usage = new Map<string, Set<Direction>>();
  collectUsage(base, cx.baseModel, usage);
  collectUsage(head, cx.headModel, usage);
  // The order matters where two parts reach the same schema: the first comparison of a pair of
  // pointers is the one kept, and the first change at a pointer with a message is the one listed.
  const schemas = new SchemaDiff(cx, usage);
  diffSdk(cx);
  diffInfo(cx);
  diffServers(cx);
  diffOperations(cx, schemas);
  schemas.components();
  diffModels(cx);
  diffRest(cx);
  return changes.sorted();
}
