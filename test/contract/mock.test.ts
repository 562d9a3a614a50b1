import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseList, Token } from "structured-headers";
import { contractValidator, deref, loadContractDocument } from "../support/contract.ts";
import { startPrism, type RunningPrism } from "../support/prism.ts";

const document = loadContractDocument();
const schemaAt = contractValidator(document);
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface OperationCase {
  operationId: string;
  method: string;
  url: string;
  pointer: string;
  body?: unknown;
  responses: Record<string, any>;
}

/** One case per operation, its path filled with the parameters' own examples. */
function operations(): OperationCase[] {
  const cases: OperationCase[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((p: any) => deref(document, p));
      const url = template.replace(/\{([^}]+)\}/g, (_, name) => {
        const parameter = parameters.find((p: any) => p.in === "path" && p.name === name);
        return encodeURIComponent(String(parameter.example));
      });
      const requestBody = deref(document, operation.requestBody);
      const examples = requestBody?.content?.["application/json"]?.examples;
      const body = examples ? deref(document, Object.values<any>(examples)[0]).value : undefined;
      const pointer = `#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}`;
      cases.push({ operationId: operation.operationId, method: method.toUpperCase(), url, pointer, body, responses: operation.responses });
    }
  }
  return cases;
}

const cases = operations();
const KEY = "mock-test-key";
let prism: RunningPrism;

beforeAll(async () => {
  prism = await startPrism();
});
afterAll(async () => {
  await prism?.stop();
});

async function call(operation: OperationCase, headers: Record<string, string>): Promise<Response> {
  return fetch(prism.baseUrl + operation.url, {
    method: operation.method,
    headers: { ...(operation.body ? { "content-type": "application/json" } : {}), ...headers },
    body: operation.body ? JSON.stringify(operation.body) : undefined,
  });
}

/** The JSON `data` of each event of a Server-Sent Events text (one `data` line per event here). */
function eventData(text: string): unknown[] {
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5).trimStart()));
}

/** Checks an RFC 9651 rate-limit list: one member per window, each with both integer parameters. */
function expectRateLimitList(value: string | null, params: [string, string]) {
  expect(value, "rate-limit header present").toBeTruthy();
  const members = parseList(value!);
  const windows = members.map(([item]) => (item instanceof Token ? item.toString() : item));
  expect(windows).toEqual(["minute", "hour", "day"]);
  for (const [, parameters] of members) {
    for (const name of params) expect(Number.isInteger(parameters.get(name)), `parameter ${name}`).toBe(true);
  }
}

describe("the Prism mock serves every operation of the contract", () => {
  it("lists the six operations of section 4, the five job operations, and every management operation of the service's reference added so far", () => {
    expect(cases.map((c) => c.operationId).sort()).toEqual(
      [
        ...["deleteRegistry", "getJobStatus", "listPods", "listTemplates", "run", "runSync"],
        ...["cancelJob", "retryJob", "streamJob", "purgeQueue", "getEndpointHealth"],
        ...["listRegistries", "createRegistry", "getRegistry", "getSshKeys", "updateSshKeys"],
        ...["createTemplate", "getTemplate", "updateTemplate", "deleteTemplate"],
        ...["listNetworkVolumes", "createNetworkVolume", "getNetworkVolume", "updateNetworkVolume", "deleteNetworkVolume"],
        ...["listDelegations", "createDelegation", "revokeDelegation"],
        ...["listBilling", "listPodBilling", "listServerlessBilling", "listEndpointBilling", "listNetworkVolumeBilling", "listClusterBilling"],
        ...["createPod", "getPod", "updatePod", "deletePod", "podAction", "getPodLogs"],
        ...["listGpuTypes", "getGpuType", "listCpuTypes", "getCpuType", "listDataCenters", "getDataCenter", "listPublicTemplates"],
        ...["listEndpoints", "createEndpoint", "getEndpoint", "updateEndpoint", "deleteEndpoint"],
        ...["listEndpointWorkers", "listEndpointReleases", "getWorkerLogs"],
        ...["listClusters", "createCluster", "getCluster", "updateCluster", "deleteCluster", "listClusterPods"],
      ].sort(),
    );
  });

  describe.each(cases)("$operationId ($method $url)", (operation) => {
    const management = !operation.pointer.includes("{model_endpoint_id}");
    it(management ? "answers 401 with a problem body when no key is sent" : "answers 401 when no key is sent (a public endpoint's error body is not described)", async () => {
      const response = await call(operation, {});
      expect(response.status).toBe(401);
      if (!management) {
        expect(await response.text()).toBe("");
        return;
      }
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const body = await response.json();
      const validate = schemaAt("#/components/schemas/Problem");
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      // The 401's own example, not another status's.
      expect(body.status).toBe(401);
    });

    // `default` stands for every code not listed: a few of them, each served with a body of its own status.
    const statuses = Object.keys(operation.responses).flatMap((status) => (status === "default" ? ["default:500", "default:503", "default:418"] : [status]));
    it.each(statuses)("serves the documented %s response with a key", async (served) => {
      const [status, fallbackCode] = served.split(":") as [string, string | undefined];
      const code = fallbackCode ?? status;
      const response = await call(operation, { authorization: `Bearer ${KEY}`, prefer: `code=${code}` });
      expect(response.status).toBe(Number(code));
      const documented = deref(document, operation.responses[status]);

      const declaredHeaders = Object.keys(documented.headers ?? {});
      if (declaredHeaders.includes("RateLimit")) expectRateLimitList(response.headers.get("ratelimit"), ["r", "t"]);
      if (declaredHeaders.includes("RateLimit-Policy")) expectRateLimitList(response.headers.get("ratelimit-policy"), ["q", "w"]);
      if (declaredHeaders.includes("Retry-After")) expect(response.headers.get("retry-after")).toMatch(/^\d+$/);

      const [mediaType, media] = Object.entries<any>(documented.content ?? {})[0] ?? [];
      if (!mediaType) {
        expect(await response.text()).toBe("");
        return;
      }
      expect(response.headers.get("content-type")).toContain(mediaType);
      if (mediaType === "text/event-stream") {
        // A stream is declared a string; each event's JSON data is the log event of its operation.
        const data = eventData(await response.text());
        expect(data.length).toBeGreaterThan(0);
        const validate = schemaAt(`#/components/schemas/${operation.operationId === "getWorkerLogs" ? "WorkerLogEvent" : "PodLogEvent"}`);
        for (const event of data) expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
        return;
      }
      const body = await response.json();
      const schemaPointer = media.schema.$ref ?? `${operation.pointer}/responses/${status}/content/${mediaType.replace("/", "~1")}/schema`;
      const validate = schemaAt(schemaPointer);
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      if (mediaType === "application/problem+json") {
        // A problem body speaks of the status it came with…
        expect(body.status).toBe(Number(code));
        // …and a 429's names the window the headers show exhausted, with their Retry-After.
        if (code === "429") {
          const exhausted = /"(minute|hour|day)";r=0;t=(\d+)/.exec(response.headers.get("ratelimit") ?? "");
          expect(exhausted).not.toBeNull();
          expect(body.detail).toContain(`${exhausted![1]} window`);
          expect(body.detail).toContain(`retry after ${response.headers.get("retry-after")} seconds`);
        }
      }
    });
  });

  it("serves every documented example of the job status, each valid", async () => {
    const status = cases.find((c) => c.operationId === "getJobStatus")!;
    const examples = Object.keys(document.paths["/v2/{model_endpoint_id}/status/{job_id}"].get.responses["200"].content["application/json"].examples);
    const validate = schemaAt("#/components/schemas/Job");
    const seen = new Set<string>();
    for (const name of examples) {
      const response = await call(status, { authorization: `Bearer ${KEY}`, prefer: `example=${name}` });
      const body = await response.json();
      expect(validate(body), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      seen.add(body.status);
    }
    expect([...seen].sort()).toEqual(["COMPLETED", "FAILED", "IN_PROGRESS", "IN_QUEUE"]);
  });

  it("routes /v2/registries/delegations to the delegations, not to a credential whose id would be `delegations`", async () => {
    const authorized = { authorization: `Bearer ${KEY}` };
    const list = await fetch(`${prism.baseUrl}/v2/registries/delegations`, { headers: authorized });
    expect(list.status).toBe(200);
    const body = await list.json();
    const validate = schemaAt("#/components/schemas/DelegationList");
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).not.toHaveProperty("name");
    // Any other id still reaches the credential.
    const credential = await (await fetch(`${prism.baseUrl}/v2/registries/9x4m2p7v`, { headers: authorized })).json();
    expect(schemaAt("#/components/schemas/Registry")(credential)).toBe(true);
  });

  it("refuses a bucket size the billing operations do not take", async () => {
    const authorized = { authorization: `Bearer ${KEY}` };
    expect((await fetch(`${prism.baseUrl}/v2/billing/pods?bucketSize=hour&lastN=24&podId=7h9k2m4n6p`, { headers: authorized })).status).toBe(200);
    expect((await fetch(`${prism.baseUrl}/v2/billing?bucketSize=fortnight`, { headers: authorized })).status).toBe(422);
    expect((await fetch(`${prism.baseUrl}/v2/billing?lastN=0`, { headers: authorized })).status).toBe(422);
  });

  it("serves a worker's log stream as Server-Sent Events whose data are log events", async () => {
    const logs = cases.find((c) => c.operationId === "getWorkerLogs")!;
    const response = await call(logs, { authorization: `Bearer ${KEY}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const data = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
    expect(data.length).toBeGreaterThan(0);
    const validate = schemaAt("#/components/schemas/WorkerLogEvent");
    for (const line of data) expect(validate(JSON.parse(line.slice("data: ".length))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses bodies the service refuses: a load balancer scaling by queue delay, a cluster of one pod", async () => {
    const create = cases.find((c) => c.operationId === "createEndpoint")!;
    const body = { name: "lb", type: "LOAD_BALANCER", image: "example/server:1", gpu: { pools: ["AMPERE_80"] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } };
    expect((await call({ ...create, body }, { authorization: `Bearer ${KEY}` })).status).toBe(422);
    const scaled = { ...body, scaling: { type: "REQUEST_COUNT", requestCount: 4 } };
    expect((await call({ ...create, body: scaled }, { authorization: `Bearer ${KEY}` })).status).toBe(201);
    const cluster = cases.find((c) => c.operationId === "createCluster")!;
    const one = { name: "c", type: "RAY", compute: { gpuTypeId: "NVIDIA L40S", gpuCountPerPod: 1, podCount: 1 } };
    expect((await call({ ...cluster, body: one }, { authorization: `Bearer ${KEY}` })).status).toBe(422);
  });

  it("rejects a model endpoint id that is not lowercase words joined by hyphens", async () => {
    const run = cases.find((c) => c.operationId === "run")!;
    const response = await call({ ...run, url: "/v2/Not_A_Model/run" }, { authorization: `Bearer ${KEY}` });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe("the mock checks a known model's job against that model's input", () => {
  const submit = (model: string, mode: "run" | "runsync", input: unknown) =>
    fetch(`${prism.baseUrl}/v2/${model}/${mode}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ input }),
    });
  const video = { prompt: "p", image: "https://images.example.org/a.jpg" };

  it.each(["run", "runsync"] as const)("%s: refuses what the service refuses, takes what it takes", async (mode) => {
    // duration 7 fits the generic RunRequest (any object for an unlisted model), not the video model.
    expect((await submit("wan-2-6-i2v", mode, { ...video, duration: 7 })).status).toBe(400);
    expect((await submit("wan-2-6-i2v", mode, { ...video, duration: 10 })).status).toBe(200);
    expect((await submit("black-forest-labs-flux-1-dev", mode, { prompt: "x", width: 100 })).status).toBe(400);
    expect((await submit("black-forest-labs-flux-1-dev", mode, { prompt: "x", width: 512 })).status).toBe(200);
    expect((await submit("some-unlisted-model", mode, { anything: 1 })).status).toBe(200);
  });
});
