/**
 * `src/models.ts`: per-model input and output types, the models' metadata (kind, output URL field
 * and lifetime, pricing, terminal job statuses) as constants the job helpers read at run time, and
 * the model inputs' validators and defaults looked up by model id.
 */
import { jsonLiteral } from "../../common/escape.ts";
import { code, join, raw, type Code } from "../../emit/code.ts";
import { constant, importStatement, interfaceDeclaration, moduleText, typeAlias, typeKey, valueKey } from "../../emit/typescript.ts";
import type { ValidatorNames } from "../../emit/validators/index.ts";
import { moduleFiles, type EmittedModule, type OutputFile } from "../../emit/output-file.ts";
import type { EndpointPricing, ModelEndpointsModel } from "./types.ts";

/**
 * `marked` says which components have read-only or write-only properties: their types are written
 * `AsWritten<…>` (the checks are the components' own, as written).
 */
export function emitModelsModule(model: ModelEndpointsModel, validators: ValidatorNames, marked: (schema: string) => boolean = () => false): string {
  const status = model.roles.status!;
  const schemaType = (name: string) => (marked(name) ? code`AsWritten<components["schemas"][${name}]>` : code`components["schemas"][${name}]`);
  const anyMarked = model.endpoints.some((m) => marked(m.inputSchema) || marked(m.outputSchema));
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
        // The formula is for people (the contract, the README): the runtime computes from the terms.
        ...(m.pricing ? { pricing: withoutFormula(m.pricing) } : {}),
      },
    ]),
  );
  return moduleText([
    [
      importStatement({ from: "./schema.js", typeOnly: true, names: [...(anyMarked ? ["AsWritten"] : []), "components", "paths"] }),
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
    [
      raw(`/** A known model's input checks: its validator, and its defaults' filler when its schema has defaults. */
export interface ModelInputChecks {
  validate(input: unknown): ValidationIssue[];
  withDefaults?: ((input: never) => unknown) | undefined;
}`),
      raw("// One module per input schema, imported when a model is first checked: an app bundles only the checks of the models it runs."),
      constant(undefined, "INPUT_CHECK_LOADERS", lazyTable(stems, validators.withDefaults), { exported: false, type: raw("Record<string, () => Promise<ModelInputChecks>>") }),
      constant(undefined, "loadedInputChecks", raw("new Map<string, ModelInputChecks>()"), { exported: false }),
    ],
    [raw(`/**
 * Loads the input checks of a known model (undefined for other models); what the client's run
 * calls and the job helpers use, so that each model's checks load only when it is used.
 */
export async function loadModelInputChecks(model: string): Promise<ModelInputChecks | undefined> {
  if (!Object.hasOwn(INPUT_CHECK_LOADERS, model)) return undefined;
  let checks = loadedInputChecks.get(model);
  if (checks === undefined) {
    checks = await INPUT_CHECK_LOADERS[model]!();
    loadedInputChecks.set(model, checks);
  }
  return checks;
}`)],
    [raw(`/**
 * The problems of a run's \`input\` for the model a request names (paths under \`prefix\`): at once
 * when the model's checks are loaded, else once they are; none for other models.
 */
export function checkModelInput(model: unknown, input: unknown, prefix: string): ValidationIssue[] | Promise<ValidationIssue[]> {
  if (typeof model !== "string" || !Object.hasOwn(INPUT_CHECK_LOADERS, model)) return [];
  const rooted = (checks: ModelInputChecks | undefined) => (checks === undefined ? [] : checks.validate(input).map((issue) => ({ ...issue, path: \`\${prefix}\${issue.path}\` })));
  const loaded = loadedInputChecks.get(model);
  return loaded !== undefined ? rooted(loaded) : loadModelInputChecks(model).then(rooted);
}`)],
    [raw(`/** The input checks of a model once \`loadModelInputChecks\` has loaded them; undefined before. */
export function loadedModelInputChecks(model: string): ModelInputChecks | undefined {
  return loadedInputChecks.get(model);
}`)],
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

function withoutFormula(pricing: EndpointPricing): Omit<EndpointPricing, "formula"> {
  const { formula: _formula, ...terms } = pricing;
  return terms;
}

/** Each model's loader of its input schema's checks module (`model-inputs/<stem>.js`). */
function lazyTable(stems: Array<{ id: string; stem: string }>, withDefaults: ReadonlySet<string>): Code {
  const entries = stems.map(({ id, stem }) => {
    const fill = withDefaults.has(stem) ? `, withDefaults: m.withDefaults${stem}` : "";
    return code`${valueKey(id)}: () => import(${`./model-inputs/${stem}.js`}).then((m) => ({ validate: m.validate${raw(stem)}${raw(fill)} }))`;
  });
  return entries.length === 0 ? raw("{}") : code`{ ${join(entries, ", ")} }`;
}

/** `src/model-inputs/<stem>.js` (and `.d.ts`): each model input's validator and defaults in a module of its own, which imports nothing of `src/validators.js`. */
export function emitModelInputModules(standalone: ReadonlyMap<string, EmittedModule>): OutputFile[] {
  return [...standalone].flatMap(([stem, module]) => moduleFiles(`src/model-inputs/${stem}`, module));
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
