/**
 * The intermediate model (`ApiModel`): everything the emitters need, read once from the loaded
 * contract. "Model" in the generator means this; the AI models of the model-endpoints extension
 * are "model endpoints".
 */
import type { RequestLimits } from "./request-limits.ts";
import type { SecurityModel, SecurityRequirement } from "./security.ts";
import type { PackageOverrides } from "./x-sdk.ts";
import type { Warnings } from "../common/warnings.ts";

/** A call's argument: `{ path?, query?, header?, body? }`, each location's parameters by name. */
export type ExampleParams = Record<string, unknown>;

/** A documented response as the package's test kit answers it (`examples.ts`). */
export interface ExampleResponse {
  /** As the contract writes it: `200`, `4XX`, `default`. */
  status: string;
  mediaType?: string;
  /** The contract's example, else a value built from the schema; absent without a body. */
  body?: unknown;
  /** Header examples the contract gives, by name as written. */
  headers?: Record<string, string>;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

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
  /** A path template's variable no parameter declares: typed a string here, the schema module knowing nothing of it. */
  undeclared?: true;
}

/** A parameter's serialisation, as OpenAPI's `style`, `explode` and `allowReserved` say. */
export interface ParameterStyle {
  style: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix";
  explode: boolean;
  /** Query parameters only. */
  allowReserved: boolean;
}

export interface OperationModel {
  /** Unique: the document's, unless another operation has it first (`operation-names.ts`). */
  operationId: string;
  /** Method name on the client: a safe identifier. */
  methodName: string;
  /** Exported type-name stem, e.g. `ListPods`. */
  typeName: string;
  /** The exported names of the call's parameters and successful body types, e.g. `ListPodsParams`, `ListPodsResponse`. */
  paramsType: string;
  responseType: string;
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
  /**
   * The header parameter (its name as written) the operation's idempotency key goes in, recognised
   * by name or named by `x-idempotency-key` (idempotency.ts): the client sends one key per call
   * and may then retry the call like a GET.
   */
  idempotencyHeader?: string;
  /** The body the client sends; `schemaPointer` is undefined when its media type has no schema (any body). */
  requestBody?: { required: boolean; mediaType: string; schemaPointer?: string; pointer: string };
  /** Successful responses in status order: the first one with a body decides how it is read. */
  successResponses: Array<{ status: string; mediaType?: string; schemaPointer?: string }>;
  /** `auto`: the operation documents no response, so its answer is read as its Content-Type says. */
  responseKind: "json" | "text" | "blob" | "none" | "auto";
  /** Documented error statuses (numeric codes and `default`). */
  errorStatuses: string[];
  /** `x-request-limits`: what the service takes of this operation per window and at once. */
  requestLimits?: RequestLimits;
  /** Example arguments of the call, from the contract's examples; undefined when it takes none. */
  exampleParams?: ExampleParams;
  /** Each documented response with an example body and headers, for the package's test kit. */
  exampleResponses?: ExampleResponse[];
  /** Alternatives of scheme names (the first whose credentials are all given is used); `[]`: public. */
  security: SecurityRequirement;
}

/** The names the package exports that several emitters write, decided once. */
export interface PackageNames {
  /** The package's name without its scope: its terminal command's and its default folder's name. */
  unscoped: string;
  /** The client class, e.g. `GpuCloudClient`. */
  client: string;
  /** Its options interface, e.g. `GpuCloudClientOptions`. */
  options: string;
  /** The client's configuration without its methods, e.g. `GpuCloudClientCore`. */
  core: string;
  /** The runtime's base error, exported under the package's brand, e.g. `GpuCloudError`. */
  baseError: string;
  /** The exported alias of each component schema, in `schemaNames` order. */
  schemaAliases: string[];
}

/** An extension's part of the model: its name (the registry's key) and what it read. */
export interface ExtensionModel {
  name: string;
  model: unknown;
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
  /**
   * Pointers of the component, request body and success response schemas whose types carry
   * read-only or write-only markers (`model/read-write.ts`); empty for a document without them.
   */
  markedSchemas: ReadonlySet<string>;
  names: PackageNames;
  /** The extensions this contract uses, each with what it read (see generator/extensions/). */
  extensions: ExtensionModel[];
  /** `date`: `format: date-time` and `date` values are `Date`s in results and may be in requests (`--dates date`); absent, strings. */
  dates?: "date";
}

/** How a package holds `format: date-time` and `date` values: as their JSON strings (the default), or as `Date`s. */
export type DatesOption = "string" | "date";

/** What the caller may set instead of the contract's `x-sdk` (the CLI's `--name`). */
export interface ApiModelOptions extends PackageOverrides {
  /** Where problems that do not stop generation are told. */
  warnings?: Warnings;
  /** `--dates`: strings (the default) or Dates. */
  dates?: DatesOption | undefined;
}
