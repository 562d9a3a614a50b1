/**
 * `src/models.ts`, when the contract has `x-model-endpoints`: per-model input and output types,
 * and the models' metadata (kind, output URL field and lifetime, pricing, terminal job statuses)
 * as constants the job helpers read at run time.
 */
import type { Project, SourceFile } from "ts-morph";
import { VariableDeclarationKind } from "../../emit/ts-morph.ts";
import { ContractError } from "../../common/errors.ts";
import { docComment, jsonLiteral, propertyKey, propertyKeyForValue, stringLiteral } from "../../common/escape.ts";
import type { ApiModel } from "../../model/index.ts";
import type { ValidatorNames } from "../../emit/validators/operation-validators.ts";

export function emitModels(project: Project, api: ApiModel, fileName: string, validators?: ValidatorNames): SourceFile | undefined {
  if (api.modelEndpoints.length === 0) return undefined;
  const status = api.operations.find((o) => o.modelRole === "status");
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
    properties: api.modelEndpoints.map((m) => ({ name: propertyKey(m.id), type: schemaType(m.inputSchema), docs: [docComment(m.summary ?? m.description)] })),
  });
  file.addInterface({
    name: "ModelOutputs",
    isExported: true,
    docs: ["The `output` of a finished job of each known model."],
    properties: api.modelEndpoints.map((m) => ({ name: propertyKey(m.id), type: schemaType(m.outputSchema) })),
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
    api.modelEndpoints.map((m) => [
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
    declarations: [{ name: "TERMINAL_JOB_STATUSES", initializer: `${safeObjectLiteral(api.terminalStatuses ?? {})} as const` }],
  });
  if (validators) addInputHelpers(file, api, validators);
  return file;
}

/** `validateModelInput` and `withModelDefaults`: the generated validators, looked up by model id. */
function addInputHelpers(file: SourceFile, api: ApiModel, validators: ValidatorNames): void {
  const stems = api.modelEndpoints.map((m) => ({ id: m.id, stem: validators.schemas.get(m.inputSchema)! }));
  const imports = stems.flatMap(({ stem }) => [`validate${stem}`, ...(validators.withDefaults.has(stem) ? [`withDefaults${stem}`] : [])]);
  file.addImportDeclaration({ moduleSpecifier: "./validators.js", namedImports: [...new Set(imports)].sort() });
  file.addImportDeclaration({ moduleSpecifier: "./runtime/validation.js", isTypeOnly: true, namedImports: ["ValidationIssue"] });
  const table = (pick: (stem: string) => string | undefined) =>
    `{ ${stems.flatMap(({ id, stem }) => (pick(stem) ? [`${propertyKeyForValue(id)}: ${pick(stem)}`] : [])).join(", ")} }`;
  file.addStatements(`const INPUT_VALIDATORS: Record<string, (input: unknown) => ValidationIssue[]> = ${table((stem) => `validate${stem}`)};
// Each takes its model's input type; they are only ever called with the input of their own model.
const INPUT_DEFAULTS: Record<string, (input: never) => unknown> = ${table((stem) => (validators.withDefaults.has(stem) ? `withDefaults${stem}` : undefined))};

/** Every problem of \`input\` for a known model (field paths as JSON pointers); none for other models. */
export function validateModelInput(model: string, input: unknown): ValidationIssue[] {
  return Object.hasOwn(INPUT_VALIDATORS, model) ? INPUT_VALIDATORS[model]!(input) : [];
}

/** A copy of \`input\` with the model's schema defaults filled in; other models' inputs are returned as they are. */
export function withModelDefaults(model: string, input: unknown): unknown {
  return Object.hasOwn(INPUT_DEFAULTS, model) ? INPUT_DEFAULTS[model]!(input as never) : input;
}`);
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
