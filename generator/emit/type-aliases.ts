/**
 * `src/types.ts`: a short exported name for every component schema (`Pod` for
 * `components["schemas"]["Pod"]`), so users import types by name.
 */
import type { ApiModel } from "../model/index.ts";
import { code, raw } from "./code.ts";
import { importStatement, moduleText } from "./typescript.ts";

export function emitTypeAliases(api: ApiModel): string {
  const aliases = api.schemaNames.map((schema, index) => code`export type ${raw(api.names.schemaAliases[index]!)} = components["schemas"][${schema}];`);
  return moduleText([[importStatement({ from: "./schema.js", typeOnly: true, names: ["components"] })], aliases]);
}
