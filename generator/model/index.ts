/**
 * Stage 2, model: the loaded contract read into `ApiModel`, everything the emitters need, with
 * names decided and every unsupported construct refused with its JSON pointer. Emitters read only
 * the model; the schema emitters alone also reach into the document, through `schemaPointer`s.
 */
export { buildModel } from "./build.ts";
export { runtimeExports } from "./names.ts";
export { describeRequestLimits } from "./request-limits.ts";
export type { RequestLimits } from "./request-limits.ts";
export type { CredentialOption, SecurityKind, SecurityModel, SecurityRequirement, SecuritySchemeModel } from "./security.ts";
export { HTTP_METHODS } from "./types.ts";
export type { ApiModel, ApiModelOptions, DatesOption, ExampleParams, ExampleResponse, ExtensionModel, HttpMethod, OperationModel, PackageNames, ParameterModel, ParameterStyle, ServerModel } from "./types.ts";
