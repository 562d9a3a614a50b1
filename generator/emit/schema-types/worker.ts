/**
 * `emitSchemaTypes` in a worker thread, so that importing openapi-typescript and its TypeScript (a
 * third of a cold run) happens on the second core while the main thread loads the contract and
 * runs the other emitters. `generator/run.mjs` bundles this file beside the CLI; the CLI starts the worker
 * first thing (see `startSchemaTypesWorker`).
 *
 * Protocol: the main thread posts the bundled document and the model's operationIds once
 * (`SchemaTypesRequest`); the worker answers
 * `{ ok: true, text }` or `{ ok: false, message, stack }` and is then terminated.
 */
import { parentPort } from "node:worker_threads";
import { ContractError } from "../../common/errors.ts";
import type { OpenApiDocument } from "../../load/index.ts";
import { emitSchemaTypes, type OperationKey, type SchemaTypesOptions } from "./index.ts";

export interface SchemaTypesRequest {
  document: OpenApiDocument;
  operations: readonly OperationKey[];
  options: SchemaTypesOptions;
}

/** A failure carries `pointer` and `reason` when it is located (a ContractError), to be one again on the other side. */
export type WorkerAnswer = { ok: true; text: string } | { ok: false; message: string; stack?: string; pointer?: string; reason?: string };

// openapi-typescript prints its findings before throwing them; the error comes back in the answer.
console.error = () => undefined;

parentPort?.once("message", ({ document, operations, options }: SchemaTypesRequest) => {
  // The message is this thread's own copy: no need for another.
  emitSchemaTypes({ document }, operations, { ...options, owned: true }).then(
    (text) => parentPort?.postMessage({ ok: true, text } satisfies WorkerAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
        ...(error instanceof ContractError ? { pointer: error.pointer, reason: error.reason } : {}),
      } satisfies WorkerAnswer),
  );
});
