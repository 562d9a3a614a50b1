/**
 * What the extension adds to `src/client.ts` and `src/operation-specs.ts`: the `ModelJobOptions`
 * type, the per-model calls on top of the operations each role marks (`runModel`, `getModelJob`…),
 * and, on a submitting operation called directly, the check of its `input` against the model named
 * in its path.
 */
import { Block, code, join, raw, type Code } from "../../emit/code.ts";
import { method, typeAlias, valueKey, type ImportSpec } from "../../emit/typescript.ts";
import type { OperationModel } from "../../model/types.ts";
import type { ModelEndpointsModel } from "./types.ts";

export function clientImports(model: ModelEndpointsModel): ImportSpec[] {
  return [
    ...(model.serverWait !== undefined ? [{ from: "./runtime/client-core.js", typeOnly: true, names: ["ServerWaitOptions"] }] : []),
    { from: "./models.js", typeOnly: true, names: ["ModelId", "ModelInput", "ModelJob"] },
  ];
}

/** `ModelJobOptions`: what a job's submission takes besides its `input`. */
export function clientDeclarations(model: ModelEndpointsModel): Block[] {
  if (model.jobOptionsOperation === undefined) return [];
  return [typeAlias("What a job's submission takes besides its `input` (the run body's other members), as `jobOptions`.", "ModelJobOptions", jobOptionsType(model.jobOptionsOperation))];
}

/** The members of a submitting operation's body besides `input`. */
function jobOptionsType(operation: OperationModel): Code {
  return code`Omit<NonNullable<${raw(operation.paramsType)}["body"]>, "input">`;
}

/** Typed per-model calls, each generic in the model id, which comes first. */
export function clientMethods(model: ModelEndpointsModel): Block[] {
  const methods: Block[] = [];
  const add = (name: string, docs: string, rest: readonly Code[], returns: Code, body: readonly Code[]) =>
    methods.push(method({ docs, modifiers: "async ", name, typeParameters: "M extends ModelId", parameters: join([raw("model: M"), ...rest], ", "), returns, body: new Block().add(...body) }));
  const pathNames = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path").map((p) => valueKey(p.name));
  const request = (operation: OperationModel, options: string) => code`return this.request(OPERATIONS.${raw(operation.methodName)}, params, ${raw(options)});`;

  const submit = (operation: OperationModel | undefined, name: string, docs: string) => {
    if (operation === undefined) return;
    const [modelParameter] = pathNames(operation);
    // A query parameter bounding the server's wait is filled from the call's timeout (ClientCore.serverWaitMs).
    const wait = operation === model.roles.runsync ? model.serverWait : undefined;
    const query = wait ? code`query: { ${valueKey(wait.parameter)}: this.serverWaitMs(requestOptions, ${raw(String(wait.minimum))}, ${raw(String(wait.maximum))}) }, ` : raw("");
    add(
      name,
      docs,
      [raw("input: ModelInput<M>"), code`options?: ${raw(wait ? "ServerWaitOptions" : "RequestOptions")} & { jobOptions?: ${jobOptionsType(operation)} | undefined }`],
      raw("Promise<ApiResult<ModelJob<M>>>"),
      // The model's input is checked by the operation's spec (checkModelInput), as for a direct call.
      [
        raw("const { jobOptions, ...requestOptions } = options ?? {};"),
        code`const params = { path: { ${modelParameter!}: model }, ${query}body: { ...jobOptions, input } } as unknown as ${raw(operation.paramsType)};`,
        request(operation, "requestOptions"),
      ],
    );
  };
  submit(model.roles.runsync, "runModelSync", "Runs a job on `model` and waits for it (`runsync`). `input` is typed for the known models; the result may still be unfinished when the service's wait limit is reached. `options.jobOptions` holds the body's other members.");
  submit(model.roles.run, "runModel", "Queues a job on `model` (`run`) and returns it at once with its id. `options.jobOptions` holds the body's other members.");

  // The operations on one job take the model id, then the job id.
  const onJob = (operation: OperationModel | undefined, name: string, docs: string, returns: string) => {
    if (operation === undefined) return;
    const [modelParameter, jobParameter] = pathNames(operation);
    add(name, docs, [raw("jobId: string"), raw("options?: RequestOptions")], raw(`Promise<ApiResult<${returns}>>`), [
      code`const params = { path: { ${modelParameter!}: model, ${jobParameter!}: jobId } } as unknown as ${raw(operation.paramsType)};`,
      request(operation, "options"),
    ]);
  };
  const { status, cancel, retry, stream } = model.roles;
  // The status is the job with the model's typed output; the others answer as their operation says.
  onJob(status, "getModelJob", "The job's current state (`status`), with the model's typed output once it has finished.", "ModelJob<M>");
  onJob(cancel, "cancelModelJob", "Cancels the job (`cancel`): queued or running, it ends `CANCELLED`; the answer is the job's state.", cancel?.responseType ?? "");
  onJob(retry, "retryModelJob", "Queues a `FAILED` or `TIMED_OUT` job again under the same id (`retry`), while the service keeps its results.", retry?.responseType ?? "");
  onJob(stream, "streamModelJob", "The partial outputs a running job has produced since the last call (`stream`).", stream?.responseType ?? "");

  // The operations on a model's endpoint as a whole take only the model id.
  const onEndpoint = (operation: OperationModel | undefined, name: string, docs: string) => {
    if (operation === undefined) return;
    const [modelParameter] = pathNames(operation);
    add(name, docs, [raw("options?: RequestOptions")], raw(`Promise<ApiResult<${operation.responseType}>>`), [
      code`const params = { path: { ${modelParameter!}: model } } as unknown as ${raw(operation.paramsType)};`,
      request(operation, "options"),
    ]);
  };
  onEndpoint(model.roles.health, "getModelHealth", "The model endpoint's jobs and workers, counted by state (`health`).");
  onEndpoint(model.roles["purge-queue"], "purgeModelQueue", "Removes every job of the model's endpoint that is still queued (`purge-queue`); running jobs go on.");
  return methods;
}

/**
 * For a submitting operation called directly: its `input` checked against the schema of the model
 * named in the path, as `runModel` does (the operation's own schema admits any model's input).
 */
export function operationSpecEntries(model: ModelEndpointsModel, operation: OperationModel): Code[] {
  if (operation !== model.roles.run && operation !== model.roles.runsync) return [];
  const modelParameter = operation.parameters.find((p) => p.in === "path")!;
  return [
    code`checkModelInput: (params: OperationParams) => { const model: unknown = (params.path as Record<string, unknown> | undefined)?.[${modelParameter.name}]; return typeof model === "string" ? $models.validateModelInput(model, (params.body as { input?: unknown } | undefined)?.input) : []; }`,
  ];
}

export const OPERATION_SPEC_IMPORTS: ImportSpec[] = [
  { from: "./runtime/client-core.js", typeOnly: true, names: ["OperationParams"] },
  { from: "./models.js", namespace: "$models" },
];
