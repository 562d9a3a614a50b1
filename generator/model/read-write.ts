/**
 * Which of the package's types carry read-only or write-only markers (`common/read-write.ts`): the
 * emitters wrap those, and only those, in the view their place asks for (`InRequest`, `InResponse`,
 * `AsWritten`), so a document that marks nothing gets the types it always had.
 */
import { pointer } from "../common/json-pointer.ts";
import { ReadWriteMarks } from "../common/read-write.ts";
import type { OperationModel } from "./types.ts";

export function readMarkedSchemas(document: unknown, operations: readonly OperationModel[], schemaNames: readonly string[]): Set<string> {
  const marks = ReadWriteMarks.of(document);
  if (marks === undefined) return new Set();
  const pointers = [
    ...schemaNames.map((name) => pointer("components", "schemas", name)),
    ...operations.flatMap((operation) => [operation.requestBody?.schemaPointer, ...operation.successResponses.map((response) => response.schemaPointer)]),
  ];
  return new Set(pointers.filter((at): at is string => at !== undefined && marks.reachesMarker(at)));
}
