/**
 * Bodies: a request body serialised once, before the first attempt (so that a retry can send the
 * same bytes), and a successful response's body read as its operation says.
 */
import type { ResponseKind } from "./operation-spec.js";
import { InvalidRequestError } from "./errors.js";
import { mediaTypeKind } from "./media-types.js";
import type { ReusableBody, SuccessAnswer } from "./transport-types.js";

export function isReusable(body: BodyInit | undefined): body is ReusableBody {
  return (
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

/**
 * A body of a media type the client does not encode (`image/jpeg`, `application/cbor`, `application/x-tar`…):
 * bytes, or text sent as its UTF-8 bytes, passed through unchanged. A stream is read once: a call that
 * may be retried keeps its bytes in memory to send again.
 */
export type BinaryBody = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | string;

export function isBinaryBody(body: unknown): body is BinaryBody {
  return typeof body === "string" || body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof ReadableStream;
}

export function serializeBody(body: unknown, mediaType: string | undefined): BodyInit | undefined {
  if (body === undefined) return undefined;
  switch (mediaType === undefined ? "json" : mediaTypeKind(mediaType)) {
    case "json":
      return jsonText(body, "body");
    case "form":
      return body instanceof URLSearchParams ? body : new URLSearchParams(body as Record<string, string>);
    case "multipart": {
      if (body instanceof FormData) return body;
      const form = new FormData();
      for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
        if (value instanceof Blob) form.append(name, value);
        else if (value !== undefined) form.append(name, typeof value === "object" ? jsonText(value, `body.${name}`) : String(value));
      }
      return form;
    }
    case "text":
      return body as BodyInit;
    case "binary":
      // An object would go as "[object Object]": refused before anything is sent.
      if (!isBinaryBody(body)) {
        throw new InvalidRequestError(`body must be bytes (a Blob, an ArrayBuffer, a typed array or a ReadableStream) or a string to send as ${mediaType}`, { field: "body" });
      }
      return body as BodyInit;
  }
}

/**
 * `value` as JSON text. JSON.stringify writes NaN and ±Infinity as `null`, sending a value the
 * caller never meant, and throws a bare TypeError on a BigInt or a cycle: each is refused before
 * sending with an InvalidRequestError naming the field (`body.input.width`).
 */
export function jsonText(value: unknown, field: string): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    const where = firstUnwritable(value, field);
    throw new InvalidRequestError(`${where ?? field} cannot be sent as JSON: ${where === undefined ? String((error as Error).message).split("\n")[0] : "a BigInt"}`, { field: where ?? field });
  }
  // Only a `null` in the text can stand for a number JSON cannot hold: most bodies need no second look.
  if (text !== undefined && text.includes("null")) {
    const where = firstUnwritable(value, field);
    if (where !== undefined) throw new InvalidRequestError(`${where} must be a finite number to be sent as JSON (NaN and Infinity would be sent as null)`, { field: where });
  }
  return text;
}

/**
 * The field path of the first value JSON cannot hold (a NaN, an infinite number, a BigInt), as
 * JSON.stringify walks `value` (`toJSON` applied): `body.input.width`, `body.items.0`.
 */
function firstUnwritable(value: unknown, field: string): string | undefined {
  const paths = new WeakMap<object, string>();
  let found: string | undefined;
  try {
    JSON.stringify(value, function (this: object, key: string, member: unknown) {
      if (found !== undefined) return undefined;
      // The root's holder is a wrapper JSON.stringify makes: it has no path of its own.
      const holder = paths.get(this);
      const path = holder === undefined ? field : `${holder}.${key}`;
      if ((typeof member === "number" && !Number.isFinite(member)) || typeof member === "bigint") {
        found = path;
        return undefined;
      }
      if (typeof member === "object" && member !== null) paths.set(member, path);
      return member;
    });
  } catch {
    // A cycle: JSON.stringify's own message says where.
  }
  return found;
}

/** The media type of an answer's Content-Type, without parameters (`charset`…). */
function mediaTypeOf(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]!.trim();
}

const UTF8 = new TextDecoder();

/** The chunks as text, as `Response.text()` reads a body (UTF-8, a byte order mark dropped). */
function utf8(chunks: readonly Uint8Array[]): string {
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return UTF8.decode(bytes);
}

/**
 * The body (its chunks, as the transport read them), parsed as the operation says, and its text
 * when it was read as text. `auto` (an operation that documents no response): JSON when the
 * Content-Type says so, else text; no body is undefined. A JSON body that does not parse is
 * `notJson`, its text kept for the error.
 */
export function readBody(answer: SuccessAnswer, kind: ResponseKind): { data: unknown; text: string | undefined; notJson?: true } {
  const { status, headers, chunks } = answer;
  if (kind === "none" || status === 204) return { data: undefined, text: undefined };
  if (kind === "blob") return { data: new Blob(chunks as readonly BlobPart[] as BlobPart[], { type: headers.get("content-type") ?? "" }), text: undefined };
  const text = utf8(chunks);
  if (kind === "text") return { data: text, text };
  if (text === "") return { data: undefined, text };
  if (kind === "auto" && mediaTypeKind(mediaTypeOf(headers)) !== "json") return { data: text, text };
  try {
    return { data: JSON.parse(text), text };
  } catch {
    // The error that says so is made where it is thrown (error-response.ts, loaded on demand).
    return { data: undefined, text, notJson: true };
  }
}
