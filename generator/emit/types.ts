/**
 * `src/types.ts`: a short exported name for every component schema (`Pod` for
 * `components["schemas"]["Pod"]`), so users import types by name.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Project, SourceFile } from "ts-morph";
import { uniqueIdentifiers, stringLiteral } from "../common/escape.ts";
import type { ApiModel } from "../model/index.ts";
import { TEMPLATES_DIR } from "../common/paths.ts";

/** Names the package already exports elsewhere; a schema alias never shadows them. */
const TAKEN = [
  "paths", "components", "operations",
  // src/jobs.ts
  "JobResult", "BatchAbortedError", "BudgetExceededError", "CancelReport", "StreamChunk", "StreamOptions", "CostLimitError", "JobExpiredError", "JobFailedError", "JobWaitError", "RateGate", "MODEL_CATALOG",
];

let runtimeNames: string[] | undefined;

/**
 * Every name a runtime module exports (the package index re-exports its errors, rate-limit and
 * validation types): a schema named `ApiError` or `NotFoundError` gets another alias.
 */
export function runtimeExports(): string[] {
  const folder = path.join(TEMPLATES_DIR, "runtime");
  return (runtimeNames ??= readdirSync(folder)
    .filter((file) => file.endsWith(".ts"))
    .sort()
    .flatMap((file) =>
      [...readFileSync(path.join(folder, file), "utf8").matchAll(/^export (?:declare )?(?:abstract )?(?:async )?(?:class|function|const|let|type|interface|enum) ([A-Za-z_$][\w$]*)/gm)].map(
        (match) => match[1]!,
      ),
    ));
}

/**
 * The exported alias of each component schema, in `api.schemaNames` order; the validators take
 * the same names (`Pod2` has `isPod2`), so a type and its guard always match.
 */
/** The class of the client's configuration without its methods (`GpuCloudClient` → `GpuCloudClientCore`). */
export function coreClassName(className: string): string {
  return `${className}Core`;
}

export function schemaAliases(api: ApiModel, className: string): string[] {
  const operationTypes = api.operations.flatMap((o) => [`${o.typeName}Params`, `${o.typeName}Response`]);
  return uniqueIdentifiers(api.schemaNames, {
    case: "pascal",
    taken: [...TAKEN, ...runtimeExports(), className, `${className}Options`, coreClassName(className), ...operationTypes, "ModelJobOptions", "ModelInputs", "ModelOutputs", "ModelId", "KnownModelId", "ModelInput", "ModelOutput", "ModelJob", "ModelJobBase", "MODEL_ENDPOINTS", "TERMINAL_JOB_STATUSES"],
  });
}

export function emitTypeAliases(project: Project, api: ApiModel, fileName: string, className: string): SourceFile {
  const file = project.createSourceFile(fileName, "", { overwrite: true });
  file.addImportDeclaration({ moduleSpecifier: "./schema.js", isTypeOnly: true, namedImports: ["components"] });
  const names = schemaAliases(api, className);
  // One insertion: ts-morph re-parses the file on each, which is quadratic over thousands of schemas.
  file.addTypeAliases(api.schemaNames.map((schema, index) => ({ name: names[index]!, isExported: true, type: `components["schemas"][${stringLiteral(schema)}]` })));
  return file;
}
