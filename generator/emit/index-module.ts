/**
 * `src/index.ts`, the package's main entry: the client, the schema aliases, the runtime's errors
 * and helpers (the base error under the contract's brand), the extensions' exports.
 */
import type { ApiModel } from "../model/index.ts";
import type { ExtensionOutput } from "../extensions/output.ts";
import { docLines, exportStatement, moduleText, type ExportSpec } from "./typescript.ts";

export function emitIndex(api: ApiModel, extensions: readonly ExtensionOutput[]): string {
  const exports: ExportSpec[] = [
    { from: "./client.js" },
    { from: "./types.js" },
    ...extensions.flatMap((extension) => extension.indexExports),
    { from: "./runtime/error-base.js", names: [["SdkError", api.names.baseError]] },
    { from: "./runtime/error-base.js", typeOnly: true, names: ["ApiErrorKind"] },
    { from: "./runtime/errors.js" },
    { from: "./runtime/api-errors.js" },
    { from: "./runtime/error-response.js", names: ["errorFromResponse", "readBodyText"] },
    { from: "./runtime/error-response.js", typeOnly: true, names: ["ErrorRequestInfo"] },
    { from: "./runtime/redact.js", names: ["redactSecrets"] },
    { from: "./runtime/urls.js", names: ["sanitizeUrl"] },
    { from: "./runtime/rate-limit.js", names: ["parseRateLimit", "parseRetryAfter"] },
    { from: "./runtime/rate-limit.js", typeOnly: true, names: ["RateLimitState", "RateLimitWindow"] },
    { from: "./runtime/client-core.js", typeOnly: true, names: ["ApiResult", "RequestOptions", "CoreOptions"] },
    { from: "./runtime/transport.js", typeOnly: true, names: ["Logger"] },
    { from: "./runtime/hooks.js", typeOnly: true, names: ["ClientHooks", "HookAttempt", "HookRequest", "HookResponse", "HookFailure"] },
    { from: "./runtime/request-id.js", names: ["requestIdOf"] },
    { from: "./runtime/validation.js", names: ["formatIssues"] },
    { from: "./runtime/validation.js", typeOnly: true, names: ["ValidationIssue"] },
    { from: "./schema.js", typeOnly: true, names: ["paths", "components", "operations"] },
  ];
  return moduleText([[...docLines(`${api.names.client}: the typed client of ${api.packageName}.`), ...exports.map(exportStatement)]]);
}
