/** Dialects whose `$schema` (or a document's `jsonSchemaDialect`) the generator reads as they are: both mean JSON Schema 2020-12 here. */
export const ACCEPTED_DIALECTS: ReadonlySet<string> = new Set([
  "https://json-schema.org/draft/2020-12/schema",
  "https://spec.openapis.org/oas/3.1/dialect/base",
]);
