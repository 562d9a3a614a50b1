/** Public runtime API of the generated client. */
export {
  exhaustedWindowDelayMs,
  parseRateLimit,
  parseRetryAfter,
  parseStructuredList,
} from "./rate-limit.js";
export type {
  RateLimitState,
  RateLimitWindow,
  StructuredBareItem,
  StructuredItem,
  StructuredListMember,
  StructuredListResult,
  StructuredParams,
} from "./rate-limit.js";
export {
  AbortedError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  GpuCloudError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedStatusError,
  UnprocessableEntityError,
  errorFromResponse,
  redactSecrets,
  sanitizeUrl,
} from "./errors.js";
export type { ApiErrorInit, ApiErrorKind, ErrorRequestInfo, SanitizedCause } from "./errors.js";
export { buildPath, encodePathParameter } from "./path.js";
export { backoffDelayMs, createTransportFetch, sleep } from "./transport.js";
export type { CallOptions, Logger, TransportConfig } from "./transport.js";
