/**
 * One corpus document through the generator as a user would meet it: generate in-process, write
 * the package, import it and construct the client, and judge the document's own examples with the
 * package's validators beside ajv. Type-checking is left to the caller, which checks all packages
 * in one program. Never throws: what happened is the result.
 */
import fs from "node:fs";
import path from "node:path";
import { validatorNames } from "../../generator/emit/validators/operation-validators.ts";
import { ContractError, UsageError } from "../../generator/common/errors.ts";
import { generateFiles } from "../../generator/generate.ts";
import { escapeSegment } from "../../generator/common/json-pointer.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { holdsFormatDifference } from "../validators/format-differences.ts";
import { collectExamples, type DocumentExample } from "./examples.ts";
import { documentOracle, inDirection } from "./oracle.ts";

export interface ExampleCounts {
  checked: number;
  /** Both say valid, or both say invalid. */
  agreed: number;
  /** Both say invalid: the document's examples break its own schemas. */
  invalid: number;
  /** Disagreements on a string listed in FORMAT_DIFFERENCES. */
  formatDifferences: number;
  /** ajv could not compile the schema (the generator could). */
  oracleErrors: string[];
  disagreements: string[];
}

export interface DocumentResult {
  document: string;
  openapi: string;
  outcome: "generated" | "refused" | "crashed";
  /** The refusal or crash in one line, the document's own path left out. */
  reason?: string;
  /** True when the refusal was one located line: `<file>#<pointer>: <message>`. */
  locatedOneLine?: boolean;
  warnings: number;
  outDir?: string;
  client?: string;
  examples: ExampleCounts;
  ms: number;
}

/** The `openapi` field as written (before any upgrading at load). */
export function declaredVersion(file: string): string {
  const head = fs.readFileSync(file, "utf8").slice(0, 4096);
  return /["']?openapi["']?\s*:\s*["']?([0-9][0-9.]*)/.exec(head)?.[1] ?? "?";
}

/** The issues of a composed parameters validator that concern one parameter (or the body). */
function concerns(issuePath: string, prefix: string): boolean {
  return issuePath === prefix || issuePath.startsWith(`${prefix}/`);
}

function generatedVerdict(example: DocumentExample, validators: Record<string, any>, responses: Record<string, any> | undefined): boolean | undefined {
  const target = example.target;
  if (target.kind === "schema") return validators[`validate${target.stem}`]?.(example.value).length === 0;
  if (target.kind === "response") {
    const validate = responses?.[target.operationId]?.[target.status];
    return validate ? validate(example.value).length === 0 : undefined;
  }
  const validate = validators[`validate${target.stem}`];
  if (!validate) return undefined;
  const prefix = target.location === "body" ? "/body" : `/${target.location}/${escapeSegment(target.name!)}`;
  const input = target.location === "body" ? { body: example.value } : { [target.location]: { [target.name!]: example.value } };
  return !validate(input).some((issue: { path: string }) => concerns(issue.path, prefix));
}

export async function checkDocument(document: string, file: string, outDir: string, clientOptions: (names: { servers: string[]; credentials: string[] }) => object): Promise<DocumentResult> {
  const started = performance.now();
  const examples: ExampleCounts = { checked: 0, agreed: 0, invalid: 0, formatDifferences: 0, oracleErrors: [], disagreements: [] };
  const result: DocumentResult = { document, openapi: declaredVersion(file), outcome: "generated", warnings: 0, examples, ms: 0 };
  const done = () => ({ ...result, ms: performance.now() - started });
  let generated;
  try {
    generated = await generateFiles({ spec: file, out: outDir });
    await writeOutput(outDir, generated.files);
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    const refused = error instanceof ContractError || error instanceof UsageError;
    result.outcome = refused ? "refused" : "crashed";
    result.reason = (message.startsWith(file) ? message.slice(file.length) : message).split("\n")[0];
    result.locatedOneLine = refused && message.startsWith(`${file}#`) && !message.includes("\n");
    if (!refused) result.reason += ` (${(error as Error)?.stack?.split("\n")[1]?.trim() ?? "no stack"})`;
    return done();
  }
  result.outDir = outDir;
  result.warnings = generated.warnings.length;
  const { api, contract } = generated;
  generated.files.length = 0;
  try {
    const module = await import(path.join(outDir, "src/index.ts"));
    const ClientClass = Object.values<any>(module).find((v) => typeof v === "function" && /Client$/.test(v.name));
    const credentials = api.security.schemes.flatMap((scheme) => scheme.options.map((option) => option.name));
    const client = new ClientClass(clientOptions({ servers: api.servers.map((s) => s.key), credentials }));
    const missing = api.operations.filter((o) => typeof client[o.methodName] !== "function").map((o) => o.methodName);
    result.client = missing.length === 0 ? ClientClass.name : `${ClientClass.name} lacks ${missing.join(", ")}`;
  } catch (error) {
    result.client = `not constructed: ${String((error as Error)?.message).split("\n")[0]}`;
  }
  const validators = await import(path.join(outDir, "src/validators.js"));
  const responsesFile = path.join(outDir, "src/response-validators.js");
  const responses = fs.existsSync(responsesFile) ? (await import(responsesFile)).RESPONSE_VALIDATORS : undefined;
  const asWritten = documentOracle(contract.document);
  const directed = (direction: "request" | "response") => {
    const document = inDirection(contract.document, direction);
    return document === contract.document ? asWritten : documentOracle(document);
  };
  const [requestOracle, responseOracle] = [directed("request"), directed("response")];
  const oracleOf = (target: DocumentExample["target"]) => (target.kind === "response" ? responseOracle : target.kind === "params" && target.location === "body" ? requestOracle : asWritten);
  for (const example of collectExamples(contract.document, api, validatorNames(api))) {
    const ours = generatedVerdict(example, validators, responses);
    if (ours === undefined) {
      examples.disagreements.push(`${example.at}: no generated validator for ${JSON.stringify(example.target)}`);
      continue;
    }
    const theirs = oracleOf(example.target)(example.schemaPointer, example.value);
    examples.checked++;
    if (typeof theirs === "object") examples.oracleErrors.push(`${example.at}: ${theirs.error}`);
    else if (theirs === ours) {
      examples.agreed++;
      if (!ours) examples.invalid++;
    } else if (holdsFormatDifference(example.value)) examples.formatDifferences++;
    else examples.disagreements.push(`${example.at}: validators say ${ours ? "valid" : "invalid"}, ajv ${theirs ? "valid" : "invalid"}`);
  }
  return done();
}
