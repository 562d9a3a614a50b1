/** The event-stream runtime in one module, as the generated client imports it. */
export { DEFAULT_MAX_RECONNECTS, streamEvents } from "./event-stream.js";
export type { EventDataSpec, EventStreamOptions, ServerSentEvent } from "./types.js";
