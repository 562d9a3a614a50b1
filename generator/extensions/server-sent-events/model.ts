/**
 * The server-sent-events extension's model-stage side: an operation whose successful answer is
 * `text/event-stream` (and not JSON) becomes a method returning an async iterable of its events.
 * Each event's data is described by the media type's item schema: OpenAPI 3.2's `itemSchema`, or
 * `x-item-schema` (its meaning, in a 3.1 document), whose `data` property may say
 * `contentMediaType: application/json` and a `contentSchema`; without one the data is text.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer } from "../../common/json-pointer.ts";
import { mediaTypeKind } from "../../common/media-types.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { LoadedContract } from "../../load/index.ts";
import { runtimeExports } from "../../model/names.ts";
import { HTTP_METHODS, type ApiModel, type OperationModel } from "../../model/types.ts";
import type { ExtensionReader } from "../reader.ts";
import { EVENT_STREAM, SERVER_SENT_EVENTS_EXTENSION as NAME, type EventData, type EventStreamOperation, type ServerSentEventsModel } from "./types.ts";

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

export const serverSentEventsReader: ExtensionReader = {
  name: NAME,
  isUsedBy: (document) => mentionsEventStream(document),
  methodNames: [],
  exportNames: () => runtimeExports(NAME),
  read: (contract, api, warnings) => readServerSentEvents(contract, api, warnings),
};

/**
 * Whether a success response of any operation offers an event stream: the names the extension
 * exports are taken before the operations are read, so this looks at the document as written.
 */
function mentionsEventStream(document: LoadedContract["document"]): boolean {
  const root = document as unknown as Record<string, unknown>;
  const follow = (node: unknown): any => {
    for (let depth = 0; depth < 8 && typeof node === "object" && node !== null && typeof (node as { $ref?: unknown }).$ref === "string"; depth++) {
      const ref = (node as { $ref: string }).$ref;
      if (!ref.startsWith("#/")) return undefined;
      node = ref.slice(2).split("/").reduce<any>((value, key) => value?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
    }
    return node;
  };
  for (const item of Object.values(document.paths ?? {})) {
    const pathItem = follow(item);
    for (const method of HTTP_METHODS) {
      for (const [status, response] of Object.entries(pathItem?.[method]?.responses ?? {})) {
        if (status.startsWith("2") && Object.keys(follow(response)?.content ?? {}).some(isEventStream)) return true;
      }
    }
  }
  return false;
}

function isEventStream(mediaType: string): boolean {
  return mediaType.split(";", 1)[0]!.trim().toLowerCase() === EVENT_STREAM;
}

function readServerSentEvents(contract: LoadedContract, api: ApiModel, warnings: Warnings): ServerSentEventsModel | undefined {
  const operations = api.operations.flatMap((operation) => {
    const answer = operation.successResponses.find((response) => response.mediaType !== undefined);
    return answer?.mediaType !== undefined && isEventStream(answer.mediaType) ? [readOperation(contract, operation, answer.status, answer.mediaType, warnings)] : [];
  });
  return operations.length === 0 ? undefined : { operations };
}

function readOperation(contract: LoadedContract, operation: OperationModel, status: string, mediaType: string, warnings: Warnings): EventStreamOperation {
  const { pointer: responseAt } = contract.deref(contract.at(`${operation.pointer}${pointer("responses", status)}`), `${operation.pointer}${pointer("responses", status)}`);
  const mediaAt = `${responseAt}${pointer("content", mediaType)}`;
  const media = contract.at<Record<string, unknown>>(mediaAt) ?? {};
  const keys = ["itemSchema", "x-item-schema"].filter((key) => media[key] !== undefined);
  if (keys.length > 1) throw new ContractError(`${mediaAt}/x-item-schema`, "an event stream's item schema is given once: itemSchema (OpenAPI 3.2) or x-item-schema (3.1), not both");
  if (keys.length === 0) return { operationId: operation.operationId, data: { kind: "text" }, itemSchemaPointer: undefined };
  const itemAt = `${mediaAt}${pointer(keys[0]!)}`;
  return { operationId: operation.operationId, data: readEventData(contract, itemAt, warnings), itemSchemaPointer: itemAt };
}

/** The item schema's `data`: JSON when its `contentMediaType` says so, typed by its `contentSchema` when that is a component. */
function readEventData(contract: LoadedContract, itemAt: string, warnings: Warnings): EventData {
  const { value: item, pointer: at } = contract.deref<any>(contract.at(itemAt), itemAt);
  if (typeof item !== "object" || item === null || Array.isArray(item)) throw new ContractError(itemAt, "an event stream's item schema must be a schema object");
  const raw = item.properties?.data;
  if (raw === undefined) return { kind: "text" };
  const { value: data, pointer: dataAt } = contract.deref<any>(raw, `${at}${pointer("properties", "data")}`);
  const contentMediaType = data?.contentMediaType;
  if (typeof contentMediaType !== "string" || mediaTypeKind(contentMediaType) !== "json") {
    if (data?.contentSchema !== undefined) warnings.add("event-stream:content-schema-without-json", dataAt, "an event's contentSchema is read only with contentMediaType: application/json; its data stays text");
    return { kind: "text" };
  }
  const schema = data.contentSchema;
  if (schema === undefined) return { kind: "json", component: undefined };
  const component = typeof schema?.$ref === "string" ? COMPONENT_SCHEMA.exec(schema.$ref)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
  if (component === undefined) {
    warnings.add("event-stream:inline-content-schema", `${dataAt}/contentSchema`, "an event's contentSchema types and checks its data only as a $ref to components/schemas; this one is read as any JSON");
  }
  return { kind: "json", component };
}

/** The extension's part of a model, when the contract uses it. */
export function serverSentEventsOf(api: Pick<ApiModel, "extensions">): ServerSentEventsModel | undefined {
  return api.extensions.find((extension) => extension.name === NAME)?.model as ServerSentEventsModel | undefined;
}
