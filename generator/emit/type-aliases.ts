/**
 * `src/types.ts`: a short exported name for every component schema (`Pod` for
 * `components["schemas"]["Pod"]`), so users import types by name.
 */
import { pointer } from "../common/json-pointer.ts";
import type { ApiModel } from "../model/index.ts";
import { code, raw } from "./code.ts";
import { importStatement, moduleText } from "./typescript.ts";

export function emitTypeAliases(api: ApiModel): string {
  const marked = api.schemaNames.map((schema) => api.markedSchemas.has(pointer("components", "schemas", schema)));
  const aliases = api.schemaNames.map((schema, index) => {
    const type = code`components["schemas"][${schema}]`;
    // A schema with read-only or write-only properties, as written: the operations' types are its views.
    return code`export type ${raw(api.names.schemaAliases[index]!)} = ${marked[index] ? code`AsWritten<${type}>` : type};`;
  });
  return moduleText([[importStatement({ from: "./schema.js", typeOnly: true, names: ["components", ...(marked.includes(true) ? ["AsWritten"] : [])] })], aliases]);
}
