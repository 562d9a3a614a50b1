/**
 * `src/client.ts`: one class with a one-line method per operation, built with ts-morph. Every piece
 * of contract text goes through the escaping helpers: descriptions through `docComment`, values
 * through `stringLiteral`, names through `identifier` and `propertyKey`.
 */
import type { ClassDeclarationStructure, ImportDeclarationStructure, MethodDeclarationStructure, OptionalKind, TypeAliasDeclarationStructure } from "ts-morph";
import { BLANK_LINE, printStatements, type PrintableStatement } from "./print.ts";
import { Scope, StructureKind, VariableDeclarationKind } from "./ts-morph.ts";
import { ContractError } from "../common/errors.ts";
import { docComment, identifier, propertyKey, propertyKeyForValue, stringLiteral } from "../common/escape.ts";
import { coreClassName, runtimeExports, schemaAliases } from "./types.ts";
import { jobOptionsOperation, runsyncServerWait, type ApiModel, type ModelRole, type OperationModel } from "../model/index.ts";
import type { ValidatorNames } from "./validators/operation-validators.ts";
import type { SecurityModel, SecurityRequirement } from "../model/security.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import { describeRequestLimits } from "../model/request-limits.ts";

/** Exported names of the client module, for the index and the README. */
/** Global names the generated modules use: a client class may not shadow them. */
const GLOBALS_USED = ["Promise", "Record", "Readonly", "Partial", "Array", "Object", "Error", "String", "Number", "Boolean", "Date", "Map", "Set", "JSON", "Math", "URL", "Response", "Request", "Headers", "AbortSignal", "Blob", "FormData"];

/**
 * The client's class name, from the package name (`gpu-cloud-client` → `GpuCloudClient`); one that
 * would clash, or whose core class would (`client` → `ClientCore`), with a runtime export or a
 * global the generated code uses gets a `Client` suffix.
 */
export function clientClassName(api: ApiModel): string {
  const name = identifier(api.packageName.replace(/^@[^/]+\//, ""), { case: "pascal" });
  const taken = (candidate: string) => GLOBALS_USED.includes(candidate) || runtimeExports().includes(candidate);
  return taken(name) || taken(coreClassName(name)) ? `${name}Client` : name;
}

/**
 * The name the package exports the runtime's base error under (GpuCloudClient → GpuCloudError), so
 * that the brand comes from the contract; `${className}Error` when another export has that name,
 * else the runtime's own `SdkError`.
 */
export function baseErrorName(api: ApiModel, className: string): string {
  const taken = new Set([...runtimeExports(), ...schemaAliases(api, className), className, `${className}Options`]);
  return [`${className.replace(/Client$/, "")}Error`, `${className}Error`].find((name) => !taken.has(name)) ?? "SdkError";
}

/** The module's text: ts-morph structures, printed by print.ts (they grow with the contract). */
export function emitClient(api: ApiModel, validators?: ValidatorNames): string {
  const statements: PrintableStatement[] = [];
  const className = clientClassName(api);
  const hasModels = api.modelEndpoints.length > 0 && api.operations.some((o) => o.modelRole);
  const hasOperations = api.operations.length > 0;

  const imports: Array<Omit<ImportDeclarationStructure, "kind">> = [
    { moduleSpecifier: "./runtime/client-core.js", namedImports: ["ClientCore"] },
    {
      moduleSpecifier: "./runtime/client-core.js",
      isTypeOnly: true,
      namedImports: hasOperations
        ? ["ApiResult", "CoreOptions", "RequestOptions", ...(hasModels && runsyncServerWait(api) !== undefined ? ["ServerWaitOptions"] : [])]
        : ["CoreOptions"],
    },
    // A document without operations (webhooks only) has no operation types to take from the schema.
    ...(hasOperations ? [{ moduleSpecifier: "./schema.js", isTypeOnly: true, namedImports: ["paths"] }] : []),
  ];
  const { security } = api;
  const credentialOptions = security.schemes.flatMap((scheme) => scheme.options.map((option) => ({ scheme, option })));
  if (credentialOptions.length > 0) {
    const usesTokens = security.schemes.some((s) => s.kind === "token");
    imports.push({ moduleSpecifier: "./runtime/auth.js", isTypeOnly: true, namedImports: [...(usesTokens ? ["AccessToken"] : []), "AuthSpec"] });
  }
  if (api.operations.some(hasBinaryBody)) imports.push({ moduleSpecifier: "./runtime/body.js", isTypeOnly: true, namedImports: ["BinaryBody"] });
  if (hasModels) {
    imports.push({ moduleSpecifier: "./models.js", isTypeOnly: true, namedImports: ["ModelId", "ModelInput", "ModelJob"] });
  }
  // Response validators live in their own module, imported only when validateResponses is on.
  const hasResponseValidators = validators !== undefined && api.operations.some((o) => validators.operations.get(o.operationId)?.response);
  // Each operation's spec (its request validator with it) is an export of its own, so bundlers keep only those called.
  if (hasOperations) imports.push({ moduleSpecifier: "./operation-specs.js", namespaceImport: "OPERATIONS" });

  statements.push(...imports.map((declaration): ImportDeclarationStructure => ({ kind: StructureKind.ImportDeclaration, ...declaration })));
  statements.push({
    kind: StructureKind.Interface,
    name: `${className}Options`,
    isExported: true,
    extends: ["CoreOptions"],
    docs: [optionsDoc(className, security)],
    properties: [
      ...credentialOptions.map(({ scheme, option }) => ({
        name: option.name,
        hasQuestionToken: true,
        type: scheme.kind === "token" ? "AccessToken | undefined" : "string | undefined",
        docs: [docComment(credentialDoc(scheme, option))],
      })),
      ...api.servers.map((server) => ({
      name: server.key,
      hasQuestionToken: true,
      // `| undefined`: with exactOptionalPropertyTypes, `{ baseUrl: process.env.X }` still compiles.
      type: "string | undefined",
      docs: [
        docComment(
          server.relative
            ? `${sentence(server.description ?? "Base URL")} Required outside a browser (or the \`${server.envVar}\` environment variable): the contract's server is relative (${server.url}).`
            : `${sentence(server.description ?? "Base URL")} Default: the \`${server.envVar}\` environment variable, else ${server.defaultUrl}`,
        ),
      ],
      })),
    ],
  });
  if (credentialOptions.length > 0) {
    statements.push({
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: ["The contract's security schemes, where each credential comes from, and the requirement operations share."],
      declarations: [{ name: "AUTH", initializer: authLiteral(security) }],
    });
  }

  // Groups of statements apart, as in a file written by hand.
  statements.push(BLANK_LINE, ...api.operations.flatMap(operationTypes).map((alias): TypeAliasDeclarationStructure => ({ kind: StructureKind.TypeAlias, ...alias })), BLANK_LINE);
  const submitting = hasModels ? jobOptionsOperation(api) : undefined;
  if (submitting) {
    statements.push(
      {
        kind: StructureKind.TypeAlias,
        name: "ModelJobOptions",
        isExported: true,
        docs: ["What a job's submission takes besides its `input` (the run body's other members), as `jobOptions`."],
        type: jobOptionsType(submitting),
      },
      BLANK_LINE,
    );
  }

  // The core holds the configuration; the client adds one method per operation. An app that calls
  // operations through the standalone functions (`<package>/operations`) bundles the core only.
  const coreDeclaration: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    name: coreClassName(className),
    isExported: true,
    extends: "ClientCore",
    docs: [docComment(`The configuration of a ${api.title} client, without its methods: the first argument of the standalone operation functions (\`${api.packageName}/operations\`). \`${className}\` is one too.`)],
    ctors: [
      {
        parameters: [{ name: "options", type: `${className}Options`, initializer: "{}" }],
        statements: [
          // A document without servers (webhooks only) or credentials has nothing but `core` to take out.
          `const { ${[...credentialOptions.map((c) => c.option.name), ...api.servers.map((s) => s.key), "...core"].join(", ")} } = options;`,
          superCall(api, credentialOptions.map((c) => c.option.name), hasResponseValidators),
        ],
      },
    ],
  };

  const classDeclaration: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    extends: coreClassName(className),
    docs: [docComment(`${api.title} (version ${api.version}).\n\n${api.description ?? ""}`)],
  };
  classDeclaration.methods = api.operations.map((operation): OptionalKind<MethodDeclarationStructure> => {
    const names = typeNames(operation);
    const optional = !paramsRequired(operation);
    return {
      name: operation.methodName,
      scope: Scope.Public,
      docs: [operationDoc(operation)],
      parameters: [
        ...(hasParams(operation)
          ? [{ name: "params", type: names.params, ...(optional ? { initializer: "{}" } : {}) }]
          : []),
        { name: "options", type: "RequestOptions", hasQuestionToken: true },
      ],
      returnType: `Promise<ApiResult<${names.response}>>`,
      statements: [`return this.request(OPERATIONS.${operation.methodName}, ${hasParams(operation) ? "params" : "{}"}, options);`],
    };
  });

  if (hasModels) classDeclaration.methods.push(...modelMethods(api));
  statements.push(coreDeclaration, BLANK_LINE, classDeclaration);
  return printStatements(statements);
}

/** `text` ending as a sentence does, so that another can follow it. */
function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?:)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The constructor's call of ClientCore's: the options it was given, the contract's defaults. */
function superCall(api: ApiModel, credentials: readonly string[], hasResponseValidators: boolean): string {
  const given = credentials.length > 0 ? `, credentials: ${objectText(credentials)}` : "";
  return [
    "super(",
    `  { ...core, servers: ${objectText(api.servers.map((s) => s.key))}${given} },`,
    "  {",
    `    servers: ${objectText(api.servers.map((s) => `${s.key}: ${stringLiteral(s.defaultUrl)}`))},`,
    `    serverVariables: ${objectText(api.servers.map((s) => `${s.key}: ${stringLiteral(s.envVar)}`))},`,
    `    logVariable: ${stringLiteral(api.logEnvVar)},`,
    ...(credentials.length > 0 ? ["    auth: AUTH,"] : []),
    `    packageName: ${stringLiteral(api.packageName)},`,
    ...(hasResponseValidators ? [`    loadResponseValidators: () => import("./response-validators.js").then((module) => module.RESPONSE_VALIDATORS),`] : []),
    "  },",
    ");",
  ].join("\n");
}


export function typeNames(operation: OperationModel) {
  return { params: `${operation.typeName}Params`, response: `${operation.typeName}Response` };
}

function operationTypePath(operation: OperationModel): string {
  return `paths[${stringLiteral(operation.path)}][${stringLiteral(operation.method)}]`;
}

export function hasParams(operation: OperationModel): boolean {
  return operation.parameters.length > 0 || operation.requestBody !== undefined;
}

/** A request body of a media type the client does not encode: the caller gives its bytes. */
function hasBinaryBody(operation: OperationModel): boolean {
  return operation.requestBody !== undefined && mediaTypeKind(operation.requestBody.mediaType) === "binary";
}

export function paramsRequired(operation: OperationModel): boolean {
  return operation.parameters.some((p) => p.required) || operation.requestBody?.required === true;
}

function operationTypes(operation: OperationModel): Array<OptionalKind<TypeAliasDeclarationStructure>> {
  const names = typeNames(operation);
  const base = operationTypePath(operation);
  const aliases: Array<OptionalKind<TypeAliasDeclarationStructure>> = [];
  if (hasParams(operation)) {
    const members: string[] = [];
    for (const location of ["path", "query", "header", "cookie"] as const) {
      const present = operation.parameters.filter((p) => p.in === location);
      if (present.length === 0) continue;
      const required = present.some((p) => p.required);
      members.push(`${location}${required ? "" : "?"}: ${base}["parameters"][${stringLiteral(location)}];`);
    }
    if (operation.requestBody) {
      // The type emitter gives bytes as `string` (format binary) or `unknown`: the client takes bytes.
      const body = hasBinaryBody(operation) ? "BinaryBody" : `NonNullable<${base}["requestBody"]>["content"][${stringLiteral(operation.requestBody.mediaType)}]`;
      members.push(`body${operation.requestBody.required ? "" : "?"}: ${body};`);
    }
    aliases.push({
      name: names.params,
      isExported: true,
      docs: [`Parameters of {@link ${operation.methodName}}, grouped by where they are sent.`],
      type: `{ ${members.join(" ")} }`,
    });
  }
  // A body read as bytes is a Blob, whatever type the emitter gives its schema (`string` for format binary).
  const bodies = operation.successResponses.map((response) =>
    !response.mediaType
      ? "undefined"
      : operation.responseKind === "blob"
        ? "Blob"
        : `${base}["responses"][${stringLiteral(response.status)}]["content"][${stringLiteral(response.mediaType)}]`,
  );
  aliases.push({
    name: names.response,
    isExported: true,
    docs: [`Successful response body of {@link ${operation.methodName}}.`],
    // An operation that documents no response answers with whatever its Content-Type says.
    type: operation.responseKind === "auto" ? "unknown" : bodies.length ? [...new Set(bodies)].join(" | ") : "undefined",
  });
  return aliases;
}

/** The options interface's doc: where credentials come from, or that none is needed. */
function optionsDoc(className: string, security: SecurityModel): string {
  const variables = security.schemes.flatMap((s) => s.options.map((o) => `\`${o.name}\` (or \`${o.envVar}\`)`));
  if (variables.length === 0) return `Options of {@link ${className}}. The API needs no credentials.`;
  return `Options of {@link ${className}}. Credentials: ${variables.join(", ")}.`;
}

/** What one credential option is for, from its scheme. */
function credentialDoc(scheme: SecurityModel["schemes"][number], option: SecurityModel["schemes"][number]["options"][number]): string {
  const how = {
    bearer: "sent as `Authorization: Bearer`",
    token: "sent as `Authorization: Bearer`; a function is called before every request (to refresh it)",
    basic: "sent with the other as `Authorization: Basic`",
    header: `sent in the \`${scheme.parameter}\` header`,
    query: `sent as the \`${scheme.parameter}\` query parameter`,
  }[scheme.kind];
  const description = scheme.description?.trim();
  return `The ${option.label} of the \`${scheme.name}\` security scheme, ${how}. Default: the \`${option.envVar}\` environment variable.${description ? `\n\n${description}` : ""}`;
}

/** The `AUTH` constant: schemes, credential sources, the shared requirement. */
function authLiteral(security: SecurityModel): string {
  const schemes = security.schemes.map((scheme) => {
    const [first, second] = scheme.options;
    const body =
      scheme.kind === "basic"
        ? `kind: "basic", username: ${stringLiteral(first!.name)}, password: ${stringLiteral(second!.name)}`
        : scheme.kind === "header" || scheme.kind === "query"
          ? `kind: ${stringLiteral(scheme.kind)}, name: ${stringLiteral(scheme.parameter!)}, option: ${stringLiteral(first!.name)}`
          : `kind: "bearer", option: ${stringLiteral(first!.name)}`;
    return `${propertyKeyForValue(scheme.name)}: { ${body} }`;
  });
  const credentials = security.schemes.flatMap((s) => s.options).map((o) => `${propertyKeyForValue(o.name)}: { env: ${stringLiteral(o.envVar)}, label: ${stringLiteral(o.label)} }`);
  return `{ schemes: { ${schemes.join(", ")} }, credentials: { ${credentials.join(", ")} }, security: ${requirementLiteral(security.defaultRequirement)}, required: ${String(security.requiredEverywhere)} } as const satisfies AuthSpec`;
}

export function requirementLiteral(requirement: SecurityRequirement): string {
  return `[${requirement.map((alternative) => `[${alternative.map(stringLiteral).join(", ")}]`).join(", ")}]`;
}

export function operationDoc(operation: OperationModel): string {
  const lines = [operation.summary, operation.description].map((text) => text?.trim()).filter(Boolean).join("\n\n");
  const cookies = operation.parameters.filter((p) => p.in === "cookie").map((p) => `\`${p.name}\``);
  const tail = [
    `\`${operation.method.toUpperCase()} ${operation.path}\``,
    hasBinaryBody(operation) ? `The body is bytes (a Blob, an ArrayBuffer, a typed array or a ReadableStream) or a string, sent as they are as \`${operation.requestBody!.mediaType}\`.` : "",
    cookies.length
      ? `Cookie parameters (${cookies.join(", ")}) are sent in one \`Cookie\` header: Node, Deno and Bun send it; a browser drops it (a page may not set Cookie) and sends its own cookies instead.`
      : "",
    operation.errorStatuses.length ? `Errors: ${operation.errorStatuses.join(", ")} (typed, see the errors module).` : "",
    operation.requestLimits ? `Service limits of this operation: ${describeRequestLimits(operation.requestLimits)}${operation.modelRole !== undefined && PACED_ROLES.has(operation.modelRole) ? "; runMany paces itself by them" : ""}.` : "",
    operation.deprecated ? "@deprecated" : "",
  ].filter(Boolean);
  return docComment([lines, ...tail].filter(Boolean).join("\n\n"));
}

/** An object literal on one line, from its members' text: `{ a, b }`, or `{}`. */
function objectText(members: readonly string[]): string {
  return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
}

/** The members of a submitting operation's body besides `input`. */
function jobOptionsType(operation: OperationModel): string {
  return `Omit<NonNullable<${typeNames(operation).params}["body"]>, "input">`;
}

/** The job operations a batch sends (runMany), through its rate gate. */
const PACED_ROLES: ReadonlySet<ModelRole> = new Set(["run", "runsync", "status", "cancel", "retry"]);

/** Typed per-model calls on top of the operations marked with `x-model-endpoint-role`. */
function modelMethods(api: ApiModel): Array<OptionalKind<MethodDeclarationStructure>> {
  const methods: Array<OptionalKind<MethodDeclarationStructure>> = [];
  const byRole = (role: ModelRole) => api.operations.find((o) => o.modelRole === role);
  const pathParameters = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path");

  // Every per-model method: generic in the model id, which comes first.
  const add = (name: string, doc: string, rest: Array<{ name: string; type: string; hasQuestionToken?: boolean }>, returnType: string, statements: string[]) =>
    methods.push({ name, isAsync: true, typeParameters: [{ name: "M", constraint: "ModelId" }], docs: [doc], parameters: [{ name: "model", type: "M" }, ...rest], returnType, statements });

  const submit = (role: "run" | "runsync", methodName: string, doc: string) => {
    const operation = byRole(role);
    if (!operation) return;
    const [modelParameter, ...others] = pathParameters(operation);
    if (!modelParameter || others.length > 0 || !operation.requestBody) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly one path parameter (the model id) and a request body with \`input\``);
    }
    // A query parameter bounding the server's wait is filled from the call's timeout (ClientCore.serverWaitMs).
    const wait = operation.parameters.find((p) => p.serverWait !== undefined);
    const query = wait ? `query: { ${propertyKeyForValue(wait.name)}: this.serverWaitMs(requestOptions, ${wait.serverWait!.minimum}, ${wait.serverWait!.maximum}) }, ` : "";
    add(
      methodName,
      doc,
      [
        { name: "input", type: "ModelInput<M>" },
        { name: "options", type: `${wait ? "ServerWaitOptions" : "RequestOptions"} & { jobOptions?: ${jobOptionsType(operation)} | undefined }`, hasQuestionToken: true },
      ],
      "Promise<ApiResult<ModelJob<M>>>",
      // The model's input is checked by the operation's spec (checkModelInput), as for a direct call.
      [
        "const { jobOptions, ...requestOptions } = options ?? {};",
        `const params = { path: { ${propertyKeyForValue(modelParameter.name)}: model }, ${query}body: { ...jobOptions, input } } as unknown as ${operation.typeName}Params;`,
        `return this.request(OPERATIONS.${operation.methodName}, params, requestOptions);`,
      ],
    );
  };
  submit("runsync", "runModelSync", "Runs a job on `model` and waits for it (`runsync`). `input` is typed for the known models; the result may still be unfinished when the service's wait limit is reached. `options.jobOptions` holds the body's other members.");
  submit("run", "runModel", "Queues a job on `model` (`run`) and returns it at once with its id. `options.jobOptions` holds the body's other members.");

  // The operations on one job take the model id, then the job id.
  const onJob = (role: "status" | "cancel" | "retry" | "stream", methodName: string, doc: string) => {
    const operation = byRole(role);
    if (!operation) return;
    const parameters = pathParameters(operation);
    if (parameters.length !== 2) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly two path parameters (the model id, then the job id)`);
    }
    add(
      methodName,
      doc,
      [
        { name: "jobId", type: "string" },
        { name: "options", type: "RequestOptions", hasQuestionToken: true },
      ],
      // The status is the job with the model's typed output; the others answer as their operation says.
      `Promise<ApiResult<${role === "status" ? "ModelJob<M>" : typeNames(operation).response}>>`,
      [
        `const params = { path: { ${propertyKeyForValue(parameters[0]!.name)}: model, ${propertyKeyForValue(parameters[1]!.name)}: jobId } } as unknown as ${operation.typeName}Params;`,
        `return this.request(OPERATIONS.${operation.methodName}, params, options);`,
      ],
    );
  };
  onJob("status", "getModelJob", "The job's current state (`status`), with the model's typed output once it has finished.");
  onJob("cancel", "cancelModelJob", "Cancels the job (`cancel`): queued or running, it ends `CANCELLED`; the answer is the job's state.");
  onJob("retry", "retryModelJob", "Queues a `FAILED` or `TIMED_OUT` job again under the same id (`retry`), while the service keeps its results.");
  onJob("stream", "streamModelJob", "The partial outputs a running job has produced since the last call (`stream`).");

  // The operations on a model's endpoint as a whole take only the model id.
  const onEndpoint = (role: "health" | "purge-queue", methodName: string, doc: string) => {
    const operation = byRole(role);
    if (!operation) return;
    const [modelParameter, ...others] = pathParameters(operation);
    if (!modelParameter || others.length > 0 || operation.requestBody?.required) {
      throw new ContractError(operation.pointer, `an operation with x-model-endpoint-role "${role}" needs exactly one path parameter (the model id) and no required request body`);
    }
    add(methodName, doc, [{ name: "options", type: "RequestOptions", hasQuestionToken: true }], `Promise<ApiResult<${typeNames(operation).response}>>`, [
      `const params = { path: { ${propertyKeyForValue(modelParameter.name)}: model } } as unknown as ${operation.typeName}Params;`,
      `return this.request(OPERATIONS.${operation.methodName}, params, options);`,
    ]);
  };
  onEndpoint("health", "getModelHealth", "The model endpoint's jobs and workers, counted by state (`health`).");
  onEndpoint("purge-queue", "purgeModelQueue", "Removes every job of the model's endpoint that is still queued (`purge-queue`); running jobs go on.");
  return methods;
}
