/**
 * The webhooks extension's model-stage side: each name of the document's `webhooks` (3.0's
 * `x-webhooks` is upgraded to it on loading) whose operation sends a JSON body becomes a receiver
 * that parses and checks that body. A contract opts in with no key of its own, by having webhooks.
 */
import { ReadWriteMarks } from "../../common/read-write.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { mediaTypeKind } from "../../common/media-types.ts";
import type { Warnings } from "../../common/warnings.ts";
import type { LoadedContract } from "../../load/index.ts";
import { readRequestBody } from "../../model/bodies.ts";
import { runtimeExports } from "../../model/names.ts";
import { HTTP_METHODS, type ApiModel } from "../../model/types.ts";
import type { ExtensionReader } from "../reader.ts";
import { WEBHOOKS_EXTENSION as NAME, type WebhookModel, type WebhooksModel } from "./types.ts";

/** What `src/webhooks.ts` exports besides the runtime's names. */
export const WEBHOOK_MODULE_EXPORTS = ["parseWebhook", "webhookParser", "WEBHOOK_NAMES", "WebhookEvents", "WebhookName"] as const;

export const webhooksReader: ExtensionReader = {
  name: NAME,
  isUsedBy: (document) => Object.keys(document["webhooks"] ?? {}).length > 0,
  methodNames: [],
  exportNames: () => [...runtimeExports(NAME), ...WEBHOOK_MODULE_EXPORTS],
  read: (contract, api, warnings) => readWebhooks(contract, api, warnings),
};

function readWebhooks(contract: LoadedContract, api: ApiModel, warnings: Warnings): WebhooksModel | undefined {
  const entries = Object.entries<unknown>(contract.document["webhooks"] ?? {});
  const marks = ReadWriteMarks.of(contract.document);
  const webhooks = entries.flatMap(([name, item]) => {
    const webhook = readWebhook(contract, api, name, item, warnings);
    if (webhook?.schemaPointer !== undefined && marks?.reachesMarker(webhook.schemaPointer) === true) webhook.marked = true;
    return webhook === undefined ? [] : [webhook];
  });
  return webhooks.length === 0 ? undefined : { webhooks };
}

/** The operation that sends the webhook's body: POST when there is one, else the first with a body in method order. */
function readWebhook(contract: LoadedContract, api: ApiModel, name: string, raw: unknown, warnings: Warnings): WebhookModel | undefined {
  const { value: item, pointer: itemAt } = contract.deref<any>(raw, pointer("webhooks", name));
  // Not a path item (an `x-` flag among 3.0's `x-webhooks`): the struct rule has said so already.
  if (typeof item !== "object" || item === null || Array.isArray(item)) return undefined;
  if (!HTTP_METHODS.some((method) => item[method] !== undefined)) {
    // Written as a callback is (an expression keying the path item) or empty: nothing says what arrives.
    warnings.add("webhook:no-operation", itemAt, "a webhook without an operation (get, post…) gets no receiver");
    return undefined;
  }
  // A webhook that sends no body (a ping) has nothing to parse: no receiver, and nothing wrong.
  const withBody = HTTP_METHODS.filter((method) => item[method]?.requestBody !== undefined);
  const method = withBody.includes("post") ? "post" : withBody[0];
  if (method === undefined) return undefined;
  if (withBody.length > 1) {
    warnings.add("webhook:several-bodies", itemAt, `a webhook with a body on several operations is received as its ${method.toUpperCase()}'s`);
  }
  const operation = item[method];
  const at = `${itemAt}${pointer(method)}`;
  const body = readRequestBody(contract, operation.requestBody, at, warnings);
  if (body === undefined) return undefined;
  if (mediaTypeKind(body.mediaType) !== "json") {
    warnings.add("webhook:not-json", `${body.pointer}${pointer("content", body.mediaType)}`, "a webhook whose body is not JSON gets no receiver (its types stay in src/schema.ts)");
    return undefined;
  }
  return {
    name,
    method,
    pointer: at,
    summary: typeof operation.summary === "string" ? operation.summary : undefined,
    description: typeof operation.description === "string" ? operation.description : undefined,
    mediaType: body.mediaType,
    schemaPointer: body.schemaPointer,
    component: body.schemaPointer === undefined ? undefined : componentOf(contract, api, body.schemaPointer),
    ...(body.schemaPointer === undefined ? {} : casesOf(contract, body.schemaPointer)),
  };
}

/** The body's cases (see `WebhookModel.cases`), read from its schema's own `allOf`, through a `$ref`. */
function casesOf(contract: LoadedContract, schemaAt: string): Pick<WebhookModel, "cases"> {
  const { value: schema } = contract.deref<any>(contract.at(schemaAt), schemaAt);
  let property: string | undefined;
  const values: Array<{ value: string; field: string }> = [];
  for (const item of Array.isArray(schema?.allOf) ? schema.allOf : []) {
    const tested = Object.entries<any>(item?.if?.properties ?? {});
    const field = item?.then?.required?.[0];
    if (tested.length !== 1 || typeof field !== "string") continue;
    const [name, test] = tested[0]!;
    if (typeof test?.const !== "string" || (property !== undefined && name !== property)) continue;
    property = name;
    values.push({ value: test.const, field });
  }
  return property === undefined ? {} : { cases: { property, values } };
}

/** The component a schema is only a `$ref` to, if any. */
function componentOf(contract: LoadedContract, api: ApiModel, schemaAt: string): string | undefined {
  const schema = contract.at<Record<string, unknown>>(schemaAt);
  if (schema === undefined || Object.keys(schema).length !== 1 || typeof schema["$ref"] !== "string") return undefined;
  if (!schema["$ref"].startsWith("#/components/schemas/")) return undefined;
  const segments = parsePointer(schema["$ref"]);
  return segments.length === 3 && api.schemaNames.includes(segments[2]!) ? segments[2] : undefined;
}

/** The extension's part of a model, when the contract uses it. */
export function webhooksOf(api: Pick<ApiModel, "extensions">): WebhooksModel | undefined {
  return api.extensions.find((extension) => extension.name === NAME)?.model as WebhooksModel | undefined;
}
