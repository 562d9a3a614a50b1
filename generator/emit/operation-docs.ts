/**
 * What the client's method and the standalone function of an operation share: whether it takes
 * parameters, whether they are required, whether its body is bytes, its doc comment, and whether an
 * extension writes its call instead of the core.
 */
import { mediaTypeKind } from "../common/media-types.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { describeRequestLimits, type OperationModel } from "../model/index.ts";
import type { Block } from "./code.ts";

export function hasParams(operation: OperationModel): boolean {
  return operation.parameters.length > 0 || operation.requestBody !== undefined;
}

export function paramsRequired(operation: OperationModel): boolean {
  return operation.parameters.some((p) => p.required) || operation.requestBody?.required === true;
}

/** A request body of a media type the client does not encode: the caller gives its bytes. */
export function hasBinaryBody(operation: OperationModel): boolean {
  return operation.requestBody !== undefined && mediaTypeKind(operation.requestBody.mediaType) === "binary";
}

/** The operation's doc: its summary and description, route, body and cookie notes, errors, limits, deprecation. */
export function operationDoc(operation: OperationModel, extensions: readonly ExtensionOutput[]): string {
  const lines = [operation.summary, operation.description].map((text) => text?.trim()).filter(Boolean).join("\n\n");
  const cookies = operation.parameters.filter((p) => p.in === "cookie").map((p) => `\`${p.name}\``);
  const limitsNotes = extensions.flatMap((extension) => extension.limitsNote(operation) ?? []);
  const tail = [
    `\`${operation.method.toUpperCase()} ${operation.path}\``,
    hasBinaryBody(operation) ? `The body is bytes (a Blob, an ArrayBuffer, a typed array or a ReadableStream) or a string, sent as they are as \`${operation.requestBody!.mediaType}\`.` : "",
    cookies.length
      ? `Cookie parameters (${cookies.join(", ")}) are sent in one \`Cookie\` header: Node, Deno and Bun send it; a browser drops it (a page may not set Cookie) and sends its own cookies instead.`
      : "",
    operation.errorStatuses.length ? `Errors: ${operation.errorStatuses.join(", ")} (typed, see the errors module).` : "",
    operation.requestLimits ? `Service limits of this operation: ${[describeRequestLimits(operation.requestLimits), ...limitsNotes].join("; ")}.` : "",
    operation.deprecated ? "@deprecated" : "",
  ].filter(Boolean);
  return [lines, ...tail].filter(Boolean).join("\n\n");
}

/** The call of an operation as the first extension that takes it over writes it, else undefined (the core's). */
export function extensionCall(extensions: readonly ExtensionOutput[], write: (calls: NonNullable<ExtensionOutput["operationCalls"]>) => Block | undefined): Block | undefined {
  for (const extension of extensions) {
    const written = extension.operationCalls === undefined ? undefined : write(extension.operationCalls);
    if (written !== undefined) return written;
  }
  return undefined;
}
