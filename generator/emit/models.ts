/**
 * `src/models.ts`, when the contract has `x-model-endpoints`: per-model input and output types,
 * and the models' metadata (kind, output URL field and lifetime, pricing, terminal job statuses)
 * as constants the job helpers read at run time.
 */
import { VariableDeclarationKind, type Project, type SourceFile } from "ts-morph";
import { ContractError } from "../errors.ts";
import { docComment, jsonLiteral, propertyKey, stringLiteral } from "../escape.ts";
import type { ApiModel } from "../model.ts";

export function emitModels(project: Project, model: ApiModel, fileName: string): SourceFile | undefined {
  if (model.models.length === 0) return undefined;
  const status = model.operations.find((o) => o.modelRole === "status");
  const jobResponse = status?.successResponses.find((r) => r.mediaType);
  if (!status || !jobResponse?.mediaType) {
    throw new ContractError("/x-model-endpoints", 'x-model-endpoints needs an operation with x-model-endpoint-role "status" that returns the job as JSON');
  }
  const file = project.createSourceFile(fileName, "", { overwrite: true });
  file.addImportDeclaration({ moduleSpecifier: "./schema.js", isTypeOnly: true, namedImports: ["components", "paths"] });

  const schemaType = (name: string) => `components["schemas"][${stringLiteral(name)}]`;
  const jobType = `paths[${stringLiteral(status.path)}][${stringLiteral(status.method)}]["responses"][${stringLiteral(jobResponse.status)}]["content"][${stringLiteral(jobResponse.mediaType)}]`;

  file.addInterface({
    name: "ModelInputs",
    isExported: true,
    docs: ["The `input` of each known model, by model endpoint id."],
    properties: model.models.map((m) => ({ name: propertyKey(m.id), type: schemaType(m.inputSchema), docs: [docComment(m.summary ?? m.description)] })),
  });
  file.addInterface({
    name: "ModelOutputs",
    isExported: true,
    docs: ["The `output` of a finished job of each known model."],
    properties: model.models.map((m) => ({ name: propertyKey(m.id), type: schemaType(m.outputSchema) })),
  });
  file.addTypeAliases([
    { name: "KnownModelId", isExported: true, type: "keyof ModelInputs", docs: ["A model this contract describes."] },
    {
      name: "ModelId",
      isExported: true,
      type: "KnownModelId | (string & {})",
      docs: ["Any model endpoint id: the known ones autocomplete, any other still works with an untyped input."],
    },
    {
      name: "ModelInput",
      isExported: true,
      typeParameters: ["M extends string"],
      type: "M extends KnownModelId ? ModelInputs[M] : Record<string, unknown>",
    },
    {
      name: "ModelOutput",
      isExported: true,
      typeParameters: ["M extends string"],
      type: `M extends KnownModelId ? ModelOutputs[M] : NonNullable<ModelJobBase["output"]>`,
    },
    { name: "ModelJobBase", isExported: true, type: jobType, docs: ["A job as the status operation returns it, whatever its model."] },
    {
      name: "ModelJob",
      isExported: true,
      typeParameters: ["M extends string"],
      type: `Omit<ModelJobBase, "output"> & { output?: ModelOutput<M> }`,
      docs: ["A job of model `M`, its `output` typed for that model."],
    },
  ]);

  const metadata = Object.fromEntries(
    model.models.map((m) => [
      m.id,
      {
        kind: m.kind,
        ...(m.urlField ? { urlField: m.urlField } : {}),
        ...(m.urlLifetimeSeconds ? { urlLifetimeSeconds: m.urlLifetimeSeconds } : {}),
        ...(m.pricing ? { pricing: m.pricing } : {}),
      },
    ]),
  );
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: ["What the contract says of each known model: its kind, where its output URL is and how long it lives, its pricing."],
    declarations: [{ name: "MODEL_ENDPOINTS", initializer: `${safeObjectLiteral(metadata)} as const` }],
  });
  file.addVariableStatement({
    declarationKind: VariableDeclarationKind.Const,
    isExported: true,
    docs: ["Job statuses that end a wait, each a success or a failure. Any other status means the job is still going."],
    declarations: [{ name: "TERMINAL_JOB_STATUSES", initializer: `${safeObjectLiteral(model.terminalStatuses ?? {})} as const` }],
  });
  return file;
}

/**
 * Contract data as an object literal. JSON text is a valid expression, and `jsonLiteral` escapes
 * what JSON leaves raw; a `__proto__` key would set the prototype when evaluated, so it is refused.
 */
function safeObjectLiteral(value: unknown): string {
  const text = jsonLiteral(value);
  if (text.includes('"__proto__"')) throw new ContractError("/x-model-endpoints", "a key named __proto__ cannot be emitted as data");
  return text;
}
