/**
 * An operation's parameters (those of its path item too), each checked and read with its style:
 * where it goes, whether it is required, what its value is checked against, how it is written.
 */
import { ContractError } from "../common/errors.ts";
import { pointer } from "../common/json-pointer.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import type { Warnings } from "../common/warnings.ts";
import type { LoadedContract } from "../load/index.ts";
import type { ParameterModel, ParameterStyle } from "./types.ts";

/** The styles the client writes, per location (OpenAPI's Style Values); the first is the default. */
const STYLES: Readonly<Record<ParameterModel["in"], readonly ParameterStyle["style"][]>> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/**
 * The parameter's `style`/`explode`/`allowReserved`, checked: each location takes the styles
 * OpenAPI defines for it, exploded or not (default: exploded for `form` only); a style defined for
 * another location, or none, stops generation here rather than being ignored.
 */
function readStyle(parameter: any, where: string): ParameterStyle {
  const style: unknown = parameter.style;
  const explode: unknown = parameter.explode;
  if (explode !== undefined && typeof explode !== "boolean") throw new ContractError(`${where}/explode`, "explode must be true or false");
  if (parameter.allowReserved !== undefined && typeof parameter.allowReserved !== "boolean") throw new ContractError(`${where}/allowReserved`, "allowReserved must be true or false");
  const location = parameter.in as ParameterModel["in"];
  const styles = STYLES[location];
  if (style !== undefined && !styles.includes(style as ParameterStyle["style"])) {
    throw new ContractError(`${where}/style`, `style ${JSON.stringify(style)} is not a ${location} parameter style (${styles.join(", ")})`);
  }
  const chosen = (style ?? styles[0]) as ParameterStyle["style"];
  return { style: chosen, explode: typeof explode === "boolean" ? explode : chosen === "form", allowReserved: location === "query" && parameter.allowReserved === true };
}

/** The parameters of the operation at `at` and of its path item (`itemPointer`): the operation's own win over the item's of the same name and location. */
export function readParameters(
  contract: LoadedContract,
  path: string,
  itemPointer: string,
  itemParameters: any[],
  operationParameters: any[],
  at: string,
  warnings: Warnings | undefined,
): ParameterModel[] {
  const byKey = new Map<string, ParameterModel>();
  const read = (list: any[], base: string) =>
    list.forEach((raw, index) => {
      const { value: parameter, pointer: where } = contract.deref<any>(raw, `${base}/parameters/${index}`);
      if (!["path", "query", "header", "cookie"].includes(parameter.in)) throw new ContractError(`${where}/in`, `unknown parameter location ${JSON.stringify(parameter.in)}`);
      if (typeof parameter.name !== "string") throw new ContractError(`${where}/name`, "a parameter needs a name");
      if (parameter.name === "") {
        warnings?.add("parameter:no-name", `${where}/name`, "a parameter whose name is empty is left out: the client cannot send it");
        return;
      }
      if (parameter.in === "cookie") {
        warnings?.add("parameter:cookie", where, "cookie parameters are sent in a Cookie header, which browsers do not let a page set: a browser sends the request without them (Node, Deno and Bun send them)");
      }
      // Operation-level parameters override path-level ones with the same name and location.
      byKey.set(`${parameter.in}:${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === "path" ? true : parameter.required === true,
        description: parameter.description,
        pointer: where,
        ...readParameterValue(parameter, where),
        style: readStyle(parameter, where),
      });
    });
  read(itemParameters, itemPointer);
  read(operationParameters, at);
  const parameters = [...byKey.values()];
  const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  for (const name of new Set(templated)) {
    if (parameters.some((p) => p.in === "path" && p.name === name)) continue;
    // Without it the URL would hold "{name}" as written: the caller gives it, as a path parameter.
    const elsewhere = parameters.find((p) => p.name === name);
    warnings?.add(
      "parameter:undeclared-path",
      at,
      `path parameter {${name}} is in the path but not declared${elsewhere ? ` (a ${elsewhere.in} parameter has its name)` : ""}: read as a required path parameter whose value is any string`,
    );
    parameters.push({ name, in: "path", required: true, pointer: at, schemaPointer: undefined, style: { style: "simple", explode: false, allowReserved: false }, undeclared: true });
  }
  for (const parameter of parameters) {
    if (parameter.in === "path" && !templated.includes(parameter.name)) {
      throw new ContractError(parameter.pointer, `path parameter "${parameter.name}" does not appear in ${path}`);
    }
  }
  return parameters;
}

/**
 * What a parameter's value is checked against: its `schema`, or its `content`'s one media type
 * (OpenAPI: exactly one of the two). A JSON `content` is checked against its schema and sent as JSON
 * text; another media type's value is a string sent as it is.
 */
function readParameterValue(parameter: any, where: string): Pick<ParameterModel, "schemaPointer" | "mediaType"> {
  const { content } = parameter;
  if (content === undefined) return { schemaPointer: isSchema(parameter.schema) ? `${where}/schema` : undefined };
  if (parameter.schema !== undefined) throw new ContractError(where, "a parameter has a `schema` or a `content`, not both");
  const mediaTypes = content !== null && typeof content === "object" && !Array.isArray(content) ? Object.keys(content) : [];
  if (mediaTypes.length !== 1) throw new ContractError(`${where}/content`, `a parameter's content has exactly one media type, not ${mediaTypes.length}`);
  const mediaType = mediaTypes[0]!;
  const hasSchema = isSchema(content[mediaType]?.schema);
  return { mediaType, schemaPointer: mediaTypeKind(mediaType) === "json" && hasSchema ? `${where}${pointer("content", mediaType, "schema")}` : undefined };
}

/**
 * Whether a `schema` member holds a schema (an object or a boolean). One that is missing, or not a
 * schema (`schema: null`, which the shape check warns about), admits any value, as the type emitter
 * reads it (`unknown`).
 */
export function isSchema(value: unknown): boolean {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value));
}
