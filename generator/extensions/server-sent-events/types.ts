/** The server-sent-events extension's part of the model. */

export const SERVER_SENT_EVENTS_EXTENSION = "server-sent-events";

/** The media type that makes an operation an event stream. */
export const EVENT_STREAM = "text/event-stream";

/** How an operation's events carry their data, read from its item schema. */
export type EventData =
  | { kind: "text" }
  /** JSON; `component` names the `components/schemas` entry that types and checks it, when the contract gives one by `$ref`. */
  | { kind: "json"; component: string | undefined };

export interface EventStreamOperation {
  operationId: string;
  data: EventData;
  /** Where the item schema was read (`itemSchema` or `x-item-schema`), or undefined without one. */
  itemSchemaPointer: string | undefined;
}

export interface ServerSentEventsModel {
  /** The operations answering an event stream, in the order of the model's operations. */
  operations: EventStreamOperation[];
}
