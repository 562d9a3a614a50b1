/**
 * What an operation sends and answers: the request body's media type (the one the client
 * prefers of those offered) and schema, and the successful responses and error statuses.
 */
import { ContractError } from "../common/errors.ts";
import { pointer } from "../common/json-pointer.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import type { Warnings } from "../common/warnings.ts";
import type { LoadedContract } from "../load/index.ts";
import { isSchema } from "./parameters.ts";
import type { OperationModel } from "./types.ts";

/**
 * A request body's media types in the order the client prefers them: JSON (plain, then `+json`),
 * forms, multipart, plain text, other text, then bytes (`application/octet-stream`, any other named
 * type, and last a range such as `image/*`). Any media type can be sent: one the client does not
 * encode takes the caller's bytes as they are.
 */
function requestMediaRank(mediaType: string): number {
  const essence = mediaType.split(";", 1)[0]!.trim().toLowerCase();
  switch (mediaTypeKind(mediaType)) {
    case "json":
      return essence === "application/json" ? 0 : 1;
    case "form":
      return 2;
    case "multipart":
      return 3;
    case "text":
      return essence === "text/plain" ? 4 : 5;
    case "binary":
      return essence === "application/octet-stream" ? 6 : essence.includes("*") ? 8 : 7;
  }
}

export function readRequestBody(contract: LoadedContract, raw: unknown, at: string, warnings: Warnings | undefined): OperationModel["requestBody"] {
  if (raw === undefined) return undefined;
  const { value: body, pointer: where } = contract.deref<any>(raw, `${at}/requestBody`);
  const mediaTypes = Object.keys(body.content ?? {});
  const mediaType = pickMediaType(mediaTypes);
  if (!mediaType) {
    // Nothing says what to send, nor how: the call is made without a body.
    warnings?.add("request-body:no-media-type", `${where}/content`, "a request body without a media type in its content is left out: the client sends none");
    return undefined;
  }
  return {
    required: body.required === true,
    mediaType,
    pointer: where,
    schemaPointer: isSchema(body.content[mediaType]?.schema) ? where + pointer("content", mediaType, "schema") : undefined,
  };
}

/** The media type the client sends: the first of those it prefers most (document order breaks ties). */
function pickMediaType(mediaTypes: string[]): string | undefined {
  let best: string | undefined;
  for (const mediaType of mediaTypes) if (best === undefined || requestMediaRank(mediaType) < requestMediaRank(best)) best = mediaType;
  return best;
}

/** The successful responses (status order), how the first with a body is read, and the error statuses. */
export function readResponses(
  contract: LoadedContract,
  responses: Record<string, unknown> | undefined,
  at: string,
  warnings: Warnings | undefined,
): Pick<OperationModel, "successResponses" | "responseKind" | "errorStatuses"> {
  // OpenAPI 3.1 lets an operation document no response: nothing to type its answer with.
  if (!responses || Object.keys(responses).length === 0) {
    warnings?.add(
      "operation:no-responses",
      responses ? `${at}/responses` : at,
      "the operation documents no response: its answer is untyped (unknown), read as JSON when its Content-Type says JSON, else as text",
    );
    return { successResponses: [], responseKind: "auto", errorStatuses: [] };
  }
  const successResponses: OperationModel["successResponses"] = [];
  const errorStatuses: string[] = [];
  for (const status of Object.keys(responses).sort()) {
    if (!/^(?:[1-5](?:\d\d|XX)|default)$/.test(status)) throw new ContractError(at + pointer("responses", status), `"${status}" is not a status code`);
    if (!status.startsWith("2")) {
      errorStatuses.push(status);
      continue;
    }
    const { value: response, pointer: where } = contract.deref<any>(responses[status], at + pointer("responses", status));
    const mediaTypes = Object.keys(response.content ?? {});
    const mediaType = mediaTypes.find((m) => mediaTypeKind(m) === "json") ?? mediaTypes[0];
    successResponses.push({
      status,
      mediaType,
      // A media type without a schema admits any body: nothing to validate.
      schemaPointer: mediaType && isSchema(response.content[mediaType]?.schema) ? where + pointer("content", mediaType, "schema") : undefined,
    });
  }
  const withBody = successResponses.find((r) => r.mediaType);
  const kind = withBody?.mediaType === undefined ? undefined : mediaTypeKind(withBody.mediaType);
  // Forms and multipart answers, like any media type the client does not decode, come back as bytes.
  const responseKind = kind === undefined ? "none" : kind === "json" || kind === "text" ? kind : "blob";
  return { successResponses, responseKind, errorStatuses };
}
