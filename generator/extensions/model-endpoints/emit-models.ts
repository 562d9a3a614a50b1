/**
 * `src/models.ts`: per-model input and output types, the models' metadata (kind, output URL field
 * and lifetime, pricing, terminal job statuses) as constants the job helpers read at run time, and
 * the model inputs' validators and defaults looked up by model id.
 */
import { jsonLiteral } from "../../common/escape.ts";
import { code, join, raw, type Code } from "../../emit/code.ts";
import { constant, importStatement, interfaceDeclaration, moduleText, typeAlias, typeKey, valueKey } from "../../emit/typescript.ts";
import type { ValidatorNames } from "../../emit/validators/index.ts";
import type { ModelEndpointsModel } from "./types.ts";

export function emitModelsModule(model: ModelEndpointsModel, validators: ValidatorNames): string {
  const status = model.roles.status!;
  const schemaType = (name: string) => code`components["schemas"][${name}]`;
  const jobType = code`paths[${status.path}][${status.method}]["responses"][${model.jobResponse.status}]["content"][${model.jobResponse.mediaType}]`;
  const stems = model.endpoints.map((m) => ({ id: m.id, stem: validators.schemas.get(m.inputSchema)! }));
  const validatorImports = [...new Set(stems.flatMap(({ stem }) => [`validate${stem}`, ...(validators.withDefaults.has(stem) ? [`withDefaults${stem}`] : [])]))].sort();
  const table = (pick: (stem: string) => string | undefined): Code => {
    const entries = stems.flatMap(({ id, stem }) => (pick(stem) ? [code`${valueKey(id)}: ${raw(pick(stem)!)}`] : []));
    return entries.length === 0 ? raw("{}") : code`{ ${join(entries, ", ")} }`;
  };

  const metadata = Object.fromEntries(
    model.endpoints.map((m) => [
      m.id,
      {
        kind: m.kind,
        ...(m.urlField ? { urlField: m.urlField } : {}),
        ...(m.urlLifetimeSeconds ? { urlLifetimeSeconds: m.urlLifetimeSeconds } : {}),
        ...(m.pricing ? { pricing: m.pricing } : {}),
      },
    ]),
  );
  return moduleText([
    [
      importStatement({ from: "./schema.js", typeOnly: true, names: ["components", "paths"] }),
      importStatement({ from: "./validators.js", names: validatorImports }),
      importStatement({ from: "./runtime/validation.js", typeOnly: true, names: ["ValidationIssue"] }),
    ],
    [interfaceDeclaration("The `input` of each known model, by model endpoint id.", "ModelInputs", model.endpoints.map((m) => ({ name: typeKey(m.id).text, type: schemaType(m.inputSchema), docs: m.summary ?? m.description })))],
    [interfaceDeclaration("The `output` of a finished job of each known model.", "ModelOutputs", model.endpoints.map((m) => ({ name: typeKey(m.id).text, type: schemaType(m.outputSchema) })))],
    [
      typeAlias("A model this contract describes.", "KnownModelId", raw("keyof ModelInputs")),
      typeAlias("Any model endpoint id: the known ones autocomplete, any other still works with an untyped input.", "ModelId", raw("KnownModelId | (string & {})")),
      typeAlias(undefined, "ModelInput", raw("M extends KnownModelId ? ModelInputs[M] : Record<string, unknown>"), { parameters: "M extends string" }),
      typeAlias(undefined, "ModelOutput", raw('M extends KnownModelId ? ModelOutputs[M] : NonNullable<ModelJobBase["output"]>'), { parameters: "M extends string" }),
      typeAlias("A job as the status operation returns it, whatever its model.", "ModelJobBase", jobType),
      typeAlias("A job of model `M`, its `output` typed for that model.", "ModelJob", raw('Omit<ModelJobBase, "output"> & { output?: ModelOutput<M> }'), { parameters: "M extends string" }),
    ],
    [
      constant("What the contract says of each known model: its kind, where its output URL is and how long it lives, its pricing.", "MODEL_ENDPOINTS", code`${safeObjectLiteral(metadata)} as const`),
      constant("Job statuses that end a wait, each a success or a failure. Any other status means the job is still going.", "TERMINAL_JOB_STATUSES", code`${safeObjectLiteral(model.terminalStatuses)} as const`),
      constant(undefined, "INPUT_VALIDATORS", table((stem) => `validate${stem}`), { exported: false, type: raw("Record<string, (input: unknown) => ValidationIssue[]>") }),
      raw("// Each takes its model's input type; they are only ever called with the input of their own model."),
      constant(undefined, "INPUT_DEFAULTS", table((stem) => (validators.withDefaults.has(stem) ? `withDefaults${stem}` : undefined)), { exported: false, type: raw("Record<string, (input: never) => unknown>") }),
    ],
    [raw(`/** Every problem of \`input\` for a known model (field paths as JSON pointers); none for other models. */
export function validateModelInput(model: string, input: unknown): ValidationIssue[] {
  return Object.hasOwn(INPUT_VALIDATORS, model) ? INPUT_VALIDATORS[model]!(input) : [];
}`)],
    [raw(`/** A copy of \`input\` with the model's schema defaults filled in; other models' inputs are returned as they are. */
export function withModelDefaults(model: string, input: unknown): unknown {
  return Object.hasOwn(INPUT_DEFAULTS, model) ? INPUT_DEFAULTS[model]!(input as never) : input;
}`)],
  ]);
}

/**
 * Contract data as an object literal. JSON text is a valid expression, and `jsonLiteral` escapes
 * what JSON leaves raw; a `__proto__` key would set the prototype when evaluated (the reader
 * refuses one where the contract names keys, so meeting one here is the generator's bug).
 */
function safeObjectLiteral(value: unknown): Code {
  const text = jsonLiteral(value);
  if (text.includes('"__proto__"')) throw new Error("a __proto__ key reached the model endpoints' metadata");
  return raw(text);
}
