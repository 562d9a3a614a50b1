/**
 * The pagination extension's emit-stage side: each paging operation's client method and standalone
 * function return `paginate(…)` (the runtime's `pagination/` folder, copied only with the
 * extension): a `PagePromise` of the first page that iterates every item, typed by the items the
 * schema gives; the README gains a section on paging.
 */
import { parsePointer } from "../../common/json-pointer.ts";
import { Block, code, join, raw, type Code } from "../../emit/code.ts";
import { hasParams, operationDoc, paramsRequired } from "../../emit/operation-docs.ts";
import { declaration, method, valueKey, type ImportSpec } from "../../emit/typescript.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import type { EmitContext, ExtensionOutput } from "../output.ts";
import { readmeContribution, strategySentence } from "./readme.ts";
import { PAGINATION_EXTENSION, type PagedOperation, type PaginationModel } from "./types.ts";

const RUNTIME = "./runtime/pagination/index.js";
/** `$`-prefixed: an operation's method or function may take any identifier, these included. */
const IMPORTS: ImportSpec[] = [
  { from: RUNTIME, names: ["paginate as $paginate"] },
  { from: RUNTIME, typeOnly: true, names: ["ItemsAt as $ItemsAt", "PagePromise as $PagePromise", "PaginationOptions as $PaginationOptions"] },
];

export function emitPagination(api: ApiModel, model: PaginationModel, _context: EmitContext): ExtensionOutput {
  const paged = new Map(model.operations.map((operation) => [operation.operationId, operation]));
  const of = (operation: OperationModel) => paged.get(operation.operationId);
  return {
    files: [],
    runtimeFolders: [PAGINATION_EXTENSION],
    client: { imports: IMPORTS, declarations: [], methods: [] },
    operationSpecs: { imports: [], entries: () => [] },
    operationCalls: {
      functionImports: IMPORTS,
      method: (operation) => {
        const paging = of(operation);
        if (paging === undefined) return undefined;
        return method({
          docs: pagedDoc(operation, paging),
          modifiers: "public ",
          name: operation.methodName,
          parameters: parametersOf(operation, raw(operation.paramsType)),
          returns: returnType(raw(operation.responseType), paging),
          body: new Block().add(callOf(operation, paging, raw("this"), code`OPERATIONS.${raw(operation.methodName)}`, raw(operation.responseType))),
        });
      },
      standalone: (operation, coreType) => {
        const paging = of(operation);
        if (paging === undefined) return undefined;
        const response = code`$client.${raw(operation.responseType)}`;
        const parameters = code`client: ${coreType}, ${parametersOf(operation, code`$client.${raw(operation.paramsType)}`)}`;
        return declaration(
          pagedDoc(operation, paging),
          code`export function ${raw(operation.methodName)}(${parameters}): ${returnType(response, paging)} {`,
          new Block().add(callOf(operation, paging, raw("client"), code`$operations.${raw(operation.methodName)}`, response)),
        );
      },
      example: (operation, call) => (of(operation) === undefined ? undefined : pagedExample(operation, call)),
    },
    limitsNote: () => undefined,
    indexExports: [{ from: RUNTIME, names: ["PagePromise", "paginate"] }, { from: RUNTIME, typeOnly: true, names: ["ItemsAt", "PageOfItems", "PaginationOptions", "PaginationSpec"] }],
    bin: undefined,
    readme: readmeContribution(api, model),
  };
}

function parametersOf(operation: OperationModel, paramsType: Code): Code {
  if (!hasParams(operation)) return raw("options?: $PaginationOptions");
  return code`params: ${paramsType}${raw(paramsRequired(operation) ? "" : " = {}")}, options?: $PaginationOptions`;
}

/** `$ItemsAt<ListThingsResponse, ["data"]>`: the items' type, from the response type and where the items are. */
function itemType(response: Code, paging: PagedOperation): Code {
  const path = parsePointer(paging.strategy.items).map((segment) => code`${segment}`);
  return code`$ItemsAt<${response}, [${join(path, ", ")}]>`;
}

function returnType(response: Code, paging: PagedOperation): Code {
  return code`$PagePromise<${response}, ${itemType(response, paging)}>`;
}

function callOf(operation: OperationModel, paging: PagedOperation, client: Code, spec: Code, response: Code): Code {
  const params = raw(hasParams(operation) ? "params" : "{}");
  return code`return $paginate<${response}, ${itemType(response, paging)}>(${client}, ${spec}, ${params}, options, ${specLiteral(paging)});`;
}

/** The runtime's `PaginationSpec` for the operation, its keys in a fixed order. */
function specLiteral(paging: PagedOperation): Code {
  const { strategy } = paging;
  const entries: Code[] = [code`kind: ${strategy.kind}`, code`items: ${strategy.items}`];
  for (const key of ["param", "cursor", "lastItem", "hasMore", "total", "totalPages", "next"] as const) {
    const value = strategy[key];
    if (value !== undefined) entries.push(code`${raw(key)}: ${value}`);
  }
  if (strategy.firstPage !== undefined) entries.push(code`firstPage: ${strategy.firstPage}`);
  const types = Object.entries(paging.queryTypes);
  if (types.length > 0) entries.push(code`queryTypes: { ${join(types.map(([name, type]) => code`${valueKey(name)}: ${type}`), ", ")} }`);
  return code`{ ${join(entries, ", ")} }`;
}

function pagedDoc(operation: OperationModel, paging: PagedOperation): string {
  return [
    operationDoc(operation, []),
    `Pages (${strategySentence(paging)}): \`await\` gives the first page as any call; \`for await\` over the call gives every item of every page, and \`.pages()\` each page. \`maxItems\`, \`maxPages\` and \`signal\` bound the iteration; each page is asked for as any call is (checks, hooks, retries).`,
  ].join("\n\n");
}

/** The README's example of a paging call: the first page, then every item up to a bound. */
function pagedExample(operation: OperationModel, call: string): string {
  // The call without arguments (`client.listX()`, `listX(core)`) gets empty parameters before its options.
  const bare = /\((core)?\)$/.exec(call);
  const bounded = bare ? `${call.slice(0, bare.index)}(${bare[1] ? "core, " : ""}${hasParams(operation) ? "{}, " : ""}{ maxItems: 100 })` : `${call.slice(0, -1)}, { maxItems: 100 })`;
  return [
    `const { data } = await ${call}; // the first page`,
    `for await (const item of ${bounded}) {`,
    "  console.log(item); // every item of every page, the first 100",
    "}",
  ].join("\n");
}
