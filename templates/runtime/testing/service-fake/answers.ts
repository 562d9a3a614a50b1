/** The fake's answers: web-standard `Response`s, JSON or problem+json, and its instants. */

/** A JSON answer (no body for 204). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}, contentType = "application/json"): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { "content-type": contentType, ...headers } });
}

/** The contract's Problem, as `application/problem+json`. */
export function problem(status: number, title: string, detail: string, headers: Record<string, string> = {}): Response {
  return json(status, { title, status, detail }, headers, "application/problem+json");
}

/** An RFC 3339 instant to the second, as the service writes them. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The parsed JSON body of a request, or undefined when it is not JSON. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
