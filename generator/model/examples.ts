/**
 * Example data from the contract's own examples, read while the model is built: the package README
 * shows each call and each model endpoint with them, and the fixture tests send them to a mock.
 */
import { escapeSegment } from "../common/json-pointer.ts";
import type { LoadedContract } from "../load/index.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import { ExampleValues } from "./example-values.ts";
import type { ExampleParams, OperationModel } from "./types.ts";

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
