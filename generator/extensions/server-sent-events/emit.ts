/**
 * The server-sent-events extension's emit-stage side: each event-stream operation's client method
 * and standalone function return `streamEvents(…)` (the runtime's `server-sent-events/` folder,
 * copied only with the extension), typed by its event schema; `eventsource-parser` becomes a
 * dependency of the package; the README gains a section on following streams.
 */
import { pointer } from "../../common/json-pointer.ts";
import { Block, code, join, raw, type Code } from "../../emit/code.ts";
import { hasParams, operationDoc, paramsRequired } from "../../emit/operation-docs.ts";
import { method, declaration, type ImportSpec } from "../../emit/typescript.ts";
import type { ValidatorNames } from "../../emit/validators/index.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import type { EmitContext, ExtensionOutput } from "../output.ts";
import { readmeContribution } from "./readme.ts";
import { SERVER_SENT_EVENTS_EXTENSION, type EventData, type EventStreamOperation, type ServerSentEventsModel } from "./types.ts";

const RUNTIME = "./runtime/server-sent-events/index.js";
/** `$`-prefixed: an operation's method or function may take any identifier, these included. */
const IMPORTS: ImportSpec[] = [
  { from: RUNTIME, names: ["streamEvents as $streamEvents"] },
  { from: RUNTIME, typeOnly: true, names: ["EventStreamOptions as $EventStreamOptions", "ServerSentEvent as $ServerSentEvent"] },
];

export function emitServerSentEvents(api: ApiModel, model: ServerSentEventsModel, context: EmitContext): ExtensionOutput {
  const streams = new Map(model.operations.map((stream) => [stream.operationId, stream]));
  const of = (operation: OperationModel) => streams.get(operation.operationId);
  const needs = needsOf(model, context.validators);
  // An event's data is checked by its component's validator: typed as that schema is written.
  const marked = (data: EventData) => data.kind === "json" && data.component !== undefined && api.markedSchemas.has(pointer("components", "schemas", data.component));
  const returnType = (data: EventData) => code`AsyncGenerator<$ServerSentEvent<${marked(data) ? code`$AsWritten<${dataType(data)}>` : dataType(data)}>, void, undefined>`;
  // With `--dates date`, each typed event's data has its dates converted as a body's are.
  const dates = new Map(model.operations.map((stream) => [stream.operationId, stream.data.kind === "json" && stream.data.component !== undefined ? context.dates?.schema(stream.data.component) : undefined]));
  const imports: ImportSpec[] = [
    ...(needs.components ? [{ from: "./schema.js", typeOnly: true, names: ["components as $components", ...(model.operations.some((s) => marked(s.data)) ? ["AsWritten as $AsWritten"] : [])] }] : []),
    ...(needs.validators ? [{ from: "./validators.js", namespace: "$validators" }] : []),
    ...([...dates.values()].some((conversion) => conversion !== undefined) ? [{ from: "./dates.js", namespace: "$dates" }] : []),
    ...IMPORTS,
  ];
  return {
    files: [],
    runtimeFolders: [SERVER_SENT_EVENTS_EXTENSION],
    client: { imports, declarations: [], methods: [] },
    operationSpecs: { imports: [], entries: () => [] },
    operationCalls: {
      functionImports: imports,
      method: (operation) => {
        const stream = of(operation);
        if (stream === undefined) return undefined;
        return method({
          docs: streamDoc(operation, stream),
          modifiers: "public ",
          name: operation.methodName,
          parameters: parametersOf(operation, raw(operation.paramsType)),
          returns: returnType(stream.data),
          body: new Block().add(callOf(operation, stream, context.validators, raw("this"), code`OPERATIONS.${raw(operation.methodName)}`, dates.get(operation.operationId))),
        });
      },
      standalone: (operation, coreType) => {
        const stream = of(operation);
        if (stream === undefined) return undefined;
        const parameters = code`client: ${coreType}, ${parametersOf(operation, code`$client.${raw(operation.paramsType)}`)}`;
        return declaration(
          streamDoc(operation, stream),
          code`export function ${raw(operation.methodName)}(${parameters}): ${returnType(stream.data)} {`,
          new Block().add(callOf(operation, stream, context.validators, raw("client"), code`$operations.${raw(operation.methodName)}`, dates.get(operation.operationId))),
        );
      },
      example: (operation, call) => (of(operation) === undefined ? undefined : `for await (const event of ${call}) {\n  console.log(event.id, event.event, event.data);\n  break; // the first event only: without the break the loop follows the stream\n}`),
    },
    dependencies: ["eventsource-parser"],
    limitsNote: () => undefined,
    indexExports: [{ from: RUNTIME, names: ["DEFAULT_MAX_RECONNECTS", "streamEvents"] }, { from: RUNTIME, typeOnly: true, names: ["EventDataSpec", "EventStreamOptions", "ServerSentEvent"] }],
    bin: undefined,
    readme: readmeContribution(api, model),
  };
}

/** Which of the modules the calls name: the schema's components (a typed event) and the validators (a checked one). */
function needsOf(model: ServerSentEventsModel, validators: ValidatorNames): { components: boolean; validators: boolean } {
  const components = model.operations.filter((stream) => stream.data.kind === "json" && stream.data.component !== undefined);
  return {
    components: components.length > 0,
    validators: components.some((stream) => stream.data.kind === "json" && validators.schemas.has(stream.data.component!)),
  };
}

function parametersOf(operation: OperationModel, paramsType: Code): Code {
  if (!hasParams(operation)) return raw("options?: $EventStreamOptions");
  return code`params: ${paramsType}${raw(paramsRequired(operation) ? "" : " = {}")}, options?: $EventStreamOptions`;
}

function dataType(data: EventData): Code {
  if (data.kind === "text") return raw("string");
  return data.component === undefined ? raw("unknown") : code`$components["schemas"][${data.component}]`;
}

function callOf(operation: OperationModel, stream: EventStreamOperation, validators: ValidatorNames, client: Code, spec: Code, dates: Code | undefined): Code {
  const params = raw(hasParams(operation) ? "params" : "{}");
  const stem = stream.data.kind === "json" && stream.data.component !== undefined ? validators.schemas.get(stream.data.component) : undefined;
  const entries = [raw("json: true"), ...(stem === undefined ? [] : [code`validate: $validators.${raw(`validate${stem}`)}`]), ...(dates === undefined ? [] : [code`dates: ${dates}`])];
  const dataSpec = stream.data.kind === "text" ? raw("{ json: false }") : code`{ ${join(entries, ", ")} }`;
  return code`return $streamEvents(${client}, ${spec}, ${params}, options, ${dataSpec});`;
}

function streamDoc(operation: OperationModel, stream: EventStreamOperation): string {
  const data =
    stream.data.kind === "text"
      ? "Each event's `data` is its text."
      : stream.data.component === undefined
        ? "Each event's `data` is parsed as JSON."
        : `Each event's \`data\` is parsed as JSON and checked against \`${stream.data.component}\`.`;
  return [
    operationDoc(operation, []),
    `An event stream: iterate it with \`for await\`. ${data} A dropped connection is resumed with \`Last-Event-ID\` (\`maxReconnects\` in a row, waits from the server's \`retry\`); 204 ends it; \`break\` or \`options.signal\` closes it.`,
  ].join("\n\n");
}
