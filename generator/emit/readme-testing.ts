/**
 * The package README's "Testing your app" example: a vitest file whose tests call the client
 * through the test kit (`<package>/testing`), one answered from the contract's examples and one
 * asked to wait out a 429 on the kit's clock. Its call is the first GET that needs no parameter
 * (else the first GET, else the first operation), made as the README's operation examples make it.
 */
import { stringLiteral } from "../common/escape.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import type { ApiModel, OperationModel } from "../model/index.ts";
import { jsValue } from "./js-value.ts";

export function testingExample(api: ApiModel, extensions: readonly ExtensionOutput[]): string | undefined {
  // An operation an extension calls its own way (an event stream) is not a plain awaited call.
  const plain = api.operations.filter((operation) => !extensions.some((extension) => extension.operationCalls?.example(operation, "call") !== undefined));
  const gets = plain.filter((operation) => operation.method === "get");
  const operation = gets.find((candidate) => !candidate.parameters.some((parameter) => parameter.required) && !candidate.requestBody) ?? gets[0] ?? plain[0];
  if (operation === undefined) return undefined;
  const call = `client.${operation.methodName}(${operation.exampleParams ? jsValue(operation.exampleParams, "    ") : ""})`;
  const options = clientOptions(api);
  const retried = operation.method === "get";
  return [
    `import { describe, expect, it } from "vitest";`,
    `import { ${api.names.client}, RateLimitError } from ${stringLiteral(api.packageName)};`,
    `import { createTestFetch } from ${stringLiteral(`${api.packageName}/testing`)};`,
    "",
    `describe(${stringLiteral(`my app against ${api.packageName}`)}, () => {`,
    `  it("gets the contract's example answer", async () => {`,
    "    const kit = createTestFetch();",
    `    const client = new ${api.names.client}({ ${options}fetch: kit.fetch, clock: kit.clock });`,
    `    const result = await ${call};`,
    "    expect(result.status).toBeLessThan(300);",
    `    expect(kit.requestsTo(${stringLiteral(operation.methodName)})).toHaveLength(1);`,
    "    expect(kit.invalidRequests).toEqual([]);",
    "  });",
    "",
    `  it("waits out a 429's Retry-After on the kit's clock, not the machine's", async () => {`,
    "    const kit = createTestFetch();",
    `    const client = new ${api.names.client}({ ${options}fetch: kit.fetch, clock: kit.clock, maxRetries: 1 });`,
    `    kit.answer(${stringLiteral(operation.methodName)}, { retryAfterSeconds: 12, times: 2 });`,
    `    await expect(${call}).rejects.toBeInstanceOf(RateLimitError);`,
    `    expect(kit.clock.elapsedMs).toBe(${retried ? "12_000" : "0"});${retried ? " // one wait of 12 s, then no retry left" : " // a POST is not retried"}`,
    "  });",
    "});",
  ].join("\n");
}

/** The credentials and relative servers' base URLs a client needs to be made in a test. */
function clientOptions(api: ApiModel): string {
  const credentials = api.security.schemes.flatMap((scheme) => scheme.options.map((option) => `${option.name}: ${stringLiteral(`test-${option.name}`)}, `));
  const servers = api.servers.filter((server) => server.relative).map((server) => `${server.key}: "https://api.test", `);
  return [...new Set([...credentials, ...servers])].join("");
}
