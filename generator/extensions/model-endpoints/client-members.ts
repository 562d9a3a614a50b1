/**
 * The per-model calls (`runModel`, `getModelJob`…), on top of the operations each role marks:
 * standalone functions of the client's core in `src/model-calls.ts` (what the job helpers call, so
 * an app that runs jobs bundles only the job operations), one-line methods of the client class
 * calling them, the `ModelJobOptions` type, and, on a submitting operation called directly, the
 * check of its `input` against the model named in its path.
 */
import { Block, code, join, raw, type Code } from "../../emit/code.ts";
import { declaration, importStatement, method, moduleText, typeAlias, valueKey, type ImportSpec } from "../../emit/typescript.ts";
import type { ApiModel, OperationModel } from "../../model/types.ts";
import type { ModelEndpointsModel } from "./types.ts";

/** One per-model call: its name, doc, parameters after the model id, return type, and body (reading `client`). */
interface ModelCall {
  name: string;
  docs: string;
  parameters: Code[];
  returns: Code;
  body: Code[];
  /** The arguments the method passes on after `this, model`. */
  arguments: string;
  /** The names of `src/client.ts` it uses. */
  types: string[];
}

function modelCalls(part: ModelEndpointsModel): ModelCall[] {
  const calls: ModelCall[] = [];
  const pathNames = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path").map((p) => valueKey(p.name));
  const send = (operation: OperationModel, options: string) => code`return ClientCore.send(client, $operations.${raw(operation.methodName)}, params, ${raw(options)});`;

  const submit = (operation: OperationModel | undefined, name: string, docs: string) => {
    if (operation === undefined) return;
    const [modelParameter] = pathNames(operation);
    // A query parameter bounding the server's wait is filled from the call's timeout (runtime/model-endpoints/server-wait.ts).
    const wait = operation === part.roles.runsync ? part.serverWait : undefined;
    const query = wait ? code`query: { ${valueKey(wait.parameter)}: serverWaitMs(client, requestOptions, ${wait.minimum}, ${wait.maximum}) }, ` : raw("");
    calls.push({
      name,
      docs,
      parameters: [raw("input: ModelInput<M>"), code`options?: ${raw(wait ? "ServerWaitOptions" : "RequestOptions")} & { jobOptions?: ${jobOptionsType(operation)} | undefined }`],
      returns: raw("Promise<ApiResult<ModelJob<M>>>"),
      // The model's input is checked by the operation's spec (checkModelInput), as for a direct call.
      body: [
        raw("const { jobOptions, ...requestOptions } = options ?? {};"),
        code`const params = { path: { ${modelParameter!}: model }, ${query}body: { ...jobOptions, input } } as unknown as ${raw(operation.paramsType)};`,
        send(operation, "requestOptions"),
      ],
      arguments: "input, options",
      types: [operation.paramsType],
    });
  };
  submit(part.roles.runsync, "runModelSync", "Runs a job on `model` and waits for it (`runsync`). `input` is typed for the known models; the result may still be unfinished when the service's wait limit is reached. `options.jobOptions` holds the body's other members.");
  submit(part.roles.run, "runModel", "Queues a job on `model` (`run`) and returns it at once with its id. `options.jobOptions` holds the body's other members.");

  // The operations on one job take the model id, then the job id.
  const onJob = (operation: OperationModel | undefined, name: string, docs: string, returns: string) => {
    if (operation === undefined) return;
    const [modelParameter, jobParameter] = pathNames(operation);
    calls.push({
      name,
      docs,
      parameters: [raw("jobId: string"), raw("options?: RequestOptions")],
      returns: raw(`Promise<ApiResult<${returns}>>`),
      body: [code`const params = { path: { ${modelParameter!}: model, ${jobParameter!}: jobId } } as unknown as ${raw(operation.paramsType)};`, send(operation, "options")],
      arguments: "jobId, options",
      types: [operation.paramsType, ...(operation === status ? [] : [operation.responseType])],
    });
  };
  const { status, cancel, retry, stream } = part.roles;
  // The status is the job with the model's typed output; the others answer as their operation says.
  onJob(status, "getModelJob", "The job's current state (`status`), with the model's typed output once it has finished.", "ModelJob<M>");
  onJob(cancel, "cancelModelJob", "Cancels the job (`cancel`): queued or running, it ends `CANCELLED`; the answer is the job's state.", cancel?.responseType ?? "");
  onJob(retry, "retryModelJob", "Queues a `FAILED` or `TIMED_OUT` job again under the same id (`retry`), while the service keeps its results.", retry?.responseType ?? "");
  onJob(stream, "streamModelJob", "The partial outputs a running job has produced since the last call (`stream`).", stream?.responseType ?? "");

  // The operations on a model's endpoint as a whole take only the model id.
  const onEndpoint = (operation: OperationModel | undefined, name: string, docs: string) => {
    if (operation === undefined) return;
    const [modelParameter] = pathNames(operation);
    calls.push({
      name,
      docs,
      parameters: [raw("options?: RequestOptions")],
      returns: raw(`Promise<ApiResult<${operation.responseType}>>`),
      body: [code`const params = { path: { ${modelParameter!}: model } } as unknown as ${raw(operation.paramsType)};`, send(operation, "options")],
      arguments: "options",
      types: [operation.paramsType, operation.responseType],
    });
  };
  onEndpoint(part.roles.health, "getModelHealth", "The model endpoint's jobs and workers, counted by state (`health`).");
  onEndpoint(part.roles["purge-queue"], "purgeModelQueue", "Removes every job of the model's endpoint that is still queued (`purge-queue`); running jobs go on.");
  return calls;
}

/** The members of a submitting operation's body besides `input`. */
function jobOptionsType(operation: OperationModel): Code {
  return code`Omit<NonNullable<${raw(operation.paramsType)}["body"]>, "input">`;
}

/** `src/model-calls.ts`: each per-model call as a function of the client's core. */
export function emitModelCallsModule(api: ApiModel, part: ModelEndpointsModel): string {
  const calls = modelCalls(part);
  const functions = calls.map((call) =>
    declaration(
      call.docs,
      code`export function ${raw(call.name)}<M extends ModelId>(${join([code`client: ${raw(api.names.core)}`, raw("model: M"), ...call.parameters], ", ")}): ${call.returns} {`,
      new Block().add(...call.body),
    ),
  );
  const clientTypes = [api.names.core, ...new Set(calls.flatMap((call) => call.types))];
  return moduleText([
    [
      importStatement({ from: "./runtime/client-core.js", names: ["ClientCore"] }),
      importStatement({ from: "./runtime/client-core.js", typeOnly: true, names: ["ApiResult", "RequestOptions"] }),
      ...(part.serverWait !== undefined
        ? [importStatement({ from: "./runtime/model-endpoints/server-wait.js", names: ["serverWaitMs"] }), importStatement({ from: "./runtime/model-endpoints/server-wait.js", typeOnly: true, names: ["ServerWaitOptions"] })]
        : []),
      importStatement({ from: "./client.js", typeOnly: true, names: clientTypes }),
      importStatement({ from: "./models.js", typeOnly: true, names: ["ModelId", "ModelInput", "ModelJob"] }),
      importStatement({ from: "./operation-specs.js", namespace: "$operations" }),
    ],
    ...functions.map((f) => [f]),
  ]);
}

export function clientImports(part: ModelEndpointsModel): ImportSpec[] {
  return [
    ...(part.serverWait !== undefined ? [{ from: "./runtime/model-endpoints/server-wait.js", typeOnly: true, names: ["ServerWaitOptions"] }] : []),
    { from: "./models.js", typeOnly: true, names: ["ModelId", "ModelInput", "ModelJob"] },
    { from: "./model-calls.js", namespace: "$modelCalls" },
  ];
}

/** `ModelJobOptions`: what a job's submission takes besides its `input`. */
export function clientDeclarations(part: ModelEndpointsModel): Block[] {
  if (part.jobOptionsOperation === undefined) return [];
  return [typeAlias("What a job's submission takes besides its `input` (the run body's other members), as `jobOptions`.", "ModelJobOptions", jobOptionsType(part.jobOptionsOperation))];
}

/** The client's per-model methods, each calling its function of `src/model-calls.ts`. */
export function clientMethods(part: ModelEndpointsModel): Block[] {
  return modelCalls(part).map((call) =>
    method({
      docs: call.docs,
      modifiers: "async ",
      name: call.name,
      typeParameters: "M extends ModelId",
      parameters: join([raw("model: M"), ...call.parameters], ", "),
      returns: call.returns,
      body: new Block().add(code`return $modelCalls.${raw(call.name)}(this, model, ${raw(call.arguments)});`),
    }),
  );
}

/**
 * For a submitting operation called directly: its `input` checked against the schema of the model
 * named in the path, as `runModel` does (the operation's own schema admits any model's input).
 */
export function operationSpecEntries(part: ModelEndpointsModel, operation: OperationModel): Code[] {
  if (operation !== part.roles.run && operation !== part.roles.runsync) return [];
  const modelParameter = operation.parameters.find((p) => p.in === "path")!;
  return [
    code`checkParams: (params: OperationParams) => $models.checkModelInput((params.path as Record<string, unknown> | undefined)?.[${modelParameter.name}], (params.body as { input?: unknown } | undefined)?.input, "/body/input")`,
  ];
}

export const OPERATION_SPEC_IMPORTS: ImportSpec[] = [
  { from: "./runtime/client-core.js", typeOnly: true, names: ["OperationParams"] },
  { from: "./models.js", namespace: "$models" },
];
