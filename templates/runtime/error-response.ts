/**
 * The typed error for a non-2xx response: the class its status picks, with what the body and
 * headers say, secrets blanked out. Reads at most MAX_RAW_BODY_BYTES of any body, whatever it holds.
 * The client loads this module (and api-errors.ts with it) with the first answer that needs it.
 */
import { MAX_RAW_BODY_BYTES } from "./error-base.js";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
  UnprocessableEntityError,
} from "./api-errors.js";
import type { ApiErrorInit } from "./api-errors.js";
import { readBodyText } from "./body-text.js";
import { SENSITIVE_HEADERS } from "./headers.js";
import { parseRateLimit, requestedWaitMs } from "./rate-limit.js";
import { requestIdOf } from "./request-id.js";
import { redactSecrets } from "./redact.js";
import type { ErrorAnswer } from "./transport-types.js";
import { pathOf, sanitizeUrl } from "./urls.js";

/** The statuses with a class of their own; 429 is a RateLimitError, 5xx ServerErrors, the rest UnexpectedStatusErrors. */
const CLASS_BY_STATUS: ReadonlyMap<number, typeof ApiError> = new Map([
  [400, BadRequestError],
  [401, AuthenticationError],
  [403, PermissionDeniedError],
  [404, NotFoundError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
]);

const MESSAGE_BODY_SNIPPET_CHARS = 200;

export interface ErrorRequestInfo {
  method: string;
  url: string;
  operationId?: string;
  /** Values (e.g. the API key) to blank out of everything the error keeps, in case the server echoes them. */
  secrets?: readonly string[];
}

/**
 * Builds the typed error for a non-2xx response. Tolerates any body: empty,
 * not JSON, malformed JSON, JSON that is not a problem document, already read.
 */
export async function errorFromResponse(response: Response, request: ErrorRequestInfo): Promise<ApiError> {
  const { status, statusText, headers } = response;
  return errorFromAnswer({ status, statusText, headers, text: await readBodyText(response) }, request);
}

/** The typed error for a non-2xx answer whose body was read already (the transport's, cut at 64 KiB). */
export function errorFromAnswer(answer: Pick<ErrorAnswer, "status" | "statusText" | "headers" | "text">, request: ErrorRequestInfo): ApiError {
  const secrets = request.secrets ?? [];
  const redact = (text: string): string => redactSecrets(text, secrets);

  const rawText = answer.text;
  // Only the raw body may be cut (at 64 KiB, or by a dropped connection); parsed strings never are.
  const rawBody = redactSecrets(rawText, secrets, { mayBeCut: true });
  const problem = redactJson(parseJson(rawText), redact);
  const fields = problemFields(problem);
  const { status, headers } = answer;
  const method = request.method.toUpperCase();
  const url = redact(sanitizeUrl(request.url));
  const title = fields.title ?? (redact(answer.statusText) || undefined);
  // Not a problem document: the start of the body is the best explanation there is.
  const isProblem = fields.title !== undefined || fields.detail !== undefined || fields.errors !== undefined;
  const detail = fields.detail ?? fields.errors?.join("; ") ?? (isProblem ? undefined : snippet(rawBody));

  const init: ApiErrorInit = {
    message: `${method} ${pathOf(url)} failed with ${status}${title === undefined ? "" : ` ${title}`}${detail === undefined ? "" : `: ${detail}`}`,
    status,
    title: fields.title,
    detail: fields.detail,
    errors: fields.errors,
    problem,
    rawBody,
    headers: safeHeaders(headers, redact),
    requestId: requestIdOf(headers),
    rateLimit: parseRateLimit(headers),
    method,
    url,
    operationId: request.operationId,
  };

  if (status === 429) return new RateLimitError({ ...init, retryAfterMs: requestedWaitMs(status, headers) });
  if (status >= 500 && status <= 599) return new ServerError({ ...init, retryAfterMs: requestedWaitMs(status, headers) });
  return new (CLASS_BY_STATUS.get(status) ?? UnexpectedStatusError)(init);
}

/** A 2xx answer whose JSON body does not parse: an `ApiError`, not retried (the call was answered). */
export function notJsonError(answer: Pick<ErrorAnswer, "status" | "headers">, text: string, request: ErrorRequestInfo & { operationId: string }): ApiError {
  const secrets = request.secrets ?? [];
  const url = sanitizeUrl(request.url, secrets);
  return new ApiError("unexpected_status", {
    message: `${request.method} ${new URL(url).pathname} returned ${answer.status} with a body that is not JSON`,
    status: answer.status,
    // A proxy's page may echo the request, key included.
    rawBody: redactSecrets(text.slice(0, MAX_RAW_BODY_BYTES), secrets, { mayBeCut: true }),
    headers: {},
    rateLimit: parseRateLimit(answer.headers),
    method: request.method,
    url,
    operationId: request.operationId,
  });
}

export { readBodyText } from "./body-text.js";

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Blanks secrets out of every string (keys included) of a parsed JSON value. */
function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]));
  }
  return value;
}

/** The RFC 9457 members this API uses, each kept only if it has the expected type. */
function problemFields(problem: unknown): { title?: string; detail?: string; errors?: string[] } {
  if (typeof problem !== "object" || problem === null || Array.isArray(problem)) return {};
  const { title, detail, errors } = problem as Record<string, unknown>;
  return {
    title: typeof title === "string" ? title : undefined,
    detail: typeof detail === "string" ? detail : undefined,
    errors: Array.isArray(errors) ? errors.filter((error): error is string => typeof error === "string") : undefined,
  };
}

/** The start of a non-JSON body on one line, for the message. */
function snippet(text: string): string | undefined {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (oneLine === "") return undefined;
  return oneLine.length > MESSAGE_BODY_SNIPPET_CHARS ? `${oneLine.slice(0, MESSAGE_BODY_SNIPPET_CHARS)}…` : oneLine;
}

function safeHeaders(headers: Headers, redact: (text: string) => string): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SENSITIVE_HEADERS.has(name)) result[name] = redact(value);
  });
  return result;
}
