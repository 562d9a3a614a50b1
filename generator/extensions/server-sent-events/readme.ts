/**
 * The extension's README section (`templates/package/server-sent-events/`): following an event
 * stream, resuming it, ending it, and which operations stream what.
 */
import { stringLiteral } from "../../common/escape.ts";
import { jsValue } from "../../emit/js-value.ts";
import { RenderedMarkdown } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";
import type { ServerSentEventsModel } from "./types.ts";

export function readmeContribution(api: ApiModel, model: ServerSentEventsModel): ReadmeContribution {
  const operations = model.operations.map((stream) => {
    const operation = api.operations.find((o) => o.operationId === stream.operationId)!;
    return {
      methodName: operation.methodName,
      route: `${operation.method.toUpperCase()} ${operation.path}`,
      data: stream.data.kind === "text" ? "text" : "JSON",
      schema: stream.data.kind === "json" ? stream.data.component : undefined,
      args: operation.exampleParams === undefined ? "" : jsValue(operation.exampleParams),
    };
  });
  const first = operations[0]!;
  const example = [
    `import { ${api.names.client}, TimeoutError } from ${stringLiteral(api.packageName)};`,
    "",
    `const client = new ${api.names.client}();`,
    ...(first.args === "" ? [] : [`const params = ${first.args};`]),
    "const options = { signal: AbortSignal.timeout(3_600_000), maxReconnects: 10, idleTimeoutMs: 120_000 };",
    "let lastEventId: string | undefined;",
    "let received = 0;",
    "try {",
    `  for await (const event of client.${first.methodName}(${first.args === "" ? "" : "params, "}options)) {`,
    "    lastEventId = event.id ?? lastEventId;",
    "    console.log(event.event, event.data);",
    '    if (event.event === "done" || ++received === 2) break; // closes the connection; without a break the loop follows the stream',
    "  }",
    "} catch (error) {",
    "  // After maxReconnects drops in a row without an event: resume later from where it stopped.",
    "  if (error instanceof TimeoutError) console.log(`stalled; resume with { lastEventId: ${JSON.stringify(lastEventId)} }`);",
    "  else throw error;",
    "}",
  ].join("\n");
  return {
    contents: [{ title: "Event streams", anchor: "event-streams" }],
    sections: new RenderedMarkdown(renderTemplate("server-sent-events/sections.md.hbs", { operations, example }).replace(/\n$/, "")),
    errors: undefined,
    exportRows: undefined,
    exampleImports: [],
    exampleLines: [],
  };
}
