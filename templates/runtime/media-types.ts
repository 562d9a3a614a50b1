/**
 * Media types the client treats as JSON: `application/json` and any `+json` structured suffix
 * (RFC 6839), such as `application/problem+json`. The generator's `generator/media-types.ts`
 * states the same rule for what it emits.
 */
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/i;

export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA.test(mediaType);
}
