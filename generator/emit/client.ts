/**
 * `src/client.ts`: the options, the operations' parameter and response types, the core class (the
 * configuration, for the standalone functions) and the client class with a one-line method per
 * operation, plus what the contract's extensions add to it.
 */
import { propertyKey } from "../common/escape.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import type { ApiModel, OperationModel } from "../model/index.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { Block, code, join, raw, type Code } from "./code.ts";
import { authConstant, credentialOptions, credentialsDoc } from "./client-auth.ts";
import { extensionCall, hasBinaryBody, hasParams, operationDoc, paramsRequired } from "./operation-docs.ts";
import { declaration, importStatement, interfaceDeclaration, members, mergeImports, method, moduleText, typeAlias, type ImportSpec } from "./typescript.ts";
import type { ValidatorNames } from "./validators/index.ts";

export function emitClient(api: ApiModel, validators: ValidatorNames, extensions: readonly ExtensionOutput[]): string {
  const { names } = api;
  const credentials = credentialOptions(api.security);
  const hasOperations = api.operations.length > 0;
  // With `--dates date` the schema types hold `Date`s; a request takes the format's text there too.
  const datesAccepted = api.dates === "date" && api.operations.some(hasParams);
  // Response validators live in their own module, imported only when validateResponses is on.
  const hasResponseValidators = api.operations.some((o) => validators.operations.get(o.operationId)?.response);

  const imports: ImportSpec[] = [
    { from: "./runtime/client-core.js", names: ["ClientCore"] },
    { from: "./runtime/client-core.js", typeOnly: true, names: hasOperations ? ["ApiResult", "CoreOptions", "RequestOptions"] : ["CoreOptions"] },
    // A document without operations (webhooks only) has no operation types to take from the schema.
    ...(hasOperations ? [{ from: "./schema.js", typeOnly: true, names: ["paths", ...readWriteViews(api)] }] : []),
    ...(credentials.length > 0 ? [{ from: "./runtime/auth.js", typeOnly: true, names: [...(api.security.schemes.some((s) => s.kind === "token") ? ["AccessToken"] : []), "AuthSpec"] }] : []),
    ...(api.operations.some(hasBinaryBody) ? [{ from: "./runtime/body.js", typeOnly: true, names: ["BinaryBody"] }] : []),
    ...(datesAccepted ? [{ from: "./runtime/dates/accepted.js", typeOnly: true, names: ["DatesAccepted"] }] : []),
    ...extensions.flatMap((extension) => extension.client.imports),
    // Each operation's spec (its request validator with it) is an export of its own, so bundlers keep only those called.
    ...(hasOperations ? [{ from: "./operation-specs.js", namespace: "OPERATIONS" }] : []),
  ];

  const optionsInterface = interfaceDeclaration(credentialsDoc(names.client, api.security), names.options, [
    ...credentials.map(({ option, doc, type }) => ({ name: option.name, optional: true, type, docs: doc })),
    ...api.servers.map((server) => ({
      name: server.key,
      optional: true,
      // `| undefined`: with exactOptionalPropertyTypes, `{ baseUrl: process.env.X }` still compiles.
      type: raw("string | undefined"),
      docs: server.relative
        ? `${sentence(server.description ?? "Base URL")} Required outside a browser (or the \`${server.envVar}\` environment variable): the contract's server is relative (${server.url}).`
        : `${sentence(server.description ?? "Base URL")} Default: the \`${server.envVar}\` environment variable, else ${server.defaultUrl}`,
    })),
  ], { extends: "CoreOptions" });

  // The core holds the configuration; the client adds one method per operation. An app that calls
  // operations through the standalone functions (`<package>/operations`) bundles the core only.
  const core = declaration(
    `The configuration of a ${api.title} client, without its methods: the first argument of the standalone operation functions (\`${api.packageName}/operations\`). \`${names.client}\` is one too.`,
    code`export class ${raw(names.core)} extends ClientCore {`,
    method({
      name: "constructor",
      parameters: code`options: ${raw(names.options)} = {}`,
      body: constructorBody(api, credentials.map((c) => c.option.name), hasResponseValidators),
    }),
  );
  const client = declaration(
    `${api.title} (version ${api.version}).\n\n${api.description ?? ""}`,
    code`export class ${raw(names.client)} extends ${raw(names.core)} {`,
    members([...api.operations.map((operation) => extensionCall(extensions, (calls) => calls.method(operation)) ?? operationMethod(operation, extensions)), ...extensions.flatMap((extension) => extension.client.methods)]),
  );

  return moduleText([
    mergeImports(imports).map(importStatement),
    [optionsInterface],
    credentials.length > 0 ? [authConstant(api.security)] : [],
    api.operations.flatMap((operation) => operationTypes(api, operation, datesAccepted)),
    extensions.flatMap((extension) => extension.client.declarations),
    [core],
    [client],
  ]);
}

/** `text` ending as a sentence does, so that another can follow it. */
function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?:)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The core's constructor: the options it was given, the contract's defaults. */
function constructorBody(api: ApiModel, credentials: readonly string[], hasResponseValidators: boolean): Block {
  const keys = (list: readonly string[]) => raw(list.length === 0 ? "{}" : `{ ${list.join(", ")} }`);
  const entries = (list: readonly Code[]) => (list.length === 0 ? raw("{}") : code`{ ${join(list, ", ")} }`);
  const given = credentials.length > 0 ? code`, credentials: ${keys(credentials)}` : raw("");
  // A document without servers (webhooks only) or credentials has nothing but `core` to take out.
  return new Block().add(
    raw(`const { ${[...credentials, ...api.servers.map((s) => s.key), "...core"].join(", ")} } = options;`),
    raw("super("),
    code`  { ...core, servers: ${keys(api.servers.map((s) => s.key))}${given} },`,
    raw("  {"),
    code`    servers: ${entries(api.servers.map((s) => code`${raw(s.key)}: ${s.defaultUrl}`))},`,
    code`    serverVariables: ${entries(api.servers.map((s) => code`${raw(s.key)}: ${s.envVar}`))},`,
    code`    logVariable: ${api.logEnvVar},`,
    ...(credentials.length > 0 ? [raw("    auth: AUTH,")] : []),
    code`    packageName: ${api.packageName},`,
    ...(hasResponseValidators ? [raw(`    loadResponseValidators: () => import("./response-validators.js").then((module) => module.RESPONSE_VALIDATORS),`)] : []),
    raw("  },"),
    raw(");"),
  );
}

/** `paths["/x"]["get"]`: where the schema module types the operation. */
export function operationTypePath(operation: OperationModel): Code {
  return code`paths[${operation.path}][${operation.method}]`;
}

/** The views of marked types (`InRequest`, `InResponse`) the operation types use. */
function readWriteViews(api: ApiModel): string[] {
  const marked = (at: string | undefined) => at !== undefined && api.markedSchemas.has(at);
  return [
    ...(api.operations.some((o) => marked(o.requestBody?.schemaPointer) && !hasBinaryBody(o)) ? ["InRequest"] : []),
    ...(api.operations.some((o) => o.responseKind !== "blob" && o.responseKind !== "auto" && o.successResponses.some((r) => r.mediaType && marked(r.schemaPointer))) ? ["InResponse"] : []),
  ];
}

/** `type` as a request sends it or a response holds it, where its schema has read-only or write-only properties. */
function inView(api: ApiModel, view: "InRequest" | "InResponse", schemaPointer: string | undefined, type: Code): Code {
  return schemaPointer !== undefined && api.markedSchemas.has(schemaPointer) ? code`${raw(view)}<${type}>` : type;
}

function operationTypes(api: ApiModel, operation: OperationModel, datesAccepted: boolean): Block[] {
  const base = operationTypePath(operation);
  const accepted = (type: Code) => (datesAccepted ? code`DatesAccepted<${type}>` : type);
  const aliases: Block[] = [];
  if (hasParams(operation)) {
    const members: Code[] = [];
    for (const location of ["path", "query", "header", "cookie"] as const) {
      const present = operation.parameters.filter((p) => p.in === location);
      if (present.length === 0) continue;
      const required = present.some((p) => p.required);
      const undeclared = present.filter((p) => p.undeclared);
      const declared = undeclared.length < present.length ? [accepted(code`${base}["parameters"][${location}]`)] : [];
      const added = undeclared.length > 0 ? [code`{ ${join(undeclared.map((p) => code`${raw(propertyKey(p.name))}: string;`), " ")} }`] : [];
      members.push(code`${raw(location)}${raw(required ? "" : "?")}: ${join([...declared, ...added], " & ")};`);
    }
    if (operation.requestBody) {
      // The type emitter gives bytes as `string` (format binary) or `unknown`: the client takes bytes.
      const body = hasBinaryBody(operation)
        ? raw("BinaryBody")
        : accepted(inView(api, "InRequest", operation.requestBody.schemaPointer, code`NonNullable<${base}["requestBody"]>["content"][${operation.requestBody.mediaType}]`));
      members.push(code`body${raw(operation.requestBody.required ? "" : "?")}: ${body};`);
    }
    aliases.push(typeAlias(`Parameters of {@link ${operation.methodName}}, grouped by where they are sent.`, operation.paramsType, code`{ ${join(members, " ")} }`));
  }
  // A body read as bytes is a Blob, whatever type the emitter gives its schema (`string` for format binary).
  const bodies = operation.successResponses.map((response) =>
    !response.mediaType
      ? "undefined"
      : operation.responseKind === "blob"
        ? "Blob"
        : inView(api, "InResponse", response.schemaPointer, code`${base}["responses"][${response.status}]["content"][${response.mediaType}]`).text,
  );
  // An operation that documents no response answers with whatever its Content-Type says.
  const type = operation.responseKind === "auto" ? "unknown" : bodies.length ? [...new Set(bodies)].join(" | ") : "undefined";
  aliases.push(typeAlias(`Successful response body of {@link ${operation.methodName}}.`, operation.responseType, raw(type)));
  return aliases;
}

function operationMethod(operation: OperationModel, extensions: readonly ExtensionOutput[]): Block {
  const optional = !paramsRequired(operation);
  const parameters = [
    ...(hasParams(operation) ? [code`params: ${raw(operation.paramsType)}${raw(optional ? " = {}" : "")}`] : []),
    raw("options?: RequestOptions"),
  ];
  return method({
    docs: operationDoc(operation, extensions),
    modifiers: "public ",
    name: operation.methodName,
    parameters: join(parameters, ", "),
    returns: code`Promise<ApiResult<${raw(operation.responseType)}>>`,
    body: new Block().add(code`return this.request(OPERATIONS.${raw(operation.methodName)}, ${raw(hasParams(operation) ? "params" : "{}")}, options);`),
  });
}
