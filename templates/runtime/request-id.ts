/**
 * The id a service gives a request in its answer, which its support asks for. Services spell the
 * header differently; the first of these present is taken.
 */
const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-amzn-requestid", "x-amz-request-id", "x-correlation-id", "cf-ray"] as const;

export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}
