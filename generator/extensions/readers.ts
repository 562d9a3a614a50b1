/** The extensions' model-stage sides, in the order they read (and their parts appear in the package). */
import type { ApiModel } from "../model/types.ts";
import { modelEndpointsReader } from "./model-endpoints/model.ts";
import { podBudgetReader } from "./pod-budget/model.ts";
import { paginationReader } from "./pagination/model.ts";
import type { ExtensionReader } from "./reader.ts";
import { serverSentEventsReader } from "./server-sent-events/model.ts";
import { serviceFakeReader } from "./service-fake/model.ts";
import { webhooksReader } from "./webhooks/model.ts";

export const EXTENSION_READERS: readonly ExtensionReader[] = [modelEndpointsReader, podBudgetReader, serverSentEventsReader, webhooksReader, paginationReader, serviceFakeReader];

/** What the extensions the model holds say about what they found, one line each, in reading order. */
export function extensionNotes(api: Pick<ApiModel, "extensions">): string[] {
  return api.extensions.flatMap((extension) => EXTENSION_READERS.find((reader) => reader.name === extension.name)?.notes?.(extension.model) ?? []);
}
