/** The extensions' emit-stage sides, by name: each turns its part of the model into what it adds to the package. */
import type { StandaloneValidators, ValidatedSchema } from "../emit/validators/index.ts";
import type { ApiModel } from "../model/types.ts";
import { emitModelEndpoints } from "./model-endpoints/emit.ts";
import { MODEL_ENDPOINTS_EXTENSION, type ModelEndpointsModel } from "./model-endpoints/types.ts";
import type { EmitContext, ExtensionOutput } from "./output.ts";
import { emitPagination } from "./pagination/emit.ts";
import { PAGINATION_EXTENSION, type PaginationModel } from "./pagination/types.ts";
import { emitPodBudget } from "./pod-budget/emit.ts";
import { POD_BUDGET_EXTENSION, type PodBudgetModel } from "./pod-budget/types.ts";
import { emitServerSentEvents } from "./server-sent-events/emit.ts";
import { SERVER_SENT_EVENTS_EXTENSION, type ServerSentEventsModel } from "./server-sent-events/types.ts";
import { emitServiceFake } from "./service-fake/emit.ts";
import { SERVICE_FAKE_EXTENSION } from "./service-fake/types.ts";
import { emitWebhooks, validatedWebhookBodies } from "./webhooks/emit.ts";
import { WEBHOOKS_EXTENSION, type WebhooksModel } from "./webhooks/types.ts";

const EMITTERS: Readonly<Record<string, (api: ApiModel, model: unknown, context: EmitContext) => ExtensionOutput>> = {
  [MODEL_ENDPOINTS_EXTENSION]: (api, model, context) => emitModelEndpoints(api, model as ModelEndpointsModel, context),
  [POD_BUDGET_EXTENSION]: (api, model, context) => emitPodBudget(api, model as PodBudgetModel, context),
  [SERVER_SENT_EVENTS_EXTENSION]: (api, model, context) => emitServerSentEvents(api, model as ServerSentEventsModel, context),
  [WEBHOOKS_EXTENSION]: (api, model, context) => emitWebhooks(api, model as WebhooksModel, context),
  [PAGINATION_EXTENSION]: (api, model, context) => emitPagination(api, model as PaginationModel, context),
  [SERVICE_FAKE_EXTENSION]: (api) => emitServiceFake(api),
};

/** Per extension, the schemas whose validators it wants in modules of their own (asked before the validators are emitted). */
const STANDALONE: Readonly<Record<string, (model: unknown) => StandaloneValidators>> = {
  // Each model's input checks load when that model is first used: an app bundles only the models it runs.
  [MODEL_ENDPOINTS_EXTENSION]: (model) => ({ folder: "model-inputs", schemas: (model as ModelEndpointsModel).endpoints.map((endpoint) => endpoint.inputSchema) }),
};

/** Per extension, the schemas outside `components/schemas` it wants validators of, in `src/validators.js`. */
const VALIDATED: Readonly<Record<string, (model: unknown) => ValidatedSchema[]>> = {
  [WEBHOOKS_EXTENSION]: (model) => validatedWebhookBodies(model as WebhooksModel),
};

/** The schemas the extensions the contract uses want validators of, beside the components'. */
export function validatedSchemas(api: ApiModel): ValidatedSchema[] {
  return api.extensions.flatMap((extension) => VALIDATED[extension.name]?.(extension.model) ?? []);
}

/** The schemas the extensions the contract uses want validated in modules of their own; at most one folder. */
export function standaloneValidators(api: ApiModel): StandaloneValidators | undefined {
  const asked = api.extensions.flatMap((extension) => (STANDALONE[extension.name] ? [STANDALONE[extension.name]!(extension.model)] : []));
  if (asked.length > 1) throw new Error("more than one extension asks for standalone validators");
  return asked[0];
}

/** What each extension the contract uses adds, in the order they were read. */
export function emitExtensions(api: ApiModel, context: EmitContext): ExtensionOutput[] {
  return api.extensions.map((extension) => {
    const emit = EMITTERS[extension.name];
    if (emit === undefined) throw new Error(`no emitter for the extension ${extension.name}`);
    return emit(api, extension.model, context);
  });
}
