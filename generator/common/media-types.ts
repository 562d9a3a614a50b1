/**
 * How the generator reads a media type. JSON is `application/json` and any `+json` structured suffix
 * (RFC 6839), such as `application/problem+json` or `application/vnd.api+json`. The runtime's
 * `templates/runtime/media-types.ts` applies the same rules to what it sends and reads.
 */
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/i;

export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA.test(mediaType);
}

/**
 * What a body of this media type is to the client: JSON (serialised), text (a string), a form
 * (URL-encoded fields), multipart (FormData), or anything else: bytes the caller gives, sent as they
 * are. Parameters (`; charset=utf-8`) do not change the kind.
 */
export type MediaTypeKind = "json" | "text" | "form" | "multipart" | "binary";

export function mediaTypeKind(mediaType: string): MediaTypeKind {
  const essence = mediaType.split(";", 1)[0]!.trim().toLowerCase();
  if (isJsonMediaType(essence)) return "json";
  if (essence === "application/x-www-form-urlencoded") return "form";
  if (essence === "multipart/form-data") return "multipart";
  if (essence.startsWith("text/")) return "text";
  return "binary";
}
