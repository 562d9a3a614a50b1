/**
 * A real document cut down to a few of its operations and the components they reach (every
 * internal `$ref` followed), so a test generates, type-checks and runs a small client of a large
 * API (Stripe's, GitHub's) without copying the document into the project.
 */
import { parsePointer } from "../../generator/common/json-pointer.ts";

export function documentSubset(document: any, operations: ReadonlyArray<{ path: string; method: string }>): any {
  const paths: Record<string, any> = {};
  for (const { path, method } of operations) {
    const item = document.paths[path];
    if (item?.[method] === undefined) throw new Error(`the document has no ${method} ${path}`);
    paths[path] = { ...(paths[path] ?? (item.parameters ? { parameters: item.parameters } : {})), [method]: item[method] };
  }
  const subset: any = { ...document, paths, components: {} };
  delete subset.webhooks;
  delete subset["x-webhooks"];
  // Components reached from the kept operations, then from what they reach, until nothing new.
  const pending: unknown[] = [paths];
  const copied = new Set<string>();
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node !== null && typeof node === "object") {
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === "string" && ref.startsWith("#/components/") && !copied.has(ref)) {
        copied.add(ref);
        const [, kind, name] = parsePointer(ref);
        const target = document.components?.[kind!]?.[name!];
        (subset.components[kind!] ??= {})[name!] = target;
        pending.push(target);
      }
      pending.push(...Object.values(node));
    }
  }
  subset.components.securitySchemes = document.components?.securitySchemes;
  return subset;
}
