/**
 * The package skeleton from Handlebars templates (`templates/package/*.hbs`): package.json,
 * tsconfig.json, README.md. Templates insert contract text only through the escaping helpers
 * (`registerHandlebarsHelpers`); a template with `{{{ }}}` is refused before rendering.
 */
import fs from "node:fs";
import path from "node:path";
import Handlebars from "handlebars";
import { assertNoTripleStash, registerHandlebarsHelpers } from "../escape.ts";
import type { LoadedContract } from "../load.ts";
import type { ApiModel, OperationModel } from "../model.ts";

export const TEMPLATES_DIR = path.resolve(import.meta.dirname, "../../templates");

export interface PackageDependencies {
  openapiFetch: string;
  structuredHeaders: string;
  typescript: string;
}

const handlebars = Handlebars.create();
registerHandlebarsHelpers(handlebars);

function render(name: string, data: object): string {
  const file = path.join(TEMPLATES_DIR, "package", name);
  const source = fs.readFileSync(file, "utf8");
  assertNoTripleStash(source, file);
  return handlebars.compile(source, { strict: true, noEscape: false })(data);
}

export function emitPackageFiles(
  contract: LoadedContract,
  model: ApiModel,
  className: string,
  dependencies: PackageDependencies,
): Array<{ path: string; contents: string }> {
  const operations = model.operations.map((operation) => ({
    methodName: operation.methodName,
    summary: operation.summary ?? operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    exampleParams: exampleParams(contract, operation),
  }));
  const models = model.models.map((m) => ({
    id: m.id,
    kind: m.kind,
    exampleInput: (contract.document.components?.schemas?.[m.inputSchema] as any)?.examples?.[0] ?? {},
  }));
  const data = {
    packageName: model.packageName,
    version: model.version,
    description: `Typed client for the ${model.title}, generated from its OpenAPI contract.`,
    title: model.title,
    className,
    apiKeyEnvVar: model.apiKeyEnvVar,
    servers: model.servers,
    operations,
    models,
    dependencies,
  };
  return [
    { path: "package.json", contents: render("package.json.hbs", data) },
    { path: "tsconfig.json", contents: render("tsconfig.json.hbs", data) },
    { path: "README.md", contents: render("README.md.hbs", data) },
  ];
}

/** Example arguments of a call, from the contract's own examples; undefined when the method takes none. */
export function exampleParams(contract: LoadedContract, operation: OperationModel): object | undefined {
  const params: Record<string, Record<string, unknown> | unknown> = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required) continue;
    const declared = contract.at<any>(parameter.pointer);
    const schema = contract.at<any>(parameter.schemaPointer);
    const value = declared?.example ?? schema?.examples?.[0] ?? schema?.default ?? "…";
    const group = (params[parameter.in] ??= {}) as Record<string, unknown>;
    group[parameter.name] = value;
  }
  if (operation.requestBody) {
    const media = contract.at<any>(operation.requestBody.pointer + "/content/" + operation.requestBody.mediaType.replace(/~/g, "~0").replace(/\//g, "~1"));
    const first = media?.examples ? Object.values<any>(media.examples)[0] : undefined;
    const resolved = first?.$ref ? contract.resolve<any>(first.$ref) : first;
    params.body = media?.example ?? resolved?.value ?? {};
  }
  return Object.keys(params).length ? params : undefined;
}
