/**
 * The extension's README section (`templates/package/pod-budget/`): a pod's cost and the budget
 * refusal, waiting for a pod; its sentence in Errors and its rows in Other exports.
 */
import { stringLiteral } from "../../common/escape.ts";
import { jsValue } from "../../emit/js-value.ts";
import { RenderedMarkdown } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";
import type { PodBudgetModel } from "./types.ts";

/** `POD_LOGS_QUIET_MS` of `templates/runtime/pod-budget/logs.ts`, in seconds (the generator does not load the runtime; a test keeps the two equal). */
export const POD_LOGS_QUIET_SECONDS = 2;

export function readmeContribution(api: ApiModel, model: PodBudgetModel): ReadmeContribution {
  const { cost, readiness } = model;
  const body = cost?.create.exampleParams?.["body"];
  const podId = readiness?.read.exampleParams?.["path"] as Record<string, unknown> | undefined;
  const id = typeof podId?.[readiness?.idParameter ?? ""] === "string" ? (podId![readiness!.idParameter] as string) : "pod-id";
  const data = {
    cost: cost && {
      priceOperation: cost.priceOperation.operationId,
      createOperation: cost.create.operationId,
      example: [
        `import { ${api.names.client}, createPodWithinBudget, estimatePodCost } from ${stringLiteral(api.packageName)};`,
        "",
        `const client = new ${api.names.client}();`,
        `const body = ${jsValue(body ?? {})};`,
        "console.log(await estimatePodCost(client, body)); // { gpuTypeId, gpuCount, cloud, usdPerGpuHour, usdPerHour }",
        "const { data: pod, estimate } = await createPodWithinBudget(client, { body }, { maxCostPerHourUsd: 1.5 });",
        "console.log(pod, estimate.usdPerHour);",
      ].join("\n"),
    },
    readiness: readiness && {
      readOperation: readiness.read.operationId,
      ready: readiness.ready,
      failed: readiness.failed,
      ports: readiness.portsFrom !== undefined,
      example: [
        `import { PodWaitError, waitForPod } from ${stringLiteral(api.packageName)};`,
        "",
        "try {",
        `  const pod = await waitForPod(client, ${stringLiteral(id)}, { timeoutMs: 15 * 60_000, signal: AbortSignal.timeout(20 * 60_000) });`,
        "  console.log(pod);",
        "} catch (error) {",
        "  if (!(error instanceof PodWaitError)) throw error;",
        "  console.log(error.reason, error.status, error.pod); // failed, timeout or aborted",
        "}",
      ].join("\n"),
    },
    both: cost !== undefined && readiness !== undefined,
    terminal: {
      name: api.names.unscoped,
      list: model.commands.list !== undefined,
      create: cost !== undefined,
      get: readiness !== undefined,
      action: model.commands.action !== undefined,
      wait: readiness !== undefined,
      gpus: model.commands.gpuTypes !== undefined,
      logs: model.commands.logs && {
        operation: model.commands.logs.operation.operationId,
        tail: model.commands.logs.filters.includes("tail"),
        since: model.commands.logs.filters.includes("since"),
        source: model.commands.logs.filters.includes("source"),
        quietSeconds: POD_LOGS_QUIET_SECONDS,
      },
      clouds: cost === undefined ? [] : Object.keys(cost.rates),
      podFile: JSON.stringify(body ?? {}, null, 2),
    },
  };
  return {
    contents: [{ title: "Pods within a budget", anchor: "pods-within-a-budget" }],
    sections: new RenderedMarkdown(renderTemplate("pod-budget/sections.md.hbs", data).replace(/\n$/, "")),
    errors: new RenderedMarkdown(renderTemplate("pod-budget/errors.md.hbs", data).replace(/\n$/, "")),
    exportRows: new RenderedMarkdown(renderTemplate("pod-budget/export-rows.md.hbs", data).replace(/\n$/, "")),
    exampleImports: [],
    exampleLines: [],
  };
}

