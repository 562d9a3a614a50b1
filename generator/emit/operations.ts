/**
 * `src/operations.ts`, the package's `/operations` entry: one standalone function per operation
 * (`listPods(client, params, options)` for `client.listPods(params, options)`), each reaching only
 * its own spec, so an app bundles only the operations it calls.
 */
import type { ApiModel } from "../model/index.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { Block, code, join, raw } from "./code.ts";
import { extensionCall, hasParams, operationDoc, paramsRequired } from "./operation-docs.ts";
import { declaration, importStatement, mergeImports, moduleText } from "./typescript.ts";

export function emitOperationFunctions(api: ApiModel, extensions: readonly ExtensionOutput[]): string {
  const functions = api.operations.map((operation) => {
    const taken = extensionCall(extensions, (calls) => calls.standalone(operation, code`$client.${raw(api.names.core)}`));
    if (taken !== undefined) return taken;
    const parameters = [
      code`client: $client.${raw(api.names.core)}`,
      ...(hasParams(operation) ? [code`params: $client.${raw(operation.paramsType)}${raw(paramsRequired(operation) ? "" : " = {}")}`] : []),
      raw("options?: RequestOptions"),
    ];
    const body = new Block().add(code`return $ClientCore.send(client, $operations.${raw(operation.methodName)}, ${raw(hasParams(operation) ? "params" : "{}")}, options);`);
    return declaration(
      operationDoc(operation, extensions),
      code`export function ${raw(operation.methodName)}(${join(parameters, ", ")}): Promise<ApiResult<$client.${raw(operation.responseType)}>> {`,
      body,
    );
  });
  const imports = [
    importStatement({ from: "./runtime/client-core.js", names: ["ClientCore as $ClientCore"] }),
    importStatement({ from: "./runtime/client-core.js", typeOnly: true, names: ["ApiResult", "RequestOptions"] }),
    importStatement({ from: "./client.js", typeOnly: true, namespace: "$client" }),
    importStatement({ from: "./operation-specs.js", namespace: "$operations" }),
    ...mergeImports(extensions.flatMap((extension) => extension.operationCalls?.functionImports ?? [])).map(importStatement),
  ];
  return moduleText([imports, ...functions.map((f) => [f])]);
}
