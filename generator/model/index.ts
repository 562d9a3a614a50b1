/**
 * Stage 2: the intermediate model (`ApiModel`). Everything the emitters need, read once from the
 * loaded contract, with names decided and every unsupported construct refused with its JSON pointer:
 * the package's identity, the README's tags and examples, the changelog. Emitters read only this;
 * the schema emitters alone reach into the document, through `schemaPointer`s.
 *
 * "Model" here is this intermediate model; the AI models a contract lists under
 * `x-model-endpoints` are `ModelEndpoint`s.
 */
import { ACCEPTED_DIALECTS } from "../emit/validators/vocabulary.ts";
import { ContractError } from "../common/errors.ts";
import { exampleParams, schemaExample, type ExampleParams } from "./examples.ts";
import { pointer, unescapeSegment } from "../common/json-pointer.ts";
import type { Warnings } from "../common/warnings.ts";
import { identifier, uniqueIdentifiers } from "../common/escape.ts";
import type { LoadedContract, OperationObject, ServerObject } from "../load/contract.ts";
import { mediaTypeKind } from "../common/media-types.ts";
import { readXSdk, type PackageOverrides } from "./x-sdk.ts";
import { readRequestLimits, type RequestLimits } from "./request-limits.ts";
import { readResultRetention } from "../extensions/model-endpoints/result-retention.ts";
import { readSecurity, type SecurityModel, type SecurityRequirement } from "./security.ts";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * A request body's media types in the order the client prefers them: JSON (plain, then `+json`),
 * forms, multipart, plain text, other text, then bytes (`application/octet-stream`, any other named
 * type, and last a range such as `image/*`). Any media type can be sent: one the client does not
 * encode takes the caller's bytes as they are.
 */
function requestMediaRank(mediaType: string): number {
  const essence = mediaType.split(";", 1)[0]!.trim().toLowerCase();
  switch (mediaTypeKind(mediaType)) {
    case "json":
      return essence === "application/json" ? 0 : 1;
    case "form":
      return 2;
    case "multipart":
      return 3;
    case "text":
      return essence === "text/plain" ? 4 : 5;
    case "binary":
      return essence === "application/octet-stream" ? 6 : essence.includes("*") ? 8 : 7;
  }
}

/**
 * Names an operation's method may not take: members of the client's base class, the per-model
 * helpers, and Object.prototype's (a `toString` operation would fire a request from `String(client)`).
 */
export const RESERVED_METHOD_NAMES = [
  "request", "exchange", "describe", "assertValid", "serverWaitMs", "responseValidators", "baseUrl", "logger", "runModel", "runModelSync", "getModelJob", "cancelModelJob", "retryModelJob", "streamModelJob", "getModelHealth", "purgeModelQueue",
  // A client with a `then` method is a thenable: `await` or returning it from an async function would call it.
  "then",
  ...Object.getOwnPropertyNames(Object.prototype),
];

export interface ServerModel {
  /** Option name of the base URL, e.g. `baseUrl`, `publicEndpointBaseUrl`. */
  key: string;
  /** The URL template as written, e.g. `{base_url}`. */
  url: string;
  /** The template with every variable at its default. */
  defaultUrl: string;
  description?: string;
  /** The environment variable the client reads when the option is not given, e.g. `GPU_CLOUD_BASE_URL`. */
  envVar: string;
  /**
   * The default URL is relative (a server such as `/v1`, or none at all: OpenAPI's default is
   * `/`): fine in a page, which it is relative to; elsewhere the client needs this option.
   */
  relative: boolean;
}

export interface ParameterModel {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  description?: string;
  pointer: string;
  /**
   * Pointer of the schema the value is checked against (after following a `$ref`ed parameter): its
   * `schema`, or the schema of its JSON `content`. Undefined for a JSON `content` without one (any
   * value) and for `content` of another media type (the value is sent as it is: any string).
   */
  schemaPointer: string | undefined;
  /** The media type of a parameter described by `content` rather than `schema`. */
  mediaType?: string;
  /** How the parameter's arrays and objects are written (OpenAPI's `style`, `explode`, `allowReserved`, read with their defaults). */
  style: ParameterStyle;
  /** `x-server-wait`: the parameter bounds, in milliseconds, how long the server may hold the request. */
  serverWait?: { minimum: number; maximum: number };
}

/** A parameter's serialisation, as OpenAPI's `style`, `explode` and `allowReserved` say. */
export interface ParameterStyle {
  style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix";
  explode: boolean;
  /** Query parameters only. */
  allowReserved: boolean;
}

/** The styles the client writes, per location (OpenAPI's Style Values); the first is the default. */
const STYLES: Readonly<Record<ParameterModel["in"], readonly ParameterStyle["style"][]>> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/**
 * The parameter's `style`/`explode`/`allowReserved`, checked: each location takes the styles
 * OpenAPI defines for it, exploded or not (default: exploded for `form` only); a style defined for
 * another location, or none, stops generation here rather than being ignored.
 */
function readStyle(parameter: any, where: string): ParameterStyle {
  const style: unknown = parameter.style;
  const explode: unknown = parameter.explode;
  if (explode !== undefined && typeof explode !== "boolean") throw new ContractError(`${where}/explode`, "explode must be true or false");
  if (parameter.allowReserved !== undefined && typeof parameter.allowReserved !== "boolean") throw new ContractError(`${where}/allowReserved`, "allowReserved must be true or false");
  const location = parameter.in as ParameterModel["in"];
  const styles = STYLES[location];
  if (style !== undefined && !styles.includes(style as ParameterStyle["style"])) {
    throw new ContractError(`${where}/style`, `style ${JSON.stringify(style)} is not a ${location} parameter style (${styles.join(", ")})`);
  }
  const chosen = (style ?? styles[0]) as ParameterStyle["style"];
  return { style: chosen, explode: typeof explode === "boolean" ? explode : chosen === "form", allowReserved: location === "query" && parameter.allowReserved === true };
}

/** The job operations' roles (`x-model-endpoint-role`): each gives the client a per-model call. */
export const MODEL_ROLES = ["runsync", "run", "status", "cancel", "retry", "stream", "health", "purge-queue"] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];
/** Roles on a model's endpoint as a whole rather than on a job: the job helpers never call them. */
export const ENDPOINT_ROLES: ReadonlySet<ModelRole> = new Set(["health", "purge-queue"]);

export interface OperationModel {
  operationId: string;
  /** Method name on the client: a safe identifier. */
  methodName: string;
  /** Exported type-name stem, e.g. `ListPods`. */
  typeName: string;
  method: HttpMethod;
  path: string;
  pointer: string;
  summary?: string;
  description?: string;
  /** The operation's `tags`; the README groups operations by the first. */
  tags: string[];
  deprecated: boolean;
  server: string;
  parameters: ParameterModel[];
  /** The body the client sends; `schemaPointer` is undefined when its media type has no schema (any body). */
  requestBody?: { required: boolean; mediaType: string; schemaPointer?: string; pointer: string };
  /** Successful responses in status order: the first one with a body decides how it is read. */
  successResponses: Array<{ status: string; mediaType?: string; schemaPointer?: string }>;
  /** `auto`: the operation documents no response, so its answer is read as its Content-Type says. */
  responseKind: "json" | "text" | "blob" | "none" | "auto";
  /** Documented error statuses (numeric codes and `default`). */
  errorStatuses: string[];
  /** The role of this operation for per-model calls (`x-model-endpoint-role`). */
  modelRole?: ModelRole;
  /** `x-request-limits`: what the service takes of this operation per window and at once. */
  requestLimits?: RequestLimits;
  /** How long the service keeps a job's results after it ends (`x-result-retention-seconds`, run and runsync). */
  resultRetentionSeconds?: number;
  /** Example arguments of the call, from the contract's examples; undefined when it takes none. */
  exampleParams?: ExampleParams;
  /** Alternatives of scheme names (the first whose credentials are all given is used); `[]`: public. */
  security: SecurityRequirement;
}

/**
 * What a job of a model endpoint costs (`x-model-endpoints/<id>/pricing`): the units are the
 * product of input properties divided by `unitsPer` (seconds: `duration`; megapixels: `width` ×
 * `height` / 1,000,000), times a rate, fixed or picked by an input property.
 */
export interface ModelPricing {
  currency: string;
  unit: string;
  /** Input properties whose values multiply into the number of units. */
  unitsFrom: string[];
  /** What the product is divided by (1 unless the contract says otherwise). */
  unitsPer: number;
  /** Input property whose value picks the rate in `rates`; absent with a fixed `rate`. */
  rateFrom?: string;
  rates?: Record<string, number>;
  rate?: number;
  formula?: string;
}

/** An AI model the API runs jobs on (`x-model-endpoints`). */
export interface ModelEndpoint {
  id: string;
  kind: string;
  summary?: string;
  description?: string;
  /** Names of the component schemas. */
  inputSchema: string;
  outputSchema: string;
  /** Output property that carries the file URL, and how long it lives. */
  urlField?: string;
  urlLifetimeSeconds?: number;
  pricing?: ModelPricing;
  /** The first of the input schema's `examples`, for the README. */
  inputExample?: unknown;
  /** The input's top-level properties (those of its `allOf` members too), in order, for the README. */
  inputFields: Array<{ name: string; required: boolean }>;
  pointer: string;
}

export interface ApiModel {
  title: string;
  /** The API's version (`info.version`). */
  version: string;
  summary?: string;
  description?: string;
  /** `info.contact`'s name and URL, when they are strings. */
  contact: { name?: string; url?: string };
  packageName: string;
  /** The generated package's semver (`x-sdk.packageVersion`, else from `info.version`). */
  packageVersion: string;
  apiKeyEnvVar: string;
  /** The environment variable that turns on the client's logging to stderr (`debug`, `warn`, `off`), e.g. `GPU_CLOUD_LOG`. */
  logEnvVar: string;
  /** The security schemes operations use, and the requirement they share. */
  security: SecurityModel;
  contractHash: string;
  /** The CHANGELOG.md beside the contract, shipped in the package as it is. */
  changelog?: string;
  servers: ServerModel[];
  operations: OperationModel[];
  /** Names of `components/schemas`, in document order. */
  schemaNames: string[];
  modelEndpoints: ModelEndpoint[];
  /** Job statuses that end a wait (`x-terminal-statuses`), when the contract has them. */
  terminalStatuses?: Record<string, "success" | "failure">;
}

/** What the caller may set instead of the contract's `x-sdk` (the CLI's `--name`). */
export interface ApiModelOptions extends PackageOverrides {
  /** Where problems that do not stop generation are told. */
  warnings?: Warnings;
}

/**
 * Keys openapi-typescript cannot take: it walks the document with lookups that find
 * Object.prototype's methods (`valueOf`, `hasOwnProperty`…) and fails with a stack trace and no
 * location. `constructor`, `toString` and `__proto__` go through (the hostile fixture has them).
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype).filter((name) => !["constructor", "toString", "__proto__"].includes(name)));

/** Refuses, with its pointer, the first key of the document that openapi-typescript would fail on. */
function refusePrototypeKeys(value: unknown, at = ""): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) refusePrototypeKeys(value[index], `${at}/${index}`);
    return;
  }
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) {
      throw new ContractError(`${at}${pointer(key)}`, `the key "${key}" is named like a method of Object.prototype, which openapi-typescript (it emits the types) cannot process; only constructor, toString and __proto__ are supported`);
    }
    refusePrototypeKeys((value as Record<string, unknown>)[key], `${at}${pointer(key)}`);
  }
}

export function buildModel(contract: LoadedContract, options: ApiModelOptions = {}): ApiModel {
  const { document } = contract;
  refusePrototypeKeys(document);
  // The validators implement 2020-12 (an older draft was rewritten into it): another default dialect would be misread.
  const dialect = (document as { jsonSchemaDialect?: unknown }).jsonSchemaDialect;
  if (dialect !== undefined && (typeof dialect !== "string" || !ACCEPTED_DIALECTS.has(dialect.replace(/#$/, "")))) {
    throw new ContractError("/jsonSchemaDialect", `${JSON.stringify(dialect)} is not JSON Schema 2020-12 (or the OpenAPI 3.1 dialect), the one the validators implement, nor a draft the generator reads as 2020-12 (2019-09, 07, 06, 04)`);
  }
  const { packageName, apiKeyEnvVar, packageVersion } = readXSdk(document, options);

  // The key's variable names the others: GPU_CLOUD_API_KEY → GPU_CLOUD_BASE_URL, GPU_CLOUD_LOG.
  const environmentPrefix = apiKeyEnvVar.replace(/_API_KEY$/, "");
  const servers = new ServerRegistry(document.servers ?? [], environmentPrefix);
  const { security, operations } = readSecurity(contract, readOperations(contract, servers, options.warnings), {
    apiKeyEnvVar,
    takenOptions: servers.list().map((s) => s.key),
    warnings: options.warnings,
  });
  if (operations.length === 0) {
    // Valid (webhooks or components only), but a client without a method is rarely what was meant.
    const [at, what] = document.paths === undefined ? ["", "the document has no paths"] : ["/paths", "paths holds no operation"];
    options.warnings?.add("document:no-operations", at, `${what}, so the client has no operations`);
  }
  const schemaNames = Object.keys(document.components?.schemas ?? {});
  const modelEndpoints = readModelEndpoints(contract);
  checkModelRoles(operations, modelEndpoints.length > 0);
  const terminal = findTerminalStatuses(contract);
  const { summary, contact } = document.info;
  return {
    title: document.info.title,
    version: document.info.version,
    summary: typeof summary === "string" ? summary : undefined,
    description: document.info.description,
    contact: {
      name: typeof contact?.name === "string" ? contact.name : undefined,
      url: typeof contact?.url === "string" ? contact.url : undefined,
    },
    packageName,
    packageVersion,
    apiKeyEnvVar,
    logEnvVar: `${environmentPrefix}_LOG`,
    security,
    contractHash: contract.hash,
    changelog: contract.changelog,
    servers: servers.list(),
    operations,
    schemaNames,
    modelEndpoints,
    terminalStatuses: terminal,
  };
}

/** Distinct servers, keyed by URL template, each with an option name. */
class ServerRegistry {
  readonly #byUrl = new Map<string, ServerModel>();
  readonly #usedKeys = new Set<string>();

  constructor(
    rootServers: ServerObject[],
    private readonly environmentPrefix: string,
  ) {
    rootServers.forEach((server, index) => this.register(server, pointer("servers", index)));
  }

  register(server: ServerObject, at: string): ServerModel {
    const existing = this.#byUrl.get(server.url);
    if (existing) return existing;
    const variables = server.variables ?? {};
    let defaultUrl = server.url;
    for (const name of server.url.match(/\{[^}]+\}/g) ?? []) {
      const variable = variables[name.slice(1, -1)];
      if (!variable || typeof variable.default !== "string") {
        throw new ContractError(at + pointer("variables", name.slice(1, -1)), `server variable ${name} has no default`);
      }
      defaultUrl = defaultUrl.replace(name, variable.default);
    }
    const names = Object.keys(variables);
    // A server that is a single variable is named after it (`{base_url}` → `baseUrl`).
    const onlyVariable = /^\{([^}]+)\}$/.exec(server.url)?.[1];
    let key = onlyVariable ? identifier(onlyVariable, { case: "camel" }) : this.#byUrl.size === 0 ? "baseUrl" : `server${this.#byUrl.size + 1}BaseUrl`;
    if (!/url$/i.test(key)) key = `${key}Url`;
    while (this.#usedKeys.has(key)) key = `${key}_`;
    this.#usedKeys.add(key);
    void names;
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(defaultUrl);
    const envVar = `${this.environmentPrefix}_${key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
    const registered: ServerModel = { key, url: server.url, defaultUrl: defaultUrl.replace(/\/+$/, ""), description: server.description, envVar, relative };
    this.#byUrl.set(server.url, registered);
    return registered;
  }

  /** The document's first server or, when it names none, OpenAPI's default: `/`. */
  first(): ServerModel {
    return this.#byUrl.values().next().value ?? this.register({ url: "/" }, "");
  }

  list(): ServerModel[] {
    return [...this.#byUrl.values()];
  }
}

function readOperations(contract: LoadedContract, servers: ServerRegistry, warnings: Warnings | undefined): Array<Omit<OperationModel, "security">> {
  const { document } = contract;
  const drafts: Array<Omit<OperationModel, "methodName" | "typeName" | "security">> = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    // A path item may be a `$ref` (to `components/pathItems`): its operations live, and are pointed at, there.
    const { value: item, pointer: itemPointer } = contract.deref<any>(rawItem, pointer("paths", path));
    const itemServers: ServerObject[] | undefined = item.servers;
    for (const method of HTTP_METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const at = `${itemPointer}${pointer(method)}`;
      // fetch refuses TRACE before sending anything: a method for it could never succeed.
      if (method === "trace") throw new ContractError(at, "TRACE operations are not supported: fetch cannot send them");
      const serverList: ServerObject[] | undefined = operation.servers ?? itemServers;
      const server = serverList?.length
        ? servers.register(serverList[0]!, operation.servers ? `${at}${pointer("servers", 0)}` : `${itemPointer}${pointer("servers", 0)}`)
        : servers.first();
      const operationId = operation.operationId ?? `${method}${path}`;
      const parameters = readParameters(contract, path, itemPointer, item.parameters ?? [], operation.parameters ?? [], at, warnings);
      const modelRole = readModelRole(operation, at);
      checkServerWait(parameters, modelRole);
      const requestBody = readRequestBody(contract, operation.requestBody, at);
      drafts.push({
        operationId,
        method,
        path,
        pointer: at,
        summary: operation.summary,
        description: operation.description,
        tags: operation.tags ?? [],
        deprecated: operation.deprecated === true,
        server: server.key,
        parameters,
        requestBody,
        ...readResponses(contract, operation.responses, at, warnings),
        modelRole,
        requestLimits: readRequestLimits(operation, at),
        resultRetentionSeconds: readResultRetention(operation, at, modelRole),
        exampleParams: exampleParams(contract, { parameters, requestBody }),
      });
    }
  }
  refuseDuplicateOperationIds(drafts);
  const methodNames = uniqueIdentifiers(drafts.map((d) => d.operationId), { case: "camel", taken: RESERVED_METHOD_NAMES });
  const typeNames = uniqueIdentifiers(drafts.map((d) => d.operationId), { case: "pascal" });
  return drafts.map((draft, index) => ({ ...draft, methodName: methodNames[index]!, typeName: typeNames[index]! }));
}

/** OpenAPI makes operationIds unique; two alike would give one method and one type for two calls. */
function refuseDuplicateOperationIds(drafts: ReadonlyArray<Pick<OperationModel, "operationId" | "pointer">>): void {
  const first = new Map<string, string>();
  for (const { operationId, pointer: at } of drafts) {
    const earlier = first.get(operationId);
    if (earlier !== undefined) throw new ContractError(`${at}/operationId`, `operationId ${JSON.stringify(operationId)} is also the operationId of #${earlier}; each operation needs its own`);
    first.set(operationId, at);
  }
}

/** The limits of the wait `runsync` can be asked for (its `x-server-wait` parameter), if it has one. */
export function runsyncServerWait(api: Pick<ApiModel, "operations">): ParameterModel["serverWait"] {
  return api.operations.find((o) => o.modelRole === "runsync")?.parameters.find((p) => p.serverWait !== undefined)?.serverWait;
}

/** The operation whose body types a job's `jobOptions` (the body's members besides `input`): run's, else runsync's; undefined without models. */
export function jobOptionsOperation(api: Pick<ApiModel, "operations" | "modelEndpoints">): OperationModel | undefined {
  if (api.modelEndpoints.length === 0) return undefined;
  const submitting = api.operations.find((o) => o.modelRole === "run") ?? api.operations.find((o) => o.modelRole === "runsync");
  return submitting?.requestBody ? submitting : undefined;
}

/**
 * The model methods (`runModel`, `runModelSync`, `getModelJob`) are made from the one operation of
 * each role: a second would be left out silently, so it is refused. A server wait is filled only
 * by `runModelSync`, which exists only with `x-model-endpoints`.
 */
function checkModelRoles(operations: OperationModel[], hasModelEndpoints: boolean): void {
  const first = new Map<string, OperationModel>();
  for (const operation of operations) {
    if (operation.modelRole === undefined) continue;
    const earlier = first.get(operation.modelRole);
    if (earlier !== undefined) {
      throw new ContractError(`${operation.pointer}/x-model-endpoint-role`, `a second operation with x-model-endpoint-role "${operation.modelRole}" (the first is ${earlier.pointer}); each role belongs to one operation`);
    }
    first.set(operation.modelRole, operation);
  }
  const wait = operations.flatMap((o) => o.parameters).find((p) => p.serverWait !== undefined);
  if (wait !== undefined && !hasModelEndpoints) {
    throw new ContractError(`${wait.pointer}/x-server-wait`, "x-server-wait is filled by runModelSync, which is generated only when the document has x-model-endpoints");
  }
}

/**
 * The client fills a server-wait parameter only in `runModelSync` (from the call's timeout): on any
 * other operation the mark would do nothing, so it is refused rather than ignored.
 */
function checkServerWait(parameters: ParameterModel[], modelRole: OperationModel["modelRole"]): void {
  const marked = parameters.filter((p) => p.serverWait !== undefined);
  if (marked.length === 0) return;
  if (modelRole !== "runsync") {
    throw new ContractError(`${marked[0]!.pointer}/x-server-wait`, 'x-server-wait is only for the operation with x-model-endpoint-role "runsync"');
  }
  if (marked.length > 1) throw new ContractError(`${marked[1]!.pointer}/x-server-wait`, "an operation has one server wait; this is a second");
}

function readModelRole(operation: OperationObject, at: string): OperationModel["modelRole"] {
  const role = operation["x-model-endpoint-role"];
  if (role === undefined) return undefined;
  if (!(MODEL_ROLES as readonly unknown[]).includes(role)) {
    throw new ContractError(`${at}/x-model-endpoint-role`, `must be one of ${MODEL_ROLES.map((r) => JSON.stringify(r)).join(", ")}, not ${JSON.stringify(role)}`);
  }
  return role as ModelRole;
}

function readParameters(
  contract: LoadedContract,
  path: string,
  itemPointer: string,
  itemParameters: any[],
  operationParameters: any[],
  at: string,
  warnings: Warnings | undefined,
): ParameterModel[] {
  const byKey = new Map<string, ParameterModel>();
  const read = (list: any[], base: string) =>
    list.forEach((raw, index) => {
      const { value: parameter, pointer: where } = contract.deref<any>(raw, `${base}/parameters/${index}`);
      if (!["path", "query", "header", "cookie"].includes(parameter.in)) throw new ContractError(`${where}/in`, `unknown parameter location ${JSON.stringify(parameter.in)}`);
      if (typeof parameter.name !== "string" || parameter.name === "") throw new ContractError(`${where}/name`, "a parameter needs a name");
      if (parameter.in === "cookie") {
        warnings?.add("parameter:cookie", where, "cookie parameters are sent in a Cookie header, which browsers do not let a page set: a browser sends the request without them (Node, Deno and Bun send them)");
      }
      // Operation-level parameters override path-level ones with the same name and location.
      byKey.set(`${parameter.in}:${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.in === "path" ? true : parameter.required === true,
        description: parameter.description,
        pointer: where,
        ...readParameterValue(parameter, where),
        style: readStyle(parameter, where),
        ...readServerWait(contract, parameter, where),
      });
    });
  read(itemParameters, itemPointer);
  read(operationParameters, at);
  const parameters = [...byKey.values()];
  const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  for (const name of templated) {
    if (!parameters.some((p) => p.in === "path" && p.name === name)) {
      throw new ContractError(at, `path parameter {${name}} is in the path but not declared`);
    }
  }
  for (const parameter of parameters) {
    if (parameter.in === "path" && !templated.includes(parameter.name)) {
      throw new ContractError(parameter.pointer, `path parameter "${parameter.name}" does not appear in ${path}`);
    }
  }
  return parameters;
}

/**
 * What a parameter's value is checked against: its `schema`, or its `content`'s one media type
 * (OpenAPI: exactly one of the two). A JSON `content` is checked against its schema and sent as JSON
 * text; another media type's value is a string sent as it is.
 */
function readParameterValue(parameter: any, where: string): Pick<ParameterModel, "schemaPointer" | "mediaType"> {
  const { content } = parameter;
  if (content === undefined) return { schemaPointer: isSchema(parameter.schema) ? `${where}/schema` : undefined };
  if (parameter.schema !== undefined) throw new ContractError(where, "a parameter has a `schema` or a `content`, not both");
  const mediaTypes = content !== null && typeof content === "object" && !Array.isArray(content) ? Object.keys(content) : [];
  if (mediaTypes.length !== 1) throw new ContractError(`${where}/content`, `a parameter's content has exactly one media type, not ${mediaTypes.length}`);
  const mediaType = mediaTypes[0]!;
  const hasSchema = isSchema(content[mediaType]?.schema);
  return { mediaType, schemaPointer: mediaTypeKind(mediaType) === "json" && hasSchema ? `${where}${pointer("content", mediaType, "schema")}` : undefined };
}

/**
 * Whether a `schema` member holds a schema (an object or a boolean). One that is missing, or not a
 * schema (`schema: null`, which the shape check warns about), admits any value, as the type emitter
 * reads it (`unknown`).
 */
function isSchema(value: unknown): boolean {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value));
}

/** A parameter marked `x-server-wait: true`: a query integer with the limits of the wait (milliseconds). */
function readServerWait(contract: LoadedContract, parameter: any, where: string): Pick<ParameterModel, "serverWait"> {
  const flag: unknown = parameter["x-server-wait"];
  if (flag === undefined || flag === false) return {};
  if (flag !== true) throw new ContractError(`${where}/x-server-wait`, "x-server-wait must be true or false");
  if (parameter.in !== "query") throw new ContractError(`${where}/x-server-wait`, "only a query parameter can carry the server's wait");
  const { value: schema, pointer: schemaAt } = contract.deref<any>(parameter.schema, `${where}/schema`);
  const { minimum, maximum } = schema ?? {};
  if (schema?.type !== "integer" || !Number.isSafeInteger(minimum) || !Number.isSafeInteger(maximum) || minimum < 0 || minimum > maximum) {
    throw new ContractError(schemaAt, "the server's wait (x-server-wait) needs an integer schema with a minimum and a maximum, in milliseconds");
  }
  return { serverWait: { minimum, maximum } };
}

function readRequestBody(contract: LoadedContract, raw: unknown, at: string): OperationModel["requestBody"] {
  if (raw === undefined) return undefined;
  const { value: body, pointer: where } = contract.deref<any>(raw, `${at}/requestBody`);
  const mediaTypes = Object.keys(body.content ?? {});
  const mediaType = pickMediaType(mediaTypes);
  if (!mediaType) throw new ContractError(`${where}/content`, "a request body needs a media type in its content");
  return {
    required: body.required === true,
    mediaType,
    pointer: where,
    schemaPointer: isSchema(body.content[mediaType]?.schema) ? where + pointer("content", mediaType, "schema") : undefined,
  };
}

/** The media type the client sends: the first of those it prefers most (document order breaks ties). */
function pickMediaType(mediaTypes: string[]): string | undefined {
  let best: string | undefined;
  for (const mediaType of mediaTypes) if (best === undefined || requestMediaRank(mediaType) < requestMediaRank(best)) best = mediaType;
  return best;
}

function readResponses(
  contract: LoadedContract,
  responses: Record<string, unknown> | undefined,
  at: string,
  warnings: Warnings | undefined,
): Pick<OperationModel, "successResponses" | "responseKind" | "errorStatuses"> {
  // OpenAPI 3.1 lets an operation document no response: nothing to type its answer with.
  if (!responses || Object.keys(responses).length === 0) {
    warnings?.add(
      "operation:no-responses",
      responses ? `${at}/responses` : at,
      "the operation documents no response: its answer is untyped (unknown), read as JSON when its Content-Type says JSON, else as text",
    );
    return { successResponses: [], responseKind: "auto", errorStatuses: [] };
  }
  const successResponses: OperationModel["successResponses"] = [];
  const errorStatuses: string[] = [];
  for (const status of Object.keys(responses).sort()) {
    if (!/^(?:[1-5](?:\d\d|XX)|default)$/.test(status)) throw new ContractError(at + pointer("responses", status), `"${status}" is not a status code`);
    if (!status.startsWith("2")) {
      errorStatuses.push(status);
      continue;
    }
    const { value: response, pointer: where } = contract.deref<any>(responses[status], at + pointer("responses", status));
    const mediaTypes = Object.keys(response.content ?? {});
    const mediaType = mediaTypes.find((m) => mediaTypeKind(m) === "json") ?? mediaTypes[0];
    successResponses.push({
      status,
      mediaType,
      // A media type without a schema admits any body: nothing to validate.
      schemaPointer: mediaType && isSchema(response.content[mediaType]?.schema) ? where + pointer("content", mediaType, "schema") : undefined,
    });
  }
  const withBody = successResponses.find((r) => r.mediaType);
  const kind = withBody?.mediaType === undefined ? undefined : mediaTypeKind(withBody.mediaType);
  // Forms and multipart answers, like any media type the client does not decode, come back as bytes.
  const responseKind = kind === undefined ? "none" : kind === "json" || kind === "text" ? kind : "blob";
  return { successResponses, responseKind, errorStatuses };
}

function schemaNameOf(ref: unknown, at: string): string {
  const value = (ref as { $ref?: unknown } | undefined)?.$ref;
  const match = typeof value === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(value) : null;
  if (!match) throw new ContractError(at, "must be a $ref to a schema under #/components/schemas");
  return unescapeSegment(match[1]!);
}

function readModelEndpoints(contract: LoadedContract): ModelEndpoint[] {
  const endpoints = contract.document["x-model-endpoints"];
  if (endpoints === undefined) return [];
  if (!endpoints || typeof endpoints !== "object" || Array.isArray(endpoints)) throw new ContractError("/x-model-endpoints", "must be an object keyed by model endpoint id");
  return Object.entries<any>(endpoints).map(([id, endpoint]) => {
    const at = pointer("x-model-endpoints", id);
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new ContractError(at, `model endpoint id "${id}" is not lowercase words joined by hyphens`);
    if (typeof endpoint?.kind !== "string") throw new ContractError(`${at}/kind`, "a model endpoint needs a kind (video, image, audio, …)");
    const inputSchema = schemaNameOf(endpoint.input, `${at}/input`);
    const outputSchema = schemaNameOf(endpoint.output, `${at}/output`);
    const output = contract.deref<any>(contract.document.components?.schemas?.[outputSchema], pointer("components", "schemas", outputSchema)).value;
    const urlField = Object.keys(output?.properties ?? {}).find((name) => output.properties[name]?.["x-expires-after-seconds"] !== undefined);
    const lifetime = urlField ? output.properties[urlField]["x-expires-after-seconds"] : undefined;
    if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime <= 0)) {
      throw new ContractError(pointer("components", "schemas", outputSchema, "properties", urlField!, "x-expires-after-seconds"), "must be a positive integer of seconds");
    }
    return {
      id,
      kind: endpoint.kind,
      summary: endpoint.summary,
      description: endpoint.description,
      inputSchema,
      outputSchema,
      urlField,
      urlLifetimeSeconds: lifetime,
      pricing: endpoint.pricing === undefined ? undefined : readPricing(contract, endpoint.pricing, inputSchema, `${at}/pricing`),
      inputExample: schemaExample(contract, inputSchema),
      inputFields: inputFieldsOf(contract, inputSchema),
      pointer: at,
    };
  });
}

/** The input schema's top-level properties and whether each is required, its `allOf` members' included. */
function inputFieldsOf(contract: LoadedContract, inputSchema: string): Array<{ name: string; required: boolean }> {
  const at = pointer("components", "schemas", inputSchema);
  const root = contract.deref<any>(contract.document.components?.schemas?.[inputSchema], at).value;
  const members = [root, ...(Array.isArray(root?.allOf) ? root.allOf.map((member: unknown, index: number) => contract.deref<any>(member, `${at}/allOf/${index}`).value) : [])];
  const objects = members.filter((member): member is Record<string, any> => typeof member === "object" && member !== null);
  const required = new Set(objects.flatMap((member) => (Array.isArray(member.required) ? member.required : [])));
  const names = new Set(objects.flatMap((member) => Object.keys(member.properties ?? {})));
  return [...names].map((name) => ({ name, required: required.has(name) }));
}

function readPricing(contract: LoadedContract, pricing: any, inputSchema: string, at: string): ModelPricing {
  const input = contract.deref<any>(contract.document.components?.schemas?.[inputSchema], pointer("components", "schemas", inputSchema)).value;
  const property = (field: string, pointerText: unknown) => {
    if (typeof pointerText !== "string" || !/^\/[^/]+$/.test(pointerText)) throw new ContractError(`${at}/${field}`, "must be a JSON pointer to a top-level input property, like /duration");
    const name = unescapeSegment(pointerText.slice(1));
    if (!input?.properties?.[name]) throw new ContractError(`${at}/${field}`, `the input schema ${inputSchema} has no property "${name}"`);
    return name;
  };
  if (typeof pricing.currency !== "string") throw new ContractError(`${at}/currency`, "must be a currency code");
  const nonNegative = (value: unknown, where: string) => {
    if (typeof value !== "number" || !(value >= 0)) throw new ContractError(where, "must be a non-negative number");
  };
  // A count of units is a number the input carries: a string property could never be priced.
  const numeric = (field: string, pointerText: unknown) => {
    const name = property(field, pointerText);
    const schema = contract.deref<any>(input.properties[name], pointer("components", "schemas", inputSchema, "properties", name)).value;
    const types = [schema?.type].flat();
    if (!types.includes("integer") && !types.includes("number")) throw new ContractError(`${at}/${field}`, `the input property "${name}" is not a number, so it cannot count units`);
    return name;
  };
  const unitsFrom = Array.isArray(pricing.unitsFrom)
    ? pricing.unitsFrom.map((entry: unknown, index: number) => numeric(`unitsFrom/${index}`, entry))
    : [numeric("unitsFrom", pricing.unitsFrom)];
  if (unitsFrom.length === 0) throw new ContractError(`${at}/unitsFrom`, "must name at least one input property");
  const unitsPer = pricing.unitsPer ?? 1;
  if (typeof unitsPer !== "number" || !(unitsPer > 0)) throw new ContractError(`${at}/unitsPer`, "must be a positive number (what the product of unitsFrom is divided by)");
  if (pricing.rate !== undefined && pricing.rates !== undefined) throw new ContractError(at, "has both a fixed `rate` and `rates`: give one");
  if (pricing.rate === undefined && pricing.rates === undefined) throw new ContractError(at, "needs a fixed `rate`, or `rates` with `rateFrom` (the input property that picks one)");
  if (pricing.rate !== undefined) {
    nonNegative(pricing.rate, `${at}/rate`);
    if (pricing.rateFrom !== undefined) throw new ContractError(`${at}/rateFrom`, "picks a rate in `rates`; a fixed `rate` needs none");
    return { currency: pricing.currency, unit: String(pricing.unit ?? "unit"), unitsFrom, unitsPer, rate: pricing.rate, formula: pricing.formula };
  }
  if (!pricing.rates || typeof pricing.rates !== "object") throw new ContractError(`${at}/rates`, "must map each value to a price per unit");
  for (const [value, rate] of Object.entries(pricing.rates)) nonNegative(rate, at + pointer("rates", value));
  return {
    currency: pricing.currency,
    unit: String(pricing.unit ?? "unit"),
    unitsFrom,
    unitsPer,
    rateFrom: property("rateFrom", pricing.rateFrom),
    rates: pricing.rates,
    formula: pricing.formula,
  };
}

function findTerminalStatuses(contract: LoadedContract): ApiModel["terminalStatuses"] {
  for (const [name, schema] of Object.entries<any>(contract.document.components?.schemas ?? {})) {
    const terminal = schema?.["x-terminal-statuses"];
    if (terminal === undefined) continue;
    if (typeof terminal !== "object" || terminal === null || Array.isArray(terminal)) {
      throw new ContractError(pointer("components", "schemas", name, "x-terminal-statuses"), 'must be an object mapping each status to "success" or "failure"');
    }
    for (const [status, outcome] of Object.entries<any>(terminal)) {
      if (outcome !== "success" && outcome !== "failure") {
        throw new ContractError(pointer("components", "schemas", name, "x-terminal-statuses", status), `must be "success" or "failure", not ${JSON.stringify(outcome)}`);
      }
    }
    return terminal;
  }
  return undefined;
}
