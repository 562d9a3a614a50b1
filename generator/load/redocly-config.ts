/**
 * Redocly's settings for every pass over the contract (the load stage's lint and bundle, and the
 * Redocly inside openapi-typescript). An example value is literal data (OpenAPI: "embedded literal
 * example"), so a `$ref` member inside one is never followed, bundled or reported: Redocly follows
 * them unless told not to.
 */
export const REDOCLY_CONFIG = { resolve: { doNotResolveExamples: true } } as const;
