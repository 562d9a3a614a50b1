// The document the Prism mock serves: the contract, plus, for each known model, its own `run` and
// `runsync` paths (`/v2/<model>/run`) whose body's `input` is that model's input schema. Prism
// prefers a literal path to a templated one, so a job for a known model is validated against the
// model's own schema (the service refuses `duration: 7` for the video model, so the mock does too),
// and any other model still reaches the generic operations. Written as JSON into a fresh temporary
// folder; the contract itself is never changed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";

const SUBMISSIONS = ["run", "runsync"];

/** The contract with per-model submission paths, as a document object. */
export function mockDocumentOf(contract) {
  const document = structuredClone(contract);
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
