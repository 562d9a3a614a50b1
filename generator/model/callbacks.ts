/**
 * OpenAPI's `callbacks` (requests the API sends to a URL the caller gave) get nothing in the client:
 * no types and no receivers. Said once per document, with the first place and how many, so that
 * `--strict` refuses such a document rather than the callbacks being dropped unseen.
 */
import { pointer } from "../common/json-pointer.ts";
import type { Warnings } from "../common/warnings.ts";
import type { LoadedContract } from "../load/index.ts";
import { HTTP_METHODS } from "./types.ts";

const MESSAGE =
  "callbacks are not generated: the client has no types or receivers for the requests the API sends back; the same requests described as webhooks (OpenAPI 3.1 webhooks, x-webhooks in 3.0) get receivers";

/** Warns of every operation's callback (in `paths` and `webhooks`), or of the components' when no operation names one. */
export function warnCallbacks(contract: LoadedContract, warnings: Warnings): void {
  let found = 0;
  for (const section of ["paths", "webhooks"]) {
    const items: unknown = (contract.document as Record<string, unknown>)[section];
    if (typeof items !== "object" || items === null) continue;
    for (const [key, raw] of Object.entries(items)) {
      const { value: item, pointer: itemAt } = contract.deref<Record<string, unknown>>(raw, pointer(section, key));
      if (typeof item !== "object" || item === null) continue;
      for (const method of HTTP_METHODS) {
        const callbacks = (item[method] as { callbacks?: unknown } | undefined)?.callbacks;
        if (typeof callbacks !== "object" || callbacks === null) continue;
        for (const name of Object.keys(callbacks)) {
          warnings.add("callbacks", `${itemAt}${pointer(method, "callbacks", name)}`, MESSAGE);
          found += 1;
        }
      }
    }
  }
  if (found > 0) return;
  const components: unknown = contract.document.components?.callbacks;
  if (typeof components !== "object" || components === null) return;
  for (const name of Object.keys(components)) warnings.add("callbacks", pointer("components", "callbacks", name), MESSAGE);
}
