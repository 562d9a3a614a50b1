/** The extensions' model-stage sides, in the order they read (and their parts appear in the package). */
import { modelEndpointsReader } from "./model-endpoints/model.ts";
import { podBudgetReader } from "./pod-budget/model.ts";
import type { ExtensionReader } from "./reader.ts";
import { serverSentEventsReader } from "./server-sent-events/model.ts";
import { webhooksReader } from "./webhooks/model.ts";

export const EXTENSION_READERS: readonly ExtensionReader[] = [modelEndpointsReader, podBudgetReader, serverSentEventsReader, webhooksReader];
