/**
 * The package skeleton from Handlebars templates (`templates/package/*.hbs`): package.json,
 * tsconfig.json (the ESM build, type-checked), tsconfig.cjs.json (the CommonJS build), README.md,
 * LICENSE, and CHANGELOG.md when the contract has one beside it (`openapi/CHANGELOG.md`, written by
 * `npm run version:contract`). Everything comes from the model (`ApiModel`): its version, tags,
 * examples and changelog included. Templates insert contract text only through the escaping helpers
 * (`registerHandlebarsHelpers`, plus the Markdown ones below); a template with `{{{ }}}` is refused
 * before rendering.
 */
import fs from "node:fs";
import path from "node:path";
import Handlebars from "handlebars";
import { assertNoTripleStash, propertyKeyForValue, registerHandlebarsHelpers, stringLiteral } from "../common/escape.ts";
import { jobOptionsOperation, runsyncServerWait, type ApiModel, type ModelRole } from "../model/index.ts";
import { describeRequestLimits } from "../model/request-limits.ts";
import { environmentVariables } from "./environment-variables.ts";
import { coreClassName } from "./types.ts";
import { TEMPLATES_DIR } from "../common/paths.ts";

export interface PackageDependencies {
  openapiFetch: string;
  structuredHeaders: string;
  typescript: string;
  /** For the package's own build when it has a Node-only entry (the terminal command). */
  typesNode?: string;
}

/**
 * What else the generator emitted, so the skeleton follows the files present: pass the paths of
 * every emitted file ("src/bin.ts" adds a `bin` entry, "src/jobs.ts" a README section).
 */
export interface PackageExtras {
  sourcePaths?: readonly string[];
  /** A schema's validator stem (`isX`, `validateX` in `src/validators.ts`), for the README's example. */
  validatorStem?: string;
  /** The name the package exports its base error class under. */
  baseError?: string;
}

const handlebars = Handlebars.create();

/** The file name extension of the README's download example, by model kind. */
const OUTPUT_EXTENSIONS: Readonly<Record<string, string>> = { video: "mp4", image: "png", audio: "mp3" };
registerHandlebarsHelpers(handlebars);
registerMarkdownHelpers(handlebars);

function render(name: string, data: object): string {
  const file = path.join(TEMPLATES_DIR, "package", name);
  const source = fs.readFileSync(file, "utf8");
  assertNoTripleStash(source, file);
  return handlebars.compile(source, { strict: true, noEscape: false })(data);
}

export function emitPackageFiles(
  api: ApiModel,
  className: string,
  dependencies: PackageDependencies,
  extras: PackageExtras = {},
): Array<{ path: string; contents: string }> {
  const sources = new Set(extras.sourcePaths ?? []);
  const binName = api.packageName.replace(/^@[^/]+\//, "");
  const hasBin = sources.has("src/bin.ts");
  const hasJobs = sources.has("src/jobs.ts");

  const operations = api.operations.map((operation) => {
    const params = operation.exampleParams;
    return {
      methodName: operation.methodName,
      summary: operation.summary ?? operation.operationId,
      description: firstParagraph(operation.description),
      deprecated: operation.deprecated,
      route: `${operation.method.toUpperCase()} ${operation.path}`,
      server: operation.server,
      limits: operation.requestLimits ? describeRequestLimits(operation.requestLimits) : undefined,
      tag: operation.tags[0] ?? "Other",
      // A call answered without a body (204) has no data to name.
      example: `${operation.responseKind === "none" ? "" : "const { data } = "}await client.${operation.methodName}(${params ? jsValue(params) : ""});`,
      call: `client.${operation.methodName}(${params ? jsValue(params) : ""})`,
      functionExample: [
        `import { ${coreClassName(className)} } from ${stringLiteral(api.packageName)};`,
        `import { ${operation.methodName} } from ${stringLiteral(`${api.packageName}/operations`)};`,
        "",
        `const core = new ${coreClassName(className)}();`,
        `${operation.responseKind === "none" ? "" : "const { data } = "}await ${operation.methodName}(core${params ? `, ${jsValue(params)}` : ""});`,
      ].join("\n"),
    };
  });
  const groups: Array<{ tag: string; operations: typeof operations }> = [];
  for (const operation of operations) {
    let group = groups.find((g) => g.tag === operation.tag);
    if (!group) groups.push((group = { tag: operation.tag, operations: [] }));
    group.operations.push(operation);
  }
  const hasRunsync = api.operations.some((o) => o.modelRole === "runsync");
  const hasSyncWait = runsyncServerWait(api) !== undefined;
  const pacedByContract = api.operations.some((o) => o.modelRole !== undefined && o.requestLimits !== undefined);
  const models = api.modelEndpoints.map((m) => {
    const input = m.inputExample ?? {};
    return {
      id: m.id,
      kind: m.kind,
      summary: m.summary,
      fields: m.inputFields,
      pricing: m.pricing === undefined ? undefined : { ...m.pricing, divisor: m.pricing.unitsPer === 1 ? undefined : m.pricing.unitsPer },
      estimateExample: m.pricing === undefined ? undefined : estimateExample(m.id, input),
      example: `const { data: job } = await client.${hasRunsync ? "runModelSync" : "runModel"}(${stringLiteral(m.id)}, ${jsValue(input)});`,
      waitExample: `const result = await runAndWait(client, ${stringLiteral(m.id)}, ${jsValue(input)});`,
      streamExample: [
        `const { data: queued } = await client.runModel(${stringLiteral(m.id)}, ${jsValue(input)});`,
        `for await (const chunk of streamJob(client, ${stringLiteral(m.id)}, queued.id)) console.log(chunk.output);`,
      ].join("\n"),
      retryExample: [`const retried = await runAndWait(client, ${stringLiteral(m.id)}, ${jsValue(input)}, { retryFailed: 2 });`, "console.log(retried.attempts);"].join("\n"),
      budgetExample: [
        `const batch = await runMany(client, ${stringLiteral(m.id)}, [${jsValue(input)}, ${jsValue(input)}, ${jsValue(input)}], { maxTotalCostUsd: 3 });`,
        "console.log(batch.succeeded, batch.failed, batch.totalCostUsd);",
      ].join("\n"),
      downloadExample: [
        `const result = await runAndWait(client, ${stringLiteral(m.id)}, ${jsValue(input)});`,
        `const { bytes } = await download(result, ${stringLiteral(`output.${OUTPUT_EXTENSIONS[m.kind] ?? "bin"}`)});`,
        "console.log(bytes);",
      ].join("\n"),
      cancelExample: [
        // A signal of its own timer, which does not keep the process alive once the job is done.
        `const result = await runAndWait(client, ${stringLiteral(m.id)}, ${jsValue(input)}, { signal: AbortSignal.timeout(60_000), cancelOnAbort: true });`,
      ].join("\n"),
    };
  });
  const { contact, changelog } = api;
  const hasRole = (role: ModelRole) => api.operations.some((o) => o.modelRole === role);
  const hasChangelog = changelog !== undefined;
  const data = {
    packageName: api.packageName,
    version: api.packageVersion,
    apiVersion: api.version,
    description: `Typed client for the ${api.title}, generated from its OpenAPI contract.`,
    title: api.title,
    summary: api.summary,
    className,
    baseError: extras.baseError ?? "SdkError",
    apiKeyEnvVar: api.apiKeyEnvVar,
    ...readmeCredentials(api),
    servers: api.servers,
    errorExample: operations[0] ? errorExample(operations[0].example) : undefined,
    hooksExample: operations[0] ? hooksExample(api.packageName, className, operations[0].call) : undefined,
    otherExportsExample: otherExportsExample(api.packageName, models[0]),
    logEnvVar: api.logEnvVar,
    environment: environmentVariables(api),
    groups,
    models,
    firstModel: models[0],
    modelCallsExample: models[0] === undefined ? undefined : modelCallsExample(api, className, models[0].id, api.modelEndpoints[0]!.inputExample ?? {}),
    workspaceRelease: "npm run release",
    firstOperation: operations[0],
    // The budget example needs a model whose cost can be estimated.
    pricedModel: models.find((_, index) => api.modelEndpoints[index]!.pricing !== undefined),
    pacedByContract,
    hasBin,
    binName,
    hasJobs: hasJobs && models.length > 0,
    hasCancel: hasRole("cancel"),
    hasRetry: hasRole("retry"),
    hasStream: hasRole("stream") && hasRole("run"),
    hasJobOptions: jobOptionsOperation(api) !== undefined,
    hasHealth: hasRole("health"),
    hasPurge: hasRole("purge-queue"),
    // What the README says of runsync depends on whether it exists and whether its wait can be asked for.
    hasRunsync,
    hasSyncWait,
    validatorsEntry: `${api.packageName}/validators`,
    operationsEntry: `${api.packageName}/operations`,
    coreClassName: coreClassName(className),
    validatorStem: extras.validatorStem !== undefined && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(extras.validatorStem) ? extras.validatorStem : undefined,
    licenseHolder: contact.name?.trim() ? contact.name : `The authors of ${api.packageName}`,
    homepage: contact.url !== undefined && /^https:\/\/[^\s"]+$/.test(contact.url) ? contact.url : undefined,
    hasChangelog,
    dependencies: { ...dependencies, typesNode: hasBin ? dependencies.typesNode : undefined },
  };
  const files = [
    { path: "package.json", contents: render("package.json.hbs", data) },
    { path: "tsconfig.json", contents: render("tsconfig.json.hbs", data) },
    { path: "tsconfig.cjs.json", contents: render("tsconfig.cjs.json.hbs", data) },
    { path: "README.md", contents: render("README.md.hbs", data) },
    { path: "LICENSE", contents: render("LICENSE.hbs", data) },
  ];
  // Every package.json the generator writes must parse: a template mistake fails here, not at `npm pack`.
  JSON.parse(files[0]!.contents);
  JSON.parse(files[1]!.contents);
  JSON.parse(files[2]!.contents);
  if (hasChangelog) files.push({ path: "CHANGELOG.md", contents: changelog });
  return files;
}

/** The README's credential rows; `bearerKeyOnly` keeps the short text of a single bearer `apiKey`. */
function readmeCredentials(api: ApiModel) {
  // Plain words and, rendered as code, the header or parameter: Handlebars escapes backticks in text.
  const sentAs = {
    bearer: { how: "header", code: "Authorization: Bearer", note: "" },
    token: { how: "header", code: "Authorization: Bearer", note: " (a string, or a function giving one per request)" },
    basic: { how: "header", code: "Authorization: Basic", note: " (with the other)" },
    header: { how: "header", code: undefined, note: "" },
    query: { how: "query parameter", code: undefined, note: "" },
  };
  const credentials = api.security.schemes.flatMap((scheme) =>
    scheme.options.map((option) => {
      const { how, code, note } = sentAs[scheme.kind];
      return { option: option.name, envVar: option.envVar, label: option.label, scheme: scheme.name, how, code: code ?? scheme.parameter!, note };
    }),
  );
  const [only] = api.security.schemes;
  const bearerKeyOnly = api.security.schemes.length === 1 && only!.kind === "bearer" && only!.options[0]!.name === "apiKey" && api.security.requiredEverywhere;
  return { credentials, bearerKeyOnly };
}

/**
 * A JavaScript expression for JSON data, formatted like hand-written code: identifier keys bare,
 * strings through `stringLiteral`, `__proto__` computed. Nothing in the data can end it early.
 */
export function jsValue(value: unknown, indent = ""): string {
  if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value) ?? "null";
  if (typeof value === "string") return stringLiteral(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => jsValue(item, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 60 && !flat.includes("\n") ? flat : `[\n${items.map((item) => inner + item).join(",\n")},\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${inner}${propertyKeyForValue(key)}: ${jsValue(item, inner)}`).join(",\n")},\n${indent}}`;
  }
  return "undefined";
}

/** The README's error-handling example around the first operation's call. */
function errorExample(call: string): string {
  const body = call.replace(/^const \{ data \} = /, "").split("\n").map((line) => `  ${line}`).join("\n");
  return [
    "try {",
    body,
    "} catch (error) {",
    "  if (error instanceof RateLimitError) console.log(`retry in ${error.retryAfter} s`);",
    "  else if (error instanceof ApiError) console.log(error.status, error.title, error.detail);",
    "  else throw error;",
    "}",
  ].join("\n");
}

/** The first paragraph of a description, on one line, or undefined. */
function firstParagraph(text: string | undefined): string | undefined {
  const paragraph = text?.replace(/\r\n?/g, "\n").trim().split(/\n\s*\n/)[0]?.replace(/\s*\n\s*/g, " ").trim();
  return paragraph ? paragraph : undefined;
}

/** Control characters (but tab), and the bidirectional overrides and isolates. */
const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
const LINE_BREAKS = /\r\n?|\n|[\u2028\u2029]/g;

/** Contract text as one line of plain text (LICENSE): no hidden characters, no line breaks. */
export function plainText(text: string): string {
  return text.replace(HIDDEN, "").replace(LINE_BREAKS, " ").replace(/\s+/g, " ").trim();
}

/**
 * Contract text as inline Markdown that renders as the same text: every character Markdown or
 * the HTML inside it could read as syntax is backslash-escaped, so a summary cannot open a link,
 * a code span, an HTML tag or a new block.
 */
export function markdownText(text: string): string {
  return plainText(text)
    .replace(/[\\`*[\]<>|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|&(?=#?[A-Za-z0-9]+;)/g, "\\$&")
    .replace(/^(#|[-+](?=\s|$)|\d+[.)](?=\s|$))/, (lead) => (/^\d/.test(lead) ? `${lead.slice(0, -1)}\\${lead.slice(-1)}` : `\\${lead}`));
}

/**
 * A description as one paragraph of inline Markdown, keeping its code spans, emphasis and links
 * (OpenAPI descriptions are CommonMark) but never HTML nor a new block: text with `<` or `>` is
 * escaped entirely, and a leading marker that would start a heading, list, quote or fence is escaped.
 */
export function markdownInline(text: string): string {
  const line = plainText(text);
  if (/[<>]/.test(line)) return markdownText(line);
  return line.replace(/^(#|>|[-+*](?=\s|$)|\d+[.)](?=\s|$)|`{3,}|~{3,})/, (lead) => (/^\d/.test(lead) ? `${lead.slice(0, -1)}\\${lead.slice(-1)}` : `\\${lead}`));
}

/** A Markdown code span holding `text` verbatim: the fence is longer than any run of backticks inside. */
export function markdownCode(text: string): string {
  const line = plainText(text);
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A fenced code block holding `code` verbatim, whatever backticks it contains. */
export function markdownCodeBlock(language: string, code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code.replace(HIDDEN, "").replace(/[\u2028\u2029]/g, "\n")}\n${fence}`;
}

/** `{{md text}}`, `{{mdInline text}}`, `{{code text}}`, `{{codeBlock "ts" code}}`, `{{plain text}}`: each returns a SafeString. */
function registerMarkdownHelpers(hb: typeof Handlebars): void {
  const safe = (text: string) => new hb.SafeString(text);
  const required = (value: unknown, helper: string): string => {
    if (typeof value !== "string") throw new TypeError(`${helper}: expected a string, got ${typeof value}`);
    return value;
  };
  hb.registerHelper("md", (text: unknown) => safe(markdownText(required(text, "md"))));
  hb.registerHelper("mdInline", (text: unknown) => safe(markdownInline(required(text, "mdInline"))));
  hb.registerHelper("code", (text: unknown) => safe(markdownCode(required(text, "code"))));
  hb.registerHelper("plain", (text: unknown) => safe(plainText(required(text, "plain"))));
  hb.registerHelper("codeBlock", (language: unknown, code: unknown) => safe(markdownCodeBlock(required(language, "codeBlock"), required(code, "codeBlock"))));
}

/** The estimate-then-run example: a typed input variable, its estimate, a capped run that reports progress. */
function estimateExample(model: string, input: unknown): string {
  return [
    `const input = ${jsValue(input)} as const;`,
    `console.log(estimateCost(${stringLiteral(model)}, input));`,
    `const capped = await runAndWait(client, ${stringLiteral(model)}, input, {`,
    "  maxCostUsd: 5,",
    "  onProgress: ({ job, polls }) => console.log(job.status, polls),",
    "});",
  ].join("\n");
}

/** Each per-model call the contract's roles give, on one job of `model`: submit, poll, wait, then the rest. */
function modelCallsExample(api: ApiModel, className: string, model: string, input: unknown): string {
  const has = (role: ModelRole) => api.operations.some((o) => o.modelRole === role);
  const id = stringLiteral(model);
  return [
    `import { ${className}, waitForJob } from ${stringLiteral(api.packageName)};`,
    "",
    `const client = new ${className}();`,
    `const { data: queued } = await client.${has("run") ? "runModel" : "runModelSync"}(${id}, ${jsValue(input)});`,
    ...(has("status") ? [`const { data: polled } = await client.getModelJob(${id}, queued.id); // its status now`, `const finished = await waitForJob(client, ${id}, queued.id); // polled until it ends`] : []),
    ...(has("stream") ? [`const { data: partial } = await client.streamModelJob(${id}, queued.id); // outputs so far`] : []),
    ...(has("retry") ? [`await client.retryModelJob(${id}, queued.id); // a FAILED or TIMED_OUT job again, same id`] : []),
    ...(has("cancel") ? [`await client.cancelModelJob(${id}, queued.id); // ends it CANCELLED`] : []),
    ...(has("health") ? [`const { data: health } = await client.getModelHealth(${id}); // jobs and workers by state`] : []),
    ...(has("purge-queue") ? [`await client.purgeModelQueue(${id}); // every queued job of the endpoint removed`] : []),
  ].join("\n");
}

/** The other exports' example: the model helpers (with a model), then the header and text helpers. */
function otherExportsExample(packageName: string, model: { id: string } | undefined): string {
  const modelNames = model === undefined ? [] : ["MODEL_ENDPOINTS", "TERMINAL_JOB_STATUSES", "validateModelInput"];
  return [
    `import { ${[...modelNames, "errorFromResponse", "formatIssues", "parseRateLimit", "parseRetryAfter", "redactSecrets", "requestIdOf", "sanitizeUrl"].sort().join(", ")} } from ${stringLiteral(packageName)};`,
    "",
    ...(model === undefined
      ? []
      : [
          "console.log(Object.keys(MODEL_ENDPOINTS), TERMINAL_JOB_STATUSES);",
          `console.log(formatIssues(validateModelInput(${stringLiteral(model.id)}, {}))); // what the input lacks`,
        ]),
    "const headers = new Headers({ \"RateLimit-Policy\": '\"minute\";q=60;w=60', RateLimit: '\"minute\";r=57;t=30', \"Retry-After\": \"2\", \"X-Request-Id\": \"req-42\" });",
    "console.log(parseRateLimit(headers)?.windows, parseRetryAfter(headers.get(\"retry-after\")), requestIdOf(headers)); // [{ name: \"minute\", remaining: 57, resetSeconds: 30, quota: 60, windowSeconds: 60 }] 2000 req-42",
    'console.log(redactSecrets("the key sk-123 leaked", ["sk-123"]), sanitizeUrl("https://user:secret@example.com/path")); // the key [REDACTED] leaked https://example.com/path',
    "",
    "const response = await fetch(\"https://example.com/missing\");",
    "if (!response.ok) console.log((await errorFromResponse(response, { method: \"GET\", url: response.url })).message);",
  ].join("\n");
}

/** The hooks section's example: a trace header in, each attempt's status and time out, then the raw answer. */
function hooksExample(packageName: string, className: string, call: string): string {
  return [
    `import { ${className}, type ClientHooks } from ${stringLiteral(packageName)};`,
    "",
    "const tracing: ClientHooks = {",
    "  onRequest(request) {",
    "    request.headers.set(\"x-trace-id\", `trace-${request.attempt}`);",
    "  },",
    "  onResponse(response) {",
    "    console.log(`${response.operationId} #${response.attempt}: ${response.status} in ${Math.round(response.durationMs)} ms`);",
    "  },",
    "  onError(failure) {",
    "    console.log(`${failure.operationId} #${failure.attempt}: ${failure.error.kind}`);",
    "  },",
    "};",
    "",
    `const client = new ${className}({ hooks: [tracing] });`,
    `const result = await ${call};`,
    'console.log(result.requestId ?? "no request id");',
    'console.log(result.response.status, result.response.headers.get("content-type"));',
  ].join("\n");
}
