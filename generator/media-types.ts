/**
 * Media types the generator treats as JSON: `application/json` and any `+json` structured suffix
 * (RFC 6839), such as `application/problem+json` or `application/vnd.api+json`. The runtime's
 * `templates/runtime/media-types.ts` applies the same rule to what it sends and reads.
 */
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/i;

export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA.test(mediaType);
}
