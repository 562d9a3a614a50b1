/**
 * The package README's part on idempotency keys: the operations whose contract declares a key
 * header, and an example of the three ways to call one (a key made for the call, the caller's own,
 * none). Nothing for a contract that declares none.
 */
import type { ApiModel } from "../model/index.ts";
import { jsValue } from "./js-value.ts";

export interface IdempotencyReadme {
  operations: Array<{ methodName: string; header: string; required: boolean }>;
  example: string;
}

/** The README's data, or undefined when no operation has an idempotency header. */
export function idempotencyReadme(api: ApiModel): IdempotencyReadme | undefined {
  const keyed = api.operations.filter((operation) => operation.idempotencyHeader !== undefined);
  const first = keyed[0];
  if (first === undefined) return undefined;
  const operations = keyed.map((operation) => ({
    methodName: operation.methodName,
    header: operation.idempotencyHeader!,
    required: operation.parameters.some((parameter) => parameter.in === "header" && parameter.name === operation.idempotencyHeader && parameter.required),
  }));
  const header = first.idempotencyHeader!;
  const { header: exampleHeaders, ...rest } = (first.exampleParams ?? {}) as { header?: Record<string, unknown> } & Record<string, unknown>;
  const otherHeaders = Object.fromEntries(Object.entries(exampleHeaders ?? {}).filter(([name]) => name !== header));
  const withKey = jsValue({ ...rest, header: { ...otherHeaders, [header]: "order-1042" } });
  const call = (params: Record<string, unknown>, options = "") => {
    const args = Object.keys(params).length === 0 ? (options === "" ? "" : `{}${options}`) : `${jsValue(params)}${options}`;
    return `await client.${first.methodName}(${args});`;
  };
  const withoutKey = Object.keys(otherHeaders).length === 0 ? rest : { ...rest, header: otherHeaders };
  const lines = operations[0]!.required
    ? ["// The contract requires the key: give one per logical operation, stored with it, and the same one again to repeat it.", `await client.${first.methodName}(${withKey});`]
    : [
        "// A key made for the call (a random UUID), sent on every attempt: a timeout or a dropped connection is retried.",
        call(withoutKey),
        "// Your own key (one per logical operation, stored with it), sent as it is: a later call with it is a repeat.",
        `await client.${first.methodName}(${withKey});`,
        "// No key made, and no retry once the request may have reached the server.",
        call(withoutKey, ", { idempotencyKey: false }"),
      ];
  return { operations, example: lines.join("\n") };
}
