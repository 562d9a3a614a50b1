/**
 * The package skeleton from the Handlebars templates of `templates/package/`: package.json,
 * tsconfig.json (the ESM build, type-checked), tsconfig.cjs.json (the CommonJS build), README.md,
 * LICENSE, and CHANGELOG.md when the contract has one beside it (`openapi/CHANGELOG.md`, written by
 * `npm run version:contract`). Everything comes from the model and what the extensions add.
 */
import type { DiscriminatedExample } from "./discriminated-example.ts";
import { stringLiteral } from "../common/escape.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { describeRequestLimits, type ApiModel } from "../model/index.ts";
import { environmentVariables } from "./environment-variables.ts";
import { jsValue } from "./js-value.ts";
import { idempotencyReadme } from "./readme-idempotency.ts";
import { testingExample } from "./readme-testing.ts";
import { renderTemplate } from "./templates.ts";

export interface PackageDependencies {
  openapiFetch: string;
  typescript: string;
  /** For the package's own build when it has a Node-only entry (the terminal command). */
  typesNode?: string;
  /** Every other package's version in the workspace: an extension's runtime dependencies are taken from here. */
  workspace?: Readonly<Record<string, string>>;
}

/** `src/validators.js`'s first schema stem (`isX`, `validateX`), for the README's example. */
export interface PackageExtras {
  validatorStem?: string;
  /** A discriminated union's example (discriminated-example.ts), when the contract has one. */
  discriminated?: DiscriminatedExample | undefined;
  /** The folder the package is written to, as the README names it (`--out`). */
  packageFolder?: string | undefined;
}

export function emitPackageFiles(
  api: ApiModel,
  dependencies: PackageDependencies,
  extensions: readonly ExtensionOutput[],
  extras: PackageExtras = {},
): Array<{ path: string; contents: string }> {
  const { names } = api;
  const binName = api.names.unscoped;
  const hasBin = extensions.some((extension) => extension.bin !== undefined);

  const operations = api.operations.map((operation) => {
    const params = operation.exampleParams;
    const args = params ? jsValue(params) : "";
    // A call answered without a body (204) has no data to name.
    const data = operation.responseKind === "none" ? "" : "const { data } = ";
    const special = (call: string) => extensions.map((extension) => extension.operationCalls?.example(operation, call)).find((text) => text !== undefined);
    const example = (call: string) => special(call) ?? `${data}await ${call};`;
    return {
      plain: special(`client.${operation.methodName}(${args})`) === undefined,
      takesArguments: params !== undefined,
      methodName: operation.methodName,
      summary: operation.summary ?? operation.operationId,
      description: firstParagraph(operation.description),
      deprecated: operation.deprecated,
      route: `${operation.method.toUpperCase()} ${operation.path}`,
      idempotencyHeader: operation.idempotencyHeader,
      server: operation.server,
      limits: operation.requestLimits ? describeRequestLimits(operation.requestLimits) : undefined,
      tag: operation.tags[0] ?? "Other",
      example: example(`client.${operation.methodName}(${args})`),
      call: `client.${operation.methodName}(${args})`,
      functionExample: [
        `import { ${names.core} } from ${stringLiteral(api.packageName)};`,
        `import { ${operation.methodName} } from ${stringLiteral(`${api.packageName}/operations`)};`,
        "",
        `const core = new ${names.core}();`,
        example(`${operation.methodName}(core${params ? `, ${args}` : ""})`),
      ].join("\n"),
    };
  });
  const groups: Array<{ tag: string; operations: typeof operations }> = [];
  for (const operation of operations) {
    let group = groups.find((g) => g.tag === operation.tag);
    if (!group) groups.push((group = { tag: operation.tag, operations: [] }));
    group.operations.push(operation);
  }
  const { contact, changelog } = api;
  const packageFolder = extras.packageFolder ?? `generated/${api.names.unscoped}`;
  const hasChangelog = changelog !== undefined;
  const readmes = extensions.map((extension) => extension.readme);
  const data = {
    packageName: api.packageName,
    version: api.packageVersion,
    apiVersion: api.version,
    description: `Typed client for the ${api.title}, generated from its OpenAPI contract.`,
    title: api.title,
    summary: api.summary,
    className: names.client,
    baseError: names.baseError,
    apiKeyEnvVar: api.apiKeyEnvVar,
    ...readmeCredentials(api),
    servers: api.servers,
    errorExample: operations[0] ? errorExample(operations[0].example) : undefined,
    idempotency: idempotencyReadme(api),
    hooksExample: operations[0] ? hooksExample(api.packageName, names.client, operations[0].call) : undefined,
    otherExportsExample: otherExportsExample(api.packageName, readmes),
    logEnvVar: api.logEnvVar,
    environment: environmentVariables(api),
    groups,
    extensionContents: readmes.flatMap((readme) => readme.contents),
    extensionSections: readmes.map((readme) => readme.sections).filter((section) => section.text !== ""),
    extensionErrors: readmes.flatMap((readme) => readme.errors ?? []),
    extensionExportRows: readmes.flatMap((readme) => readme.exportRows ?? []),
    extensionRuntimes: readmes.flatMap((readme) => readme.runtimes ?? []),
    ...denoFlags(api),
    firstOperation: operations[0],
    packSteps: packSteps(api.packageName, api.packageVersion, packageFolder),
    newAppSteps: newAppSteps(api.packageName, dependencies.typescript),
    firstProgram: firstProgram(api.packageName, names.client, operations),
    sameVersion: api.packageVersion === api.version,
    hasBin,
    binName,
    validatorsEntry: `${api.packageName}/validators`,
    operationsEntry: `${api.packageName}/operations`,
    testingEntry: `${api.packageName}/testing`,
    testingExample: testingExample(api, extensions),
    coreClassName: names.core,
    readWrite: api.markedSchemas.size > 0,
    discriminated: extras.discriminated,
    validatorStem: extras.validatorStem !== undefined && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(extras.validatorStem) ? extras.validatorStem : undefined,
    licenseHolder: contact.name?.trim() ? contact.name : `The authors of ${api.packageName}`,
    homepage: contact.url !== undefined && /^https:\/\/[^\s"]+$/.test(contact.url) ? contact.url : undefined,
    hasChangelog,
    dependencies: { ...dependencies, typesNode: hasBin ? dependencies.typesNode : undefined },
    extensionDependencies: extensionDependencies(extensions, dependencies),
    dates: api.dates === "date",
  };
  const files = [
    { path: "package.json", contents: renderTemplate("package.json.hbs", data) },
    { path: "tsconfig.json", contents: renderTemplate("tsconfig.json.hbs", data) },
    { path: "tsconfig.cjs.json", contents: renderTemplate("tsconfig.cjs.json.hbs", data) },
    { path: "README.md", contents: renderTemplate("README.md.hbs", data) },
    { path: "LICENSE", contents: renderTemplate("LICENSE.hbs", data) },
    { path: "scripts/build-javascript.mjs", contents: renderTemplate("build-javascript.mjs.hbs", data) },
  ];
  // Every JSON file the generator writes must parse: a template mistake fails here, not at `npm pack`.
  for (const file of files.slice(0, 3)) JSON.parse(file.contents);
  if (hasChangelog) files.push({ path: "CHANGELOG.md", contents: changelog });
  return files;
}

/** The runtime dependencies the extensions add, by name, at the workspace's versions. */
function extensionDependencies(extensions: readonly ExtensionOutput[], dependencies: PackageDependencies): Array<{ name: string; version: string }> {
  const names = [...new Set(extensions.flatMap((extension) => extension.dependencies ?? []))].sort();
  return names.map((name) => {
    const version = dependencies.workspace?.[name];
    if (version === undefined) throw new Error(`the workspace's package.json does not name ${name}, which an extension's runtime needs`);
    return { name, version };
  });
}

/**
 * Deno's permissions for the README's Runtimes section: the environment variables the client reads
 * (every one, by name) and the hosts of the servers it knows (none when a server is relative: a page's).
 */
function denoFlags(api: ApiModel): { denoAllowEnv: string; denoAllowNet: string | undefined } {
  const hostOf = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return "";
    }
  };
  const found = api.servers.map((server) => (server.relative ? "" : hostOf(server.defaultUrl)));
  // A server with no host of its own (relative, or not a URL) leaves the hosts to the caller: no list.
  const hosts = found.includes("") ? [] : [...new Set(found)];
  return {
    denoAllowEnv: `--allow-env=${environmentVariables(api).map((variable) => variable.name).join(",")}`,
    denoAllowNet: hosts.length === 0 ? undefined : `--allow-net=${hosts.join(",")}`,
  };
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

/** The README's commands that build and pack the package where it was generated, and install the tarball in an app. */
function packSteps(packageName: string, version: string, folder: string): string {
  // `npm pack` names a scoped package's tarball `scope-name-version.tgz`.
  const tarball = `${packageName.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  const fromApp = folder.startsWith("/") ? `${folder}/${tarball}` : `path/to/${folder}/${tarball}`;
  return [`cd ${shellWord(folder)}`, `npm install && npm pack   # builds, then writes ${tarball}`, "cd path/to/your-app", `npm install ${shellWord(fromApp)}`].join("\n");
}

/** The README's commands that make a new app using the package, with the TypeScript the package is built with. */
function newAppSteps(packageName: string, typescript: string): string {
  return [
    "mkdir my-app && cd my-app",
    "npm init -y",
    "npm pkg set type=module   # ES modules: top-level await",
    `npm install ${packageName}   # or the tarball, as above`,
    `npm install --save-dev ${shellWord(`typescript@${typescript}`)} @types/node`,
  ].join("\n");
}

/** A word a POSIX shell reads as it is written. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./~-]+$/.test(text) && !text.startsWith("~") ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * The program of the README's first steps in a new app: the client, and one call whose result it
 * prints (an operation without arguments if there is one, else the first one with a plain call).
 */
function firstProgram(packageName: string, className: string, operations: ReadonlyArray<{ plain: boolean; takesArguments: boolean; call: string }>): string | undefined {
  const plain = operations.filter((operation) => operation.plain);
  const chosen = plain.find((operation) => !operation.takesArguments) ?? plain[0];
  if (chosen === undefined) return undefined;
  return [
    `import { ${className} } from ${stringLiteral(packageName)};`,
    "",
    `const client = new ${className}();`,
    `const result = await ${chosen.call};`,
    "console.log(result.status, result.requestId);",
  ].join("\n");
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

/** The other exports' example: the extensions' helpers, then the header and text helpers. */
function otherExportsExample(packageName: string, readmes: ReadonlyArray<ExtensionOutput["readme"]>): string {
  const extensionImports = readmes.flatMap((readme) => readme.exampleImports);
  const extensionLines = readmes.flatMap((readme) => readme.exampleLines);
  return [
    `import { ${[...extensionImports, "errorFromResponse", "formatIssues", "parseRateLimit", "parseRetryAfter", "redactSecrets", "requestIdOf", "sanitizeUrl"].sort().join(", ")} } from ${stringLiteral(packageName)};`,
    "",
    ...extensionLines,
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
