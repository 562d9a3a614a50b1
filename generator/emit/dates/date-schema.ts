/**
 * Which schemas are dates (`--dates date`): one test, shared by the types (`Date` in
 * `src/schema.ts`) and the conversion plans (`plan.ts`), so what a type promises is what the
 * runtime converts.
 */
export type DateFormat = "date-time" | "date";

/**
 * The format of a string schema that `--dates date` makes a `Date`: `type` `string` (or a list
 * holding it) and `format` `date-time` or `date`; an `enum` or `const` keeps its literal strings.
 * openapi-typescript asks once per member of a list of types, so for the types the list is never
 * a date (its `string` member is).
 */
export function dateFormatOf(schema: unknown, { typeList = false }: { typeList?: boolean } = {}): DateFormat | undefined {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return undefined;
  const { type, format } = schema as { type?: unknown; format?: unknown };
  const string = type === "string" || (typeList && Array.isArray(type) && type.includes("string"));
  if (!string || (format !== "date-time" && format !== "date")) return undefined;
  if (Array.isArray((schema as { enum?: unknown }).enum) || ((schema as { const?: unknown }).const ?? null) !== null) return undefined;
  return format;
}
