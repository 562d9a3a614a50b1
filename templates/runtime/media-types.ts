/**
 * How the client reads a media type. JSON is `application/json` and any `+json` structured suffix
 * (RFC 6839), such as `application/problem+json`. The generator's `generator/common/media-types.ts`
 * states the same rules for what it emits.
 */
import type { ContentParameters, OperationParams, ParameterLocation } from "./operation-spec.js";

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/i;

export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA.test(mediaType);
}

/**
 * What a body of this media type is: JSON (serialised), text (a string), a form (URL-encoded
 * fields), multipart (FormData), or anything else: bytes the caller gives, sent as they are.
 * Parameters (`; charset=utf-8`) do not change the kind.
 */
export type MediaTypeKind = "json" | "text" | "form" | "multipart" | "binary";

export function mediaTypeKind(mediaType: string): MediaTypeKind {
  const essence = (mediaType.split(";", 1)[0] as string).trim().toLowerCase();
  if (isJsonMediaType(essence)) return "json";
  if (essence === "application/x-www-form-urlencoded") return "form";
  if (essence === "multipart/form-data") return "multipart";
  if (essence.startsWith("text/")) return "text";
  return "binary";
}

/**
 * The Content-Type to send a body of this media type with: none for multipart (fetch writes it, with
 * the boundary); for a media range such as `image/*`, which names no type, a Blob's own type, else
 * `application/octet-stream`.
 */
export function requestContentType(mediaType: string, body: unknown): string | undefined {
  if (mediaTypeKind(mediaType) === "multipart") return undefined;
  if (!mediaType.includes("*")) return mediaType;
  return body instanceof Blob && body.type !== "" ? body.type : "application/octet-stream";
}

/**
 * The parameters with each one described by `content` written as its media type says (OpenAPI):
 * JSON as JSON text, which its location then encodes like any string; another media type's value
 * goes as it is.
 */
export function withContentParameters(params: OperationParams, content: ContentParameters): OperationParams {
  let copy: OperationParams | undefined;
  for (const location in content) {
    const names = content[location as ParameterLocation] as Readonly<Record<string, string>>;
    const group = params[location as ParameterLocation] as Record<string, unknown> | undefined;
    if (group === undefined) continue;
    let written: Record<string, unknown> | undefined;
    for (const name in names) {
      const value = Object.hasOwn(group, name) ? group[name] : undefined;
      if (value === undefined || mediaTypeKind(names[name] as string) !== "json") continue;
      written ??= { ...group };
      written[name] = JSON.stringify(value);
    }
    if (written !== undefined) (copy ??= { ...params })[location as ParameterLocation] = written;
  }
  return copy ?? params;
}
