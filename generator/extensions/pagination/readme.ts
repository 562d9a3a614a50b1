/**
 * The extension's README section (`templates/package/pagination/`): iterating a paging operation's
 * items and pages, what bounds it, what ends it, and how each operation pages.
 */
import { stringLiteral } from "../../common/escape.ts";
import { hasParams } from "../../emit/operation-docs.ts";
import { jsValue } from "../../emit/js-value.ts";
import { RenderedMarkdown } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";
import type { PagedOperation, PaginationModel } from "./types.ts";

/**
 * How an operation pages, in a few words (`cursor: starting_after from the last item's /id, until
 * /has_more is false`); `quote` marks what comes from the contract (a code span in a doc comment).
 */
export function strategySentence(paging: PagedOperation, quote: (text: string) => string = (text) => `\`${text}\``): string {
  const { strategy: s } = paging;
  const q = (text: string | undefined) => quote(text ?? "");
  switch (s.kind) {
    case "cursor":
      return `cursor: sets ${q(s.param)} to ${s.lastItem === undefined ? `the body's ${q(s.cursor)}` : `the last item's ${q(s.lastItem)}`}${s.hasMore === undefined ? "" : `, until ${q(s.hasMore)} is false`}`;
    case "page":
      return `page: counts ${q(s.param)} from ${s.firstPage ?? 1}${s.totalPages !== undefined ? `, up to ${q(s.totalPages)} pages` : s.total !== undefined ? `, up to ${q(s.total)} items` : ""}`;
    case "offset":
      return `offset: moves ${q(s.param)} on by each page's length${s.total === undefined ? "" : `, up to ${q(s.total)} items`}`;
    case "link":
      return `link: the ${quote("Link")} header's ${quote('rel="next"')}`;
    case "next-url":
      return `next URL: the body's ${q(s.next)}`;
  }
}

export function readmeContribution(api: ApiModel, model: PaginationModel): ReadmeContribution {
  const operations = model.operations.map((paging) => {
    const operation = api.operations.find((o) => o.operationId === paging.operationId)!;
    return {
      methodName: operation.methodName,
      route: `${operation.method.toUpperCase()} ${operation.path}`,
      strategy: strategySentence(paging, (text) => text),
      items: paging.strategy.items === "" ? undefined : paging.strategy.items,
      operation,
    };
  });
  const first = operations[0]!;
  const args = first.operation.exampleParams === undefined ? (hasParams(first.operation) ? "{}" : "") : jsValue(first.operation.exampleParams);
  const call = (options: string) => `client.${first.methodName}(${[args, options].filter(Boolean).join(", ")})`;
  const example = [
    `import { ${api.names.client} } from ${stringLiteral(api.packageName)};`,
    "",
    `const client = new ${api.names.client}();`,
    "",
    `const { data } = await ${call("")}; // one page, as any call`,
    "",
    "const signal = AbortSignal.timeout(60_000);",
    `for await (const item of ${call("{ maxItems: 250, signal }")}) {`,
    "  console.log(item); // each item of each page, in order, at most 250",
    "}",
    "",
    `for await (const page of ${call("{ maxPages: 3 }")}.pages()) {`,
    "  console.log(page.items.length, page.result.status, page.result.rateLimit);",
    "}",
  ].join("\n");
  return {
    contents: [{ title: "Pages", anchor: "pages" }],
    sections: new RenderedMarkdown(renderTemplate("pagination/sections.md.hbs", { operations, example }).replace(/\n$/, "")),
    errors: undefined,
    exportRows: undefined,
    exampleImports: [],
    exampleLines: [],
  };
}
