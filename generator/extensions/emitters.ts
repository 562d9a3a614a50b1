/** The extensions' emit-stage sides, by name: each turns its part of the model into what it adds to the package. */
import type { ApiModel } from "../model/types.ts";
import { emitModelEndpoints } from "./model-endpoints/emit.ts";
import { MODEL_ENDPOINTS_EXTENSION, type ModelEndpointsModel } from "./model-endpoints/types.ts";
import type { EmitContext, ExtensionOutput } from "./output.ts";
import { emitServerSentEvents } from "./server-sent-events/emit.ts";
import { SERVER_SENT_EVENTS_EXTENSION, type ServerSentEventsModel } from "./server-sent-events/types.ts";

const EMITTERS: Readonly<Record<string, (api: ApiModel, model: unknown, context: EmitContext) => ExtensionOutput>> = {
  [MODEL_ENDPOINTS_EXTENSION]: (api, model, context) => emitModelEndpoints(api, model as ModelEndpointsModel, context),
  [SERVER_SENT_EVENTS_EXTENSION]: (api, model, context) => emitServerSentEvents(api, model as ServerSentEventsModel, context),
};

/** What each extension the contract uses adds, in the order they were read. */
export function emitExtensions(api: ApiModel, context: EmitContext): ExtensionOutput[] {
  return api.extensions.map((extension) => {
    const emit = EMITTERS[extension.name];
    if (emit === undefined) throw new Error(`no emitter for the extension ${extension.name}`);
    return emit(api, extension.model, context);
  });
}
