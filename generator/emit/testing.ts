/**
 * `src/testing.ts`, the package's `testing` entry: the test kit's `createTestFetch` bound to this
 * contract's operations (their specs, parameter names and documented responses with the
 * contract's examples, or values built from the schemas), and the kit's clock and types; and
 * whatever the extensions add under `src/testing/` (the fake of the service), re-exported. The main
 * entry never imports it, so an app's bundle never holds it.
 */
import { stringLiteral } from "../common/escape.ts";
import type { ApiModel, OperationModel } from "../model/index.ts";
import { code, join, raw, type Code } from "./code.ts";
import { docLines, exportStatement, importStatement, type ExportSpec } from "./typescript.ts";

const KIT = "./runtime/testing/test-fetch.js";

export function emitTesting(api: ApiModel, extensionModules: readonly string[] = []): string {
  const operations = api.operations;
  const names = [...new Set(operations.flatMap((operation) => [operation.operationId, operation.methodName]))];
  const facts = operations.map(operationFacts);
  const exports: ExportSpec[] = [
    { from: "./runtime/testing/test-clock.js", names: ["TestClock"] },
    { from: "./runtime/testing/test-clock.js", names: ["TestClockOptions"], typeOnly: true },
    { from: KIT, names: ["RecordedRequest", "TestContext", "TestFetch", "TestFetchOptions", "TestHandler"], typeOnly: true },
    { from: "./runtime/testing/answers.js", names: ["ExampleResponse", "TestAnswer", "TestFault"], typeOnly: true },
    { from: "./runtime/testing/rate-limits.js", names: ["RateLimitRule"], typeOnly: true },
    { from: "./runtime/clock.js", names: ["Clock"], typeOnly: true },
  ];
  const union: Code =
    names.length === 0 ? raw("never") : join(names.map((name) => code`\n  | ${name}`), "");
  const specs: Code =
    operations.length === 0 ? raw("[]") : code`[${join(operations.map((operation) => code`\n  $specs.${raw(operation.methodName)},`), "")}\n]`;
  const lines: Code[] = [
    ...(operations.length === 0 ? [] : [importStatement({ from: "./operation-specs.js", namespace: "$specs" })]),
    importStatement({ from: "./runtime/client-core.js", names: ["OperationSpec"], typeOnly: true }),
    importStatement({ from: KIT, names: ["createTestKit"] }),
    importStatement({ from: KIT, names: ["TestFetch", "TestFetchOptions", "TestOperationFacts"], typeOnly: true }),
  ];
  return [
    ...lines.map((line) => line.text),
    "",
    ...exports.map((spec) => exportStatement(spec).text),
    ...extensionModules.map((module) => `export * from ${stringLiteral(module)};`),
    "",
    ...docLines("Each operation's operationId and client method name: what the kit's scripts and handlers are keyed by.").map((line) => line.text),
    code`export type OperationName =${union};`.text,
    "",
    "/** The operations, in the contract's order. */",
    code`const SPECS: readonly OperationSpec[] = ${specs};`.text,
    "",
    "/** Per operation, in the same order: its method name, its parameters' names and its documented responses with their examples. */",
    `const FACTS: readonly TestOperationFacts[] = JSON.parse(${stringLiteral(JSON.stringify(facts))});`,
    "",
    ...docLines(
      [
        "An in-process `fetch` that answers every operation of the contract from its examples, checks each",
        "request with the package's validators (a 400 naming each field otherwise), and lets a test script",
        "statuses, bodies, delays, faults and rate limits per operation, on a clock the test controls. Give",
        "`kit.fetch` and `kit.clock` to the client as its `fetch` and `clock` options.",
      ].join("\n"),
    ).map((line) => line.text),
    "export function createTestFetch(options: TestFetchOptions<OperationName> = {}): TestFetch<OperationName> {",
    "  return createTestKit(SPECS, FACTS, options);",
    "}",
    "",
  ].join("\n");
}

/** What the kit needs of an operation besides its spec. */
function operationFacts(operation: OperationModel) {
  const parameters: Record<string, string[]> = {};
  for (const parameter of operation.parameters) (parameters[parameter.in] ??= []).push(parameter.name);
  return { methodName: operation.methodName, parameters, responses: operation.exampleResponses ?? [] };
}
