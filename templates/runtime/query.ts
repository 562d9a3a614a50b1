/**
 * The query string, each parameter written as the contract says (`style`, `explode`,
 * `allowReserved`), through openapi-fetch's serialisers.
 */
import { serializeArrayParam, serializeObjectParam, serializePrimitiveParam } from "openapi-fetch";

/** OpenAPI's `style`, `explode` and `allowReserved` of a query parameter. */
export interface QueryStyle {
  style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject";
  explode: boolean;
  allowReserved?: boolean | undefined;
}

const DEFAULT_QUERY_STYLE: QueryStyle = { style: "form", explode: true };

/**
 * The query string, each parameter written with its style (OpenAPI's default, `form` exploded:
 * `ids=1&ids=2`, `color=red&size=m`); undefined and null values, and empty arrays, are left out.
 */
export function queryString(query: Record<string, unknown>, styles: Readonly<Record<string, QueryStyle>> | undefined): string {
  const parts: string[] = [];
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    const { style, explode, allowReserved } = styles?.[name] ?? DEFAULT_QUERY_STYLE;
    if (Array.isArray(value)) {
      // deepObject is defined for objects only: an array under it is written as form.
      if (value.length > 0) parts.push(serializeArrayParam(name, value, { style: style === "deepObject" ? "form" : style, explode, allowReserved }));
    } else if (typeof value === "object") {
      if (style === "spaceDelimited" || style === "pipeDelimited") {
        // `color=R|100|G|200`: keys and values in one list (openapi-fetch writes these for arrays only).
        const pairs = Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => [key, String(item)]);
        parts.push(`${encodeURIComponent(name)}=${pairs.map(encodeURIComponent).join(style === "spaceDelimited" ? "%20" : "|")}`);
      } else {
        parts.push(serializeObjectParam(name, value as Record<string, unknown>, { style, explode, allowReserved }));
      }
    } else {
      parts.push(serializePrimitiveParam(name, String(value), { allowReserved }));
    }
  }
  return parts.join("&");
}
