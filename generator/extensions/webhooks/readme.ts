/**
 * The extension's README parts (`templates/package/webhooks/`): receiving a webhook, with an
 * example handler for the first one (switching on its cases when the contract states them), its
 * sentence in Errors and its row in Other exports.
 */
import { stringLiteral } from "../../common/escape.ts";
import { RenderedMarkdown } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import { isIdentifierName } from "../../emit/validators/property-access.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";
import type { WebhookModel, WebhooksModel } from "./types.ts";

export function readmeContribution(api: ApiModel, model: WebhooksModel): ReadmeContribution {
  const webhooks = model.webhooks.map((webhook) => ({
    name: webhook.name,
    method: webhook.method.toUpperCase(),
    summary: webhook.summary ?? firstLine(webhook.description) ?? "",
    checked: webhook.schemaPointer === undefined ? "any JSON" : webhook.component === undefined ? "its schema" : webhook.component,
    component: webhook.component !== undefined,
  }));
  const data = { webhooks, example: example(api, model.webhooks[0]!) };
  const render = (file: string) => new RenderedMarkdown(renderTemplate(`webhooks/${file}`, data).replace(/\n$/, ""));
  return {
    contents: [{ title: "Webhooks", anchor: "webhooks" }],
    sections: render("sections.md.hbs"),
    errors: render("errors.md.hbs"),
    exportRows: render("export-rows.md.hbs"),
    exampleImports: [],
    exampleLines: [],
  };
}

function firstLine(text: string | undefined): string | undefined {
  return text?.trim().split("\n")[0]?.trim() || undefined;
}

function access(property: string): string {
  return isIdentifierName(property) ? `.${property}` : `[${stringLiteral(property)}]`;
}

/** A fetch-style handler that receives the webhook and, where its contract states cases, switches on them. */
function example(api: ApiModel, webhook: WebhookModel): string {
  const cases = webhook.cases;
  const handle = cases === undefined
    ? ["    console.log(event);"]
    : [
        `    switch (event${access(cases.property)}) {`,
        ...cases.values.flatMap(({ value, field }) => [`      case ${stringLiteral(value)}:`, `        console.log(event${access(field)});`, "        break;"]),
        "      default:",
        `        console.log(event${access(cases.property)});`,
        "    }",
      ];
  return [
    `import { WebhookError, parseWebhook } from ${stringLiteral(api.packageName)};`,
    "",
    "// A fetch-style handler (a Next.js route, Hono, Bun.serve, Deno.serve, a Worker) at the URL the API posts to.",
    "async function receiveWebhook(request: Request): Promise<Response> {",
    "  try {",
    `    const event = parseWebhook(${stringLiteral(webhook.name)}, await request.text());`,
    ...handle,
    "    return new Response(null, { status: 200 });",
    "  } catch (error) {",
    "    // Its message names the webhook and where the body fails, never the body: fit to log and to answer.",
    "    if (error instanceof WebhookError) return new Response(error.message, { status: 400 });",
    "    throw error;",
    "  }",
    "}",
  ].join("\n");
}
