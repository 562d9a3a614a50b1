/**
 * `emitSchemaTypes` in a worker thread, so that importing openapi-typescript and its TypeScript (a
 * third of a cold run) happens on the second core while the main thread loads the contract and
 * imports ts-morph. `generator/run.mjs` bundles this file beside the CLI; the CLI starts the worker
 * first thing (see `startSchemaTypesWorker`).
 *
 * Protocol: the main thread posts the bundled document once; the worker answers
 * `{ ok: true, text }` or `{ ok: false, message, stack }` and is then terminated.
 */
import { parentPort } from "node:worker_threads";
import type { OpenApiDocument } from "../load.ts";
import { emitSchemaTypes } from "./schema-types.ts";

export type WorkerAnswer = { ok: true; text: string } | { ok: false; message: string; stack?: string };

parentPort?.once("message", (document: OpenApiDocument) => {
  emitSchemaTypes({ document }).then(
    (text) => parentPort?.postMessage({ ok: true, text } satisfies WorkerAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      } satisfies WorkerAnswer),
  );
});
