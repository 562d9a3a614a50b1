/**
 * `src/operation-specs.ts` (what each operation is: method, path, server, styles, its request
 * validator) and `src/operations.ts` (one standalone function per operation, the package's
 * `/operations` entry). Each spec is an export of its own and each function reaches only its own,
 * so an app that calls a few operations through the functions bundles only their validators.
 */
import { jsDoc, propertyKeyForValue, stringLiteral } from "../common/escape.ts";
import type { ApiModel, OperationModel } from "../model/index.ts";
import type { SecurityModel } from "../model/security.ts";
import { hasParams, operationDoc, paramsRequired, requirementLiteral, typeNames } from "./client.ts";
import { coreClassName } from "./types.ts";
import type { ValidatorNames } from "./validators/operation-validators.ts";

/** The text of `src/operation-specs.ts`: one `OperationSpec` per operation, named after its method. */
export function emitOperationSpecs(api: ApiModel, validators?: ValidatorNames): string {
  const hasModels = api.modelEndpoints.length > 0 && api.operations.some((o) => o.modelRole);
  let usesValidators = false;
  let usesModels = false;
  const specs = api.operations.map((operation) => {
    const names = validators?.operations.get(operation.operationId) ?? {};
    const modelInput = hasModels && validators !== undefined ? modelInputCheck(operation) : undefined;
    usesValidators ||= names.request !== undefined;
    usesModels ||= modelInput !== undefined;
    return `export const ${operation.methodName} = ${operationSpecLiteral(operation, api.security, names, modelInput)} as const satisfies OperationSpec;\n`;
  });
  return [
    `import type { OperationSpec${usesModels ? ", OperationParams" : ""} } from "./runtime/client-core.js";\n`,
    // Namespaces: an operation's name may be any identifier, a validator's name included.
    usesValidators ? 'import * as $validators from "./validators.js";\n' : "",
    usesModels ? 'import * as $models from "./models.js";\n' : "",
    "\n",
    specs.join(""),
  ].join("");
}

/** The text of `src/operations.ts`: `listPods(client, params, options)` for `client.listPods(params, options)`. */
export function emitOperationFunctions(api: ApiModel, className: string): string {
  const core = coreClassName(className);
  const functions = api.operations.map((operation) => {
    const names = typeNames(operation);
    const params = hasParams(operation) ? `params: $client.${names.params}${paramsRequired(operation) ? "" : " = {}"}, ` : "";
    return [
      jsDoc(operationDoc(operation)),
      `export function ${operation.methodName}(client: $client.${core}, ${params}options?: RequestOptions): Promise<ApiResult<$client.${names.response}>> {`,
      `  return $ClientCore.send(client, $operations.${operation.methodName}, ${hasParams(operation) ? "params" : "{}"}, options);`,
      "}",
      "",
    ].join("\n");
  });
  return [
    `import { ClientCore as $ClientCore } from "./runtime/client-core.js";\n`,
    `import type { ApiResult, RequestOptions } from "./runtime/client-core.js";\n`,
    `import type * as $client from "./client.js";\n`,
    `import * as $operations from "./operation-specs.js";\n`,
    "\n",
    functions.join("\n"),
  ].join("");
}

/**
 * For a submitting operation (`x-model-endpoint-role` run or runsync) called directly: its `input`
 * checked against the schema of the model named in the path, as `runModel` does (the operation's
 * own schema admits any model's input).
 */
function modelInputCheck(operation: OperationModel): string | undefined {
  if (operation.modelRole !== "run" && operation.modelRole !== "runsync") return undefined;
  const modelParameter = operation.parameters.find((p) => p.in === "path");
  if (!modelParameter || !operation.requestBody) return undefined;
  return [
    "(params: OperationParams) => {",
    `const model: unknown = (params.path as Record<string, unknown> | undefined)?.[${stringLiteral(modelParameter.name)}];`,
    "return typeof model === \"string\" ? $models.validateModelInput(model, (params.body as { input?: unknown } | undefined)?.input) : [];",
    "}",
  ].join(" ");
}

function operationSpecLiteral(
  operation: OperationModel,
  security: SecurityModel,
  validators: { request?: string; secretBodyFields?: string[][] },
  modelInput: string | undefined,
): string {
  const entries = [
    `operationId: ${stringLiteral(operation.operationId)}`,
    `method: ${stringLiteral(operation.method.toUpperCase())}`,
    `path: ${stringLiteral(operation.path)}`,
    `server: ${stringLiteral(operation.server)}`,
    ...(operation.requestBody ? [`requestMediaType: ${stringLiteral(operation.requestBody.mediaType)}`] : []),
    `responseKind: ${stringLiteral(operation.responseKind)}`,
    ...(validators.request ? [`validateRequest: $validators.validate${validators.request}`] : []),
    ...(modelInput ? [`checkModelInput: ${modelInput}`] : []),
    ...(validators.secretBodyFields ? [`secretBodyFields: [${validators.secretBodyFields.map((path) => `[${path.map(stringLiteral).join(", ")}]`).join(", ")}]`] : []),
    // Only an operation whose requirement differs from the one the others share carries its own.
    ...(JSON.stringify(operation.security) === JSON.stringify(security.defaultRequirement) ? [] : [`security: ${requirementLiteral(operation.security)}`]),
  ];
  // Only parameters written otherwise than OpenAPI's default for their location are listed.
  const paths = operation.parameters.filter((p) => p.in === "path" && (p.style.style !== "simple" || p.style.explode));
  if (paths.length > 0) {
    entries.push(`pathStyles: { ${paths.map((p) => `${propertyKeyForValue(p.name)}: { style: ${stringLiteral(p.style.style)}, explode: ${String(p.style.explode)} }`).join(", ")} }`);
  }
  const queries = operation.parameters.filter((p) => p.in === "query" && (p.style.style !== "form" || !p.style.explode || p.style.allowReserved));
  if (queries.length > 0) {
    const styles = queries.map(
      (p) => `${propertyKeyForValue(p.name)}: { style: ${stringLiteral(p.style.style)}, explode: ${String(p.style.explode)}${p.style.allowReserved ? ", allowReserved: true" : ""} }`,
    );
    entries.push(`queryStyles: { ${styles.join(", ")} }`);
  }
  const headers = operation.parameters.filter((p) => p.in === "header" && p.style.explode);
  if (headers.length > 0) entries.push(`headerStyles: { ${headers.map((p) => `${propertyKeyForValue(p.name)}: { explode: true }`).join(", ")} }`);
  const unexploded = operation.parameters.filter((p) => p.in === "cookie" && !p.style.explode);
  if (unexploded.length > 0) entries.push(`cookieStyles: { ${unexploded.map((p) => `${propertyKeyForValue(p.name)}: { explode: false }`).join(", ")} }`);
  const content = (["path", "query", "header", "cookie"] as const).flatMap((location) => {
    const described = operation.parameters.filter((p) => p.in === location && p.mediaType !== undefined);
    return described.length === 0 ? [] : [`${location}: { ${described.map((p) => `${propertyKeyForValue(p.name)}: ${stringLiteral(p.mediaType!)}`).join(", ")} }`];
  });
  if (content.length > 0) entries.push(`contentParameters: { ${content.join(", ")} }`);
  return `{ ${entries.join(", ")} }`;
}
