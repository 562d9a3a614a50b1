/**
 * Example data from the contract's own examples, read while the model is built: the package README
 * shows each call and each model endpoint with them, and the fixture tests send them to a mock.
 */
import { escapeSegment } from "../common/json-pointer.ts";
import type { LoadedContract } from "../load/index.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import { ExampleValues } from "./example-values.ts";
import { valueOfSchema } from "./response-values.ts";
import type { ExampleParams, ExampleResponse, OperationModel } from "./types.ts";

/**
 * Example arguments of a call, undefined when the method takes none: each required parameter's
 * `example` (or its `content`'s), the body's media `example` or its first named example's value,
 * where it fits the schema's type (example-values.ts); else a value made from the schema (for a
 * body of bytes, a string example, else `""`).
 */
export function exampleParams(contract: LoadedContract, operation: Pick<OperationModel, "parameters" | "requestBody">, values = new ExampleValues(contract)): ExampleParams | undefined {
  const params: ExampleParams = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    const declared = contract.at<any>(parameter.pointer);
    const media = parameter.mediaType === undefined ? undefined : declared?.content?.[parameter.mediaType];
    const value = values.choose(mediaExample(contract, declared) ?? mediaExample(contract, media), parameter.schemaPointer);
    const group = (params[parameter.in] ??= {}) as Record<string, unknown>;
    group[parameter.name] = value;
  }
  if (operation.requestBody) {
    const media = contract.at<any>(`${operation.requestBody.pointer}/content/${escapeSegment(operation.requestBody.mediaType)}`);
    const example = mediaExample(contract, media);
    // Bytes are given as a string in an example, if at all.
    const { schemaPointer } = operation.requestBody;
    params.body =
      mediaTypeKind(operation.requestBody.mediaType) === "binary" ? (typeof example === "string" ? example : "") : schemaPointer === undefined ? (example ?? {}) : values.choose(example, schemaPointer);
  }
  return Object.keys(params).length ? params : undefined;
}

/** A parameter's or media type object's `example`, else its first named example's value (a 3.0 `example` is upgraded into `examples`). */
function mediaExample(contract: LoadedContract, media: any): unknown {
  const first = media?.examples ? Object.values<any>(media.examples)[0] : undefined;
  const resolved = first?.$ref ? contract.resolve<any>(first.$ref) : first;
  return media?.example ?? resolved?.value;
}

/** The first of a component schema's `examples`, if it has any. */
export function schemaExample(contract: LoadedContract, schemaName: string): unknown {
  return (contract.document.components?.schemas?.[schemaName] as { examples?: unknown[] } | undefined)?.examples?.[0];
}

/**
 * Each documented response as the package's test kit answers it: its first JSON media type (else
 * its first), its body (the media type's example, else its first named example's value, else a
 * value built from its schema), and the headers the contract shows an example of (`RateLimit`…).
 */
export function exampleResponses(contract: LoadedContract, responses: Record<string, unknown> | undefined, at: string): ExampleResponse[] {
  const examples: ExampleResponse[] = [];
  for (const status of Object.keys(responses ?? {}).sort()) {
    const { value: response, pointer: where } = contract.deref<any>(responses![status], `${at}/responses/${escapeSegment(status)}`);
    const mediaTypes = Object.keys(response?.content ?? {});
    const mediaType = mediaTypes.find((m) => mediaTypeKind(m) === "json") ?? mediaTypes[0];
    const example: ExampleResponse = { status };
    if (mediaType !== undefined) {
      const media = response.content[mediaType];
      example.mediaType = mediaType;
      example.body = mediaExample(contract, media) ?? (media?.schema === undefined ? undefined : valueOfSchema(contract, media.schema));
    }
    const headers: Record<string, string> = {};
    for (const [name, raw] of Object.entries<unknown>(response?.headers ?? {})) {
      if (name.toLowerCase() === "content-type") continue;
      const header = contract.deref<any>(raw, `${where}/headers/${escapeSegment(name)}`).value;
      const value = header?.example ?? mediaExample(contract, header) ?? header?.schema?.examples?.[0] ?? header?.schema?.example ?? header?.schema?.default;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") headers[name] = String(value);
    }
    if (Object.keys(headers).length > 0) example.headers = headers;
    examples.push(example);
  }
  return examples;
}
