/**
 * The types of an event stream (`text/event-stream`, the WHATWG's Server-Sent Events): one event as
 * the client hands it over, the options of a stream, and how an operation's events carry their data.
 */
import type { RequestOptions } from "../client-core.js";
import type { ValidationIssue } from "../validation.js";

/** One event of the stream. */
export interface ServerSentEvent<Data = string> {
  /** The event's `id` field; undefined when its block had none (the last id still counts for resuming). */
  id: string | undefined;
  /** The event's type: its `event` field, `"message"` without one. */
  event: string;
  /** Its `data` lines joined by line feeds: parsed as JSON and checked when the contract gives the data a schema, else the text. */
  data: Data;
  /** The reconnection time (milliseconds) the server set with this event's block, or since the event before it. */
  retry: number | undefined;
}

/** A stream's options: a call's, and how it resumes after the connection drops. */
export interface EventStreamOptions extends Omit<RequestOptions, "checkResponse" | "maxResponseBytes"> {
  /** Resume after this event: sent as `Last-Event-ID` from the first request on. */
  lastEventId?: string | undefined;
  /**
   * Reconnections in a row without an event between them before the stream gives up (its last
   * failure thrown; a stream the server ended cleanly just ends). Default 5 for a GET or HEAD, 0 for
   * any other method (reconnecting sends the request again: a POST would start its work again); 0 never reconnects.
   */
  maxReconnects?: number | undefined;
  /** The wait before the first reconnection until the server sets one with `retry:`; each reconnection in a row doubles it. Default 1 000. */
  reconnectDelayMs?: number | undefined;
  /** The most a reconnection waits, the server's `retry:` included. Default 30 000. */
  maxReconnectDelayMs?: number | undefined;
  /** The longest silence between two chunks before the connection counts as dropped; 0 for none. Default the call's `timeoutMs`. */
  idleTimeoutMs?: number | undefined;
}

/** How an operation's events carry their data: text, or JSON checked by the event schema's validator. */
export interface EventDataSpec {
  json: boolean;
  validate?: ((value: unknown) => ValidationIssue[]) | undefined;
  /** With `--dates date`: the data's date strings as Dates, after the check (a string that is no date is an issue). */
  dates?: ((value: unknown) => { data: unknown; issues: ValidationIssue[] }) | undefined;
}
