/**
 * `src/types.ts`: a short exported name for every component schema (`Pod` for
 * `components["schemas"]["Pod"]`), so users import types by name.
 */
import type { Project, SourceFile } from "ts-morph";
import { uniqueIdentifiers, stringLiteral } from "../escape.ts";
import type { ApiModel } from "../model.ts";

/** Names the package already exports elsewhere; a schema alias never shadows them. */
const TAKEN = ["paths", "components", "operations", "ClientCore", "ApiResult", "RequestOptions", "CoreOptions", "Logger"];

export function emitTypeAliases(project: Project, model: ApiModel, fileName: string, className: string): SourceFile {
  const file = project.createSourceFile(fileName, "", { overwrite: true });
  file.addImportDeclaration({ moduleSpecifier: "./schema.js", isTypeOnly: true, namedImports: ["components"] });
  const operationTypes = model.operations.flatMap((o) => [`${o.typeName}Params`, `${o.typeName}Response`]);
  const names = uniqueIdentifiers(model.schemaNames, {
    case: "pascal",
    taken: [...TAKEN, className, `${className}Options`, ...operationTypes, "ModelInputs", "ModelOutputs", "ModelId", "KnownModelId", "ModelInput", "ModelOutput", "ModelJob", "ModelJobBase", "MODEL_ENDPOINTS", "TERMINAL_JOB_STATUSES"],
  });
  // One insertion: ts-morph re-parses the file on each, which is quadratic over thousands of schemas.
  file.addTypeAliases(model.schemaNames.map((schema, index) => ({ name: names[index]!, isExported: true, type: `components["schemas"][${stringLiteral(schema)}]` })));
  return file;
}
