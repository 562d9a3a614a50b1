// The document the Prism mock serves: the contract, plus, for each known model, its own `run` and
// `runsync` paths (`/v2/<model>/run`) whose body's `input` is that model's input schema. Prism
// prefers a literal path to a templated one, so a job for a known model is validated against the
// model's own schema (the service refuses `duration: 7` for the video model, so the mock does too),
// and any other model still reaches the generic operations. A problem+json `default` response
// stands for every code the operation does not list, so it has no example (one would claim a single
// status for all of them); Prism would serve it with whatever status was asked for and a body of
// its own making, so each such code gets its own response here whose example names that status.
// Written as JSON into a fresh temporary folder; the contract itself is never changed.
import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";

const SUBMISSIONS = ["run", "runsync"];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const PROBLEM = "application/problem+json";
/** The error codes HTTP names (4xx and 5xx): the ones a `default` response can stand for. */
const ERROR_CODES = Object.keys(STATUS_CODES).filter((code) => Number(code) >= 400);

/** Follows a local `$ref` (responses are only ever one reference deep in the contract). */
function resolve(document, value) {
  const ref = value?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return value;
  return ref
    .slice(2)
    .split("/")
    .reduce((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
}

/** Each code a problem `default` stands for, as a response of its own whose example carries that status. */
function spellOutDefaultProblems(document) {
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const responses = item?.[method]?.responses;
      const fallback = resolve(document, responses?.default);
      const media = fallback?.content?.[PROBLEM];
      if (!media || media.example !== undefined || media.examples !== undefined) continue;
      for (const code of ERROR_CODES) {
        if (responses[code] !== undefined || responses[`${code[0]}XX`] !== undefined) continue;
        const example = { title: STATUS_CODES[code], status: Number(code), detail: `the mock's answer for HTTP ${code}` };
        responses[code] = { ...fallback, content: { [PROBLEM]: { ...media, examples: { [code]: { value: example } } } } };
      }
    }
  }
}

/** The contract with per-model submission paths, as a document object. */
export function mockDocumentOf(contract) {
  const document = structuredClone(contract);
  spellOutDefaultProblems(document);
  const models = document["x-model-endpoints"] ?? {};
  for (const [model, endpoint] of Object.entries(models)) {
    for (const submission of SUBMISSIONS) {
      const generic = document.paths?.[`/v2/{model_endpoint_id}/${submission}`];
      if (!generic?.post || !endpoint?.input?.$ref) continue;
      const item = structuredClone(generic);
      item.post.operationId = `${item.post.operationId}-${model}`;
      item.post.parameters = (item.post.parameters ?? []).filter((parameter) => parameter.$ref !== "#/components/parameters/ModelEndpointId");
      item.post.requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: { allOf: [{ $ref: "#/components/schemas/RunRequest" }, { properties: { input: endpoint.input } }] },
          },
        },
      };
      document.paths[`/v2/${model}/${submission}`] = item;
    }
  }
  return document;
}

/** Writes the mock's document for the contract at `contractPath`; returns the file's path. */
export function writeMockDocument(contractPath) {
  const contract = parse(fs.readFileSync(contractPath, "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpu-cloud-mock-"));
  const file = path.join(dir, "openapi.json");
  fs.writeFileSync(file, JSON.stringify(mockDocumentOf(contract), null, 2));
  return file;
}
