/**
 * The service-fake extension's model-stage side: used when the contract has every operation the
 * fake answers (`SERVICE_FAKE_OPERATIONS`) and model endpoints (`x-model-endpoints`). It has no
 * keys of its own to check.
 */
import type { ExtensionReader } from "../reader.ts";
import { SERVICE_FAKE_EXTENSION, SERVICE_FAKE_OPERATIONS, type ServiceFakeModel } from "./types.ts";

export const serviceFakeReader: ExtensionReader = {
  name: SERVICE_FAKE_EXTENSION,
  isUsedBy: (document) => hasServiceOperations(document),
  methodNames: [],
  // Only the testing entry exports the fake: the package's index names nothing of it.
  exportNames: () => [],
  read: (contract): ServiceFakeModel | undefined => (hasServiceOperations(contract.document) ? {} : undefined),
};

export function hasServiceOperations(document: unknown): boolean {
  const { paths, "x-model-endpoints": models } = document as { paths?: Record<string, Record<string, unknown> | undefined>; "x-model-endpoints"?: unknown };
  if (typeof models !== "object" || models === null) return false;
  return SERVICE_FAKE_OPERATIONS.every(([path, method]) => typeof paths?.[path]?.[method] === "object");
}
