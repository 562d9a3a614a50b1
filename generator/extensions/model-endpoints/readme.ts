/**
 * The extension's README sections (`templates/package/model-endpoints/`): the models table and a
 * call per model, waiting for jobs (cost, cancel, retry, budgets, downloads, streams), the terminal
 * command; its sentence in Errors, its item in Runtimes, its rows and example lines in Other exports.
 */
import { stringLiteral } from "../../common/escape.ts";
import { environmentVariables } from "../../emit/environment-variables.ts";
import { jsValue } from "../../emit/js-value.ts";
import { RenderedMarkdown, markdownCode, markdownText } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";
import type { EndpointPricing, EndpointRole, ModelEndpointsModel, TokenRate } from "./types.ts";

/** The file name extension of the README's download example, by model kind. */
const OUTPUT_EXTENSIONS: Readonly<Record<string, string>> = { video: "mp4", image: "png", audio: "mp3" };

export function readmeContribution(api: ApiModel, model: ModelEndpointsModel): ReadmeContribution {
  const has = (role: EndpointRole) => model.roles[role] !== undefined;
  const hasRunsync = has("runsync");
  const models = model.endpoints.map((m) => {
    const input = jsValue(m.inputExample ?? {});
    const id = stringLiteral(m.id);
    return {
      id: m.id,
      kind: m.kind,
      summary: m.summary,
      fields: m.inputFields,
      price: new RenderedMarkdown(m.pricing === undefined ? "no published price" : priceMarkdown(priceRule(m.pricing))),
      estimateExample: m.pricing === undefined ? undefined : estimateExample(id, input),
      example: `const { data: job } = await client.${hasRunsync ? "runModelSync" : "runModel"}(${id}, ${input});`,
      waitExample: `const result = await runAndWait(client, ${id}, ${input});`,
      streamExample: [`const { data: queued } = await client.runModel(${id}, ${input});`, `for await (const chunk of streamJob(client, ${id}, queued.id)) console.log(chunk.output);`].join("\n"),
      retryExample: [`const retried = await runAndWait(client, ${id}, ${input}, { retryFailed: 2 });`, "console.log(retried.attempts);"].join("\n"),
      budgetExample: [`const batch = await runMany(client, ${id}, [${input}, ${input}, ${input}], { maxTotalCostUsd: 3 });`, "console.log(batch.succeeded, batch.failed, batch.totalCostUsd);"].join("\n"),
      downloadExample: [
        `const result = await runAndWait(client, ${id}, ${input});`,
        `const { bytes } = await download(result, ${stringLiteral(`output.${OUTPUT_EXTENSIONS[m.kind] ?? "bin"}`)});`,
        "console.log(bytes);",
      ].join("\n"),
      // A signal of its own timer, which does not keep the process alive once the job is done.
      cancelExample: `const result = await runAndWait(client, ${id}, ${input}, { signal: AbortSignal.timeout(60_000), cancelOnAbort: true });`,
    };
  });
  const first = model.endpoints[0]!;
  const data = {
    packageName: api.packageName,
    className: api.names.client,
    coreClassName: api.names.core,
    binName: api.names.unscoped,
    environment: environmentVariables(api),
    models,
    firstModel: models[0],
    modelCallsExample: modelCallsExample(api, model, first.id, first.inputExample ?? {}),
    // The budget example needs a model whose cost can be estimated.
    pricedModel: models.find((_, index) => model.endpoints[index]!.pricing !== undefined),
    pacedByContract: Object.values(model.roles).some((operation) => operation.requestLimits !== undefined),
    hasCancel: has("cancel"),
    hasRetry: has("retry"),
    hasStream: has("stream") && has("run"),
    hasJobOptions: model.jobOptionsOperation !== undefined,
    hasHealth: has("health"),
    hasPurge: has("purge-queue"),
    // What the README says of runsync depends on whether it exists and whether its wait can be asked for.
    hasRunsync,
    hasSyncWait: model.serverWait !== undefined,
  };
  return {
    contents: [
      { title: "Models", anchor: "models" },
      { title: "Waiting for jobs", anchor: "waiting-for-jobs" },
      { title: "Terminal command", anchor: "terminal-command" },
    ],
    // The core template ends each extension's sections with a line break of its own.
    sections: new RenderedMarkdown(renderTemplate("model-endpoints/sections.md.hbs", data).replace(/\n$/, "")),
    errors: new RenderedMarkdown(renderTemplate("model-endpoints/errors.md.hbs", data)),
    exportRows: new RenderedMarkdown(renderTemplate("model-endpoints/export-rows.md.hbs", data)),
    runtimes: new RenderedMarkdown(renderTemplate("model-endpoints/runtimes.md.hbs", data).replace(/\n$/, "")),
    exampleImports: ["MODEL_ENDPOINTS", "TERMINAL_JOB_STATUSES", "validateModelInput"],
    exampleLines: ["console.log(Object.keys(MODEL_ENDPOINTS), TERMINAL_JOB_STATUSES);", `console.log(formatIssues(validateModelInput(${stringLiteral(first.id)}, {}))); // what the input lacks`],
  };
}

/** The estimate-then-run example: a typed input variable, its estimate, a capped run that reports progress. */
function estimateExample(id: string, input: string): string {
  return [
    `const input = ${input} as const;`,
    `console.log(estimateCost(${id}, input));`,
    `const capped = await runAndWait(client, ${id}, input, {`,
    "  maxCostUsd: 5,",
    "  onProgress: ({ job, polls }) => console.log(job.status, polls),",
    "});",
  ].join("\n");
}

/** Each per-model call the contract's roles give, on one job of `model`: submit, poll, wait, then the rest. */
function modelCallsExample(api: ApiModel, model: ModelEndpointsModel, modelId: string, input: unknown): string {
  const has = (role: EndpointRole) => model.roles[role] !== undefined;
  const id = stringLiteral(modelId);
  return [
    `import { ${api.names.client}, waitForJob } from ${stringLiteral(api.packageName)};`,
    "",
    `const client = new ${api.names.client}();`,
    `const { data: queued } = await client.${has("run") ? "runModel" : "runModelSync"}(${id}, ${jsValue(input)});`,
    `const { data: polled } = await client.getModelJob(${id}, queued.id); // its status now`,
    `const finished = await waitForJob(client, ${id}, queued.id); // polled until it ends`,
    ...(has("stream") ? [`const { data: partial } = await client.streamModelJob(${id}, queued.id); // outputs so far`] : []),
    ...(has("retry") ? [`await client.retryModelJob(${id}, queued.id); // a FAILED or TIMED_OUT job again, same id`] : []),
    ...(has("cancel") ? [`await client.cancelModelJob(${id}, queued.id); // ends it CANCELLED`] : []),
    ...(has("health") ? [`const { data: health } = await client.getModelHealth(${id}); // jobs and workers by state`] : []),
    ...(has("purge-queue") ? [`await client.purgeModelQueue(${id}); // every queued job of the endpoint removed`] : []),
  ].join("\n");
}

/** The parts as inline Markdown: text escaped (its spaces kept around it), properties as code spans. */
function priceMarkdown(parts: PricePart[]): string {
  return parts
    .map((part) => {
      if (part.code) return markdownCode(part.code);
      const [, before, core, after] = /^(\s*)(.*?)(\s*)$/s.exec(part.text)!;
      return `${before}${markdownText(core!)}${after}`;
    })
    .join("");
}

/** A piece of the models table's price rule: plain text, or an input property shown as code. */
interface PricePart {
  text: string;
  code: string;
}

/** A pricing as one line of the models table: the rate, what counts the units, and when no estimate is made. */
export function priceRule(pricing: EndpointPricing): PricePart[] {
  const parts: PricePart[] = [];
  const text = (value: string) => parts.push({ text: value, code: "" });
  const field = (name: string) => parts.push({ text: "", code: name });
  const figure = (rate: number | TokenRate) => (typeof rate === "number" ? String(rate) : `in ${rate.input} / out ${rate.output}`);
  const per = pricing.tokens ? `${pricing.unitsPer} tokens` : pricing.unit;
  text(pricing.rate === undefined ? `${pricing.currency} per ${per}` : `${figure(pricing.rate)} ${pricing.currency} per ${per}`);
  if (pricing.tokens) {
    text(", an upper bound: output up to ");
    field(pricing.tokens.maxOutputFrom.join("."));
    text(", input a token per byte of ");
    field(pricing.tokens.inputFrom.join("."));
  } else if (pricing.charactersFrom !== undefined) {
    text(": characters of ");
    field(pricing.charactersFrom);
    if (pricing.unitsPer !== 1) text(` ÷ ${pricing.unitsPer}`);
  } else if (pricing.unitsFrom !== undefined) {
    text(": ");
    pricing.unitsFrom.forEach((name, index) => {
      if (index > 0) text(" × ");
      field(name);
    });
    if (pricing.unitsPer !== 1) text(` ÷ ${pricing.unitsPer}`);
    if (pricing.round === "up") text(", rounded up");
  } else if (pricing.unitsUnknown === undefined) {
    text(", one per job");
  }
  if (pricing.rates !== undefined) {
    text("; rate by ");
    pricing.rateFrom!.forEach((name, index) => {
      if (index > 0) text(", ");
      field(name);
    });
    text(`: ${Object.entries(pricing.rates).map(([value, rate]) => `${value}: ${figure(rate)}`).join("; ")}`);
  }
  if (pricing.unitsUnknown !== undefined) text(`; no estimate (${pricing.unitsUnknown})`);
  if (pricing.unknownWhen !== undefined) {
    text("; no estimate with ");
    pricing.unknownWhen.forEach((name, index) => {
      if (index > 0) text(", ");
      field(name);
    });
  }
  return parts;
}
