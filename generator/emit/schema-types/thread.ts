/**
 * The main thread's side of `schema-types-worker.ts`: start the worker early, hand it the document
 * when the contract is loaded, get `src/schema.ts` back. Errors come back as errors of this thread.
 */
import type { Worker } from "node:worker_threads";
import { ContractError, EmitterError } from "../../common/errors.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { OperationKey, SchemaTypesOptions } from "./index.ts";
import type { SchemaTypesRequest, WorkerAnswer } from "./worker.ts";

export interface SchemaTypesThread {
  emit(contract: Pick<LoadedContract, "document">, operations?: readonly OperationKey[], options?: SchemaTypesOptions): Promise<string>;
  /** Stops the worker if it is still running (a run that failed before emitting). */
  close(): Promise<void>;
}

/**
 * Talks to a worker started from the built (JavaScript) `schema-types-worker` file, ideally as the
 * process's first act, so its imports run while the main thread imports its own.
 */
export function schemaTypesThread(worker: Worker, earlierErrors: readonly unknown[] = []): SchemaTypesThread {
  // Until the document is posted, a failed start (a missing file) is kept for `emit` to report.
  let startError: unknown = earlierErrors[0];
  worker.once("error", (error) => (startError ??= error));
  let used = false;
  return {
    emit(contract, operations = [], options = {}) {
      if (used) return Promise.reject(new Error("the schema types worker emits once"));
      used = true;
      if (startError !== undefined) return Promise.reject(failed(startError));
      return new Promise<string>((resolve, reject) => {
        worker.removeAllListeners("error");
        worker.once("error", (error) => reject(failed(error)));
        worker.once("exit", (code) => reject(new EmitterError(`the type emitter's worker exited with code ${code} before answering`)));
        worker.once("message", (answer: WorkerAnswer) => {
          if (answer.ok) resolve(answer.text);
          else if (answer.pointer !== undefined && answer.reason !== undefined) reject(new ContractError(answer.pointer, answer.reason));
          else reject(failed(Object.assign(new Error(answer.message), answer.stack === undefined ? {} : { stack: answer.stack })));
          void worker.terminate();
        });
        worker.postMessage({ document: contract.document, operations, options } satisfies SchemaTypesRequest);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** Whatever went wrong in the worker, as one line for the CLI (the original stays the cause). */
function failed(error: unknown): EmitterError {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();
  return new EmitterError(`the type emitter's worker failed: ${message}`, { cause: error });
}
