/**
 * The webhooks extension's emit-stage side: `src/webhooks.ts`, the receivers of the contract's
 * webhooks (`parseWebhook(name, body)`, `webhookParser(name)`, the `WebhookEvents` map of their
 * types), on the runtime's `webhooks/` folder (copied only with the extension); the README gains
 * a section on receiving them.
 */
import { pointer } from "../../common/json-pointer.ts";
import { Block, code, join, raw, type Code } from "../../emit/code.ts";
import { constant, declaration, importStatement, interfaceDeclaration, moduleText, typeAlias, typeKey, valueKey, type ImportSpec } from "../../emit/typescript.ts";
import type { ValidatedSchema, ValidatorNames } from "../../emit/validators/index.ts";
import type { ApiModel } from "../../model/types.ts";
import type { EmitContext, ExtensionOutput } from "../output.ts";
import { readmeContribution } from "./readme.ts";
import { WEBHOOKS_EXTENSION, type WebhookModel, type WebhooksModel } from "./types.ts";

const RUNTIME = "./runtime/webhooks/index.js";

/** The schema each webhook's body is checked against, as the validators are asked for it. */
function validatedPointer(webhook: WebhookModel): string | undefined {
  return webhook.component !== undefined ? pointer("components", "schemas", webhook.component) : webhook.schemaPointer;
}

/** The webhook bodies the validators must check (a component's is the component's own validator). */
export function validatedWebhookBodies(model: WebhooksModel): ValidatedSchema[] {
  return model.webhooks.flatMap((webhook) => {
    const at = validatedPointer(webhook);
    return at === undefined ? [] : [{ pointer: at, name: `${webhook.name}Webhook` }];
  });
}

export function emitWebhooks(api: ApiModel, model: WebhooksModel, context: EmitContext): ExtensionOutput {
  return {
    files: [{ path: "src/webhooks.ts", contents: webhooksModule(model, context.validators) }],
    runtimeFolders: [WEBHOOKS_EXTENSION],
    client: { imports: [], declarations: [], methods: [] },
    operationSpecs: { imports: [], entries: () => [] },
    limitsNote: () => undefined,
    indexExports: [
      { from: "./webhooks.js", names: ["WEBHOOK_NAMES", "parseWebhook", "webhookParser"] },
      { from: "./webhooks.js", typeOnly: true, names: ["WebhookEvents", "WebhookName"] },
      { from: RUNTIME, names: ["WebhookError"] },
      { from: RUNTIME, typeOnly: true, names: ["WebhookBody", "WebhookFailure", "WebhookProblem"] },
    ],
    bin: undefined,
    readme: readmeContribution(api, model),
  };
}

function eventType(webhook: WebhookModel): Code {
  if (webhook.schemaPointer === undefined) return raw("unknown");
  const type =
    webhook.component !== undefined
      ? code`components["schemas"][${webhook.component}]`
      : code`NonNullable<webhooks[${webhook.name}][${webhook.method}]["requestBody"]>["content"][${webhook.mediaType}]`;
  return webhook.marked ? code`AsWritten<${type}>` : type;
}

function webhookDoc(webhook: WebhookModel, component: boolean): string {
  const checked = webhook.schemaPointer === undefined ? "any JSON (the contract gives no schema)" : component ? `checked against \`${webhook.component}\`` : "checked against its schema";
  const parts = [webhook.summary, webhook.description, `Its ${webhook.method.toUpperCase()} body, ${checked}.`];
  return parts.flatMap((part) => (part === undefined || part.trim() === "" ? [] : [part.trim()])).join("\n\n");
}

function webhooksModule(model: WebhooksModel, validators: ValidatorNames): string {
  const { webhooks } = model;
  const schemaTypes = [
    ...(webhooks.some((webhook) => webhook.component !== undefined) ? ["components"] : []),
    ...(webhooks.some((webhook) => webhook.component === undefined && webhook.schemaPointer !== undefined) ? ["webhooks"] : []),
    ...(webhooks.some((webhook) => webhook.marked) ? ["AsWritten"] : []),
  ];
  const imports: ImportSpec[] = [
    ...(schemaTypes.length > 0 ? [{ from: "./schema.js", typeOnly: true, names: schemaTypes }] : []),
    ...(webhooks.some((webhook) => validatedPointer(webhook) !== undefined) ? [{ from: "./validators.js", namespace: "$validators" }] : []),
    { from: RUNTIME, names: ["parseWebhookBody", "webhookSpec"] },
    { from: RUNTIME, typeOnly: true, names: ["WebhookBody", "WebhookSpec"] },
  ];
  const specs = new Block();
  for (const webhook of webhooks) {
    const at = validatedPointer(webhook);
    const validate = at === undefined ? raw("{}") : code`{ validate: $validators.${raw(`validate${validators.pointers.get(at)!}`)} }`;
    specs.add(code`${valueKey(webhook.name)}: ${validate},`);
  }
  const names = webhooks.map((webhook) => code`${webhook.name}`);
  return moduleText([
    [
      raw("/**"),
      raw(" * The receivers of the webhooks the API sends: a body in (text, bytes or a parsed value), the"),
      raw(" * typed event out once it is checked against the contract, else a WebhookError naming the"),
      raw(" * webhook and where the body fails (never the body itself)."),
      raw(" */"),
      ...imports.map(importStatement),
    ],
    [
      interfaceDeclaration(
        "Per webhook name, the event its body holds.",
        "WebhookEvents",
        webhooks.map((webhook) => ({ docs: webhookDoc(webhook, webhook.component !== undefined), name: typeKey(webhook.name).text, type: eventType(webhook) })),
      ),
    ],
    [typeAlias("A webhook this package receives.", "WebhookName", raw("keyof WebhookEvents"))],
    [constant("The webhooks this package receives, in the contract's order.", "WEBHOOK_NAMES", code`[${join(names, ", ")}]`, { type: raw("readonly WebhookName[]") })],
    [new Block().wrap(raw("const WEBHOOKS: { readonly [N in WebhookName]: WebhookSpec } = {"), specs, raw("};"))],
    [
      declaration(
        [
          "The body of webhook `name` (its text, its bytes, or the value a framework parsed), parsed and",
          "checked against the contract: the typed event. Throws a `WebhookError` for a name the package",
          "does not receive (`reason` `unknown_webhook`), a body that is not JSON (`not_json`) or one that",
          "breaks the contract (`invalid_body`, with each problem's pointer into the body).",
        ].join("\n"),
        raw("export function parseWebhook<N extends WebhookName>(name: N, body: WebhookBody): WebhookEvents[N] {"),
        new Block().add(raw("return parseWebhookBody(WEBHOOKS, name, body) as WebhookEvents[N];")),
      ),
    ],
    [
      declaration(
        "`parseWebhook` for one webhook: a function of the body alone. An unknown name throws here, at once.",
        raw("export function webhookParser<N extends WebhookName>(name: N): (body: WebhookBody) => WebhookEvents[N] {"),
        new Block().add(raw("webhookSpec(WEBHOOKS, name);"), raw("return (body) => parseWebhook(name, body);")),
      ),
    ],
  ]);
}
