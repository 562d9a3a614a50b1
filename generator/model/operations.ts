/**
 * The operations of the document: where each is served, its parameters, body and responses, its
 * documented limits and examples, and the method and type names it gets.
 */
import { pointer } from "../common/json-pointer.ts";
import type { Warnings } from "../common/warnings.ts";
import type { LoadedContract, OperationObject, ServerObject } from "../load/index.ts";
import { readRequestBody, readResponses } from "./bodies.ts";
import { exampleParams, exampleResponses } from "./examples.ts";
import { readIdempotencyHeader } from "./idempotency.ts";
import { readParameters } from "./parameters.ts";
import { operationNames } from "./operation-names.ts";
import { readRequestLimits } from "./request-limits.ts";
import type { ServerRegistry } from "./servers.ts";
import { HTTP_METHODS, type OperationModel } from "./types.ts";

/**
 * Every operation of the document, in path and method order. `reservedMethodNames` are names the
 * client's methods may not take (its base class's members, an extension's).
 */
export function readOperations(contract: LoadedContract, servers: ServerRegistry, reservedMethodNames: readonly string[], warnings: Warnings | undefined): Array<Omit<OperationModel, "security">> {
  const { document } = contract;
  const drafts: Array<Omit<OperationModel, "operationId" | "methodName" | "typeName" | "paramsType" | "responseType" | "security"> & { operationId: string | undefined }> = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    // A path item may be a `$ref` (to `components/pathItems`): its operations live, and are pointed at, there.
    const { value: item, pointer: itemPointer } = contract.deref<any>(rawItem, pointer("paths", path));
    const itemServers: ServerObject[] | undefined = item.servers;
    for (const method of HTTP_METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (!operation) continue;
      const at = `${itemPointer}${pointer(method)}`;
      // fetch refuses TRACE before sending anything: a method for it could never succeed.
      if (method === "trace") {
        warnings?.add("operation:trace", at, "a TRACE operation is left out of the client: fetch cannot send one (its types stay in src/schema.ts)");
        continue;
      }
      const serverList: ServerObject[] | undefined = operation.servers ?? itemServers;
      const server = serverList?.length
        ? servers.register(serverList[0]!, operation.servers ? `${at}${pointer("servers", 0)}` : `${itemPointer}${pointer("servers", 0)}`)
        : servers.first();
      const parameters = readParameters(contract, path, itemPointer, item.parameters ?? [], operation.parameters ?? [], at, warnings);
      const requestBody = readRequestBody(contract, operation.requestBody, at, warnings);
      drafts.push({
        operationId: operation.operationId,
        method,
        path,
        pointer: at,
        summary: operation.summary,
        description: operation.description,
        tags: operation.tags ?? [],
        deprecated: operation.deprecated === true,
        server: server.key,
        parameters,
        ...idempotency(readIdempotencyHeader(operation, parameters, at, warnings)),
        requestBody,
        ...readResponses(contract, operation.responses, at, warnings),
        requestLimits: readRequestLimits(operation, at),
        exampleParams: exampleParams(contract, { parameters, requestBody }),
        exampleResponses: exampleResponses(contract, operation.responses, at),
      });
    }
  }
  const names = operationNames(drafts, reservedMethodNames, warnings);
  return drafts.map((draft, index) => {
    const { operationId, methodName, typeName } = names[index]!;
    return { ...draft, operationId, methodName, typeName, paramsType: `${typeName}Params`, responseType: `${typeName}Response` };
  });
}

/** Only an operation with an idempotency header carries the member. */
function idempotency(header: string | undefined): { idempotencyHeader?: string } {
  return header === undefined ? {} : { idempotencyHeader: header };
}
