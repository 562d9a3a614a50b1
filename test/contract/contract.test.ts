import { describe, expect, it } from "vitest";
import { contractValidator, deref, loadContractDocument } from "../support/contract.ts";

const document = loadContractDocument();
const schemas = document.components.schemas;
const schemaAt = contractValidator(document);
const operations = Object.entries<any>(document.paths).flatMap(([path, item]) =>
  ["get", "put", "post", "delete", "patch"].filter((m) => item[m]).map((method) => ({ path, method, item, operation: item[method] })),
);

describe("the contract encodes the service description", () => {
  it("is OpenAPI 3.1, version 2.0.0, every path under /v2/", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.version).toBe("2.0.0");
    for (const { path } of operations) expect(path.startsWith("/v2/")).toBe(true);
  });

  it("binds every operation to its own server variable", () => {
    // The public endpoints' paths all start with the model's id; every other path is the management API's.
    for (const { path, item } of operations) {
      const [server] = item.servers;
      const variable = path.startsWith("/v2/{model_endpoint_id}/") ? "public_endpoint_base_url" : "base_url";
      expect(server.url, path).toBe(`{${variable}}`);
      expect(server.variables[variable].default).toMatch(/^https:\/\/[^/]+$/);
    }
  });

  it("requires HTTP bearer on every operation", () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { operation } of operations) expect(operation.security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents the status codes of section 4 for each operation", () => {
    const codes = (path: string, method: string) => Object.keys(document.paths[path][method].responses).sort();
    expect(codes("/v2/pods", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/templates", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/registries/{id}", "delete")).toEqual(["204", "400", "401", "403", "404", "429", "default"]);
    expect(document.paths["/v2/registries/{id}"].delete.responses["204"].content).toBeUndefined();
    // The registry operations of the service's reference.
    expect(codes("/v2/registries", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/registries", "post")).toEqual(["201", "400", "401", "403", "422", "429", "default"]);
    expect(codes("/v2/registries/{id}", "get")).toEqual(["200", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/account/ssh-keys", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/account/ssh-keys", "put")).toEqual(["200", "401", "403", "422", "429", "default"]);
    expect(codes("/v2/templates", "post")).toEqual(["201", "400", "401", "403", "422", "429", "default"]);
    expect(codes("/v2/templates/{id}", "get")).toEqual(["200", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/templates/{id}", "patch")).toEqual(["200", "400", "401", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/templates/{id}", "delete")).toEqual(["204", "400", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/network-volumes", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/network-volumes", "post")).toEqual(["201", "400", "401", "403", "422", "429", "default"]);
    expect(codes("/v2/network-volumes/{id}", "get")).toEqual(["200", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/network-volumes/{id}", "patch")).toEqual(["200", "400", "401", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/network-volumes/{id}", "delete")).toEqual(["204", "401", "403", "404", "429", "default"]);
    // The reference lists only 429 and default for the delegations; their bearer security brings 401 and 403 too.
    expect(codes("/v2/registries/delegations", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/registries/delegations", "post")).toEqual(["201", "401", "403", "429", "default"]);
    expect(codes("/v2/registries/delegations/{id}", "delete")).toEqual(["204", "401", "403", "404", "429", "default"]);
    for (const path of ["/v2/billing", "/v2/billing/pods", "/v2/billing/serverless", "/v2/billing/endpoints", "/v2/billing/network-volumes", "/v2/billing/clusters"]) {
      expect(codes(path, "get"), path).toEqual(["200", "401", "403", "429", "default"]);
    }
    // The pod operations of the service's reference.
    expect(codes("/v2/pods", "post")).toEqual(["201", "400", "401", "402", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/pods/{id}", "get")).toEqual(["200", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/pods/{id}", "patch")).toEqual(["200", "400", "401", "403", "404", "409", "422", "429", "default"]);
    expect(codes("/v2/pods/{id}", "delete")).toEqual(["204", "401", "403", "404", "409", "429", "default"]);
    expect(codes("/v2/pods/{id}/action", "post")).toEqual(["200", "204", "400", "401", "403", "404", "409", "422", "429", "default"]);
    expect(codes("/v2/pods/{id}/logs", "get")).toEqual(["200", "401", "403", "404", "429", "default"]);
    for (const path of ["/v2/catalog/gpus", "/v2/catalog/cpus", "/v2/catalog/datacenters", "/v2/catalog/templates"]) {
      expect(codes(path, "get"), path).toEqual(["200", "401", "403", "429", "default"]);
    }
    for (const path of ["/v2/catalog/gpus/{id}", "/v2/catalog/cpus/{id}", "/v2/catalog/datacenters/{id}"]) {
      expect(codes(path, "get"), path).toEqual(["200", "401", "403", "404", "429", "default"]);
    }
    // Serverless endpoints and clusters, as the service's reference lists their answers.
    const read = ["200", "401", "403", "404", "429", "default"];
    expect(codes("/v2/serverless", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/serverless", "post")).toEqual(["201", "400", "401", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/serverless/{id}", "get")).toEqual(read);
    expect(codes("/v2/serverless/{id}", "patch")).toEqual(["200", "400", "401", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/serverless/{id}", "delete")).toEqual(["204", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/serverless/{id}/workers", "get")).toEqual(read);
    expect(codes("/v2/serverless/{id}/releases", "get")).toEqual(read);
    expect(codes("/v2/serverless/{id}/workers/{workerId}/logs", "get")).toEqual(read);
    expect(codes("/v2/clusters", "get")).toEqual(["200", "401", "403", "429", "default"]);
    expect(codes("/v2/clusters", "post")).toEqual(["201", "400", "401", "403", "422", "429", "default"]);
    expect(codes("/v2/clusters/{id}", "get")).toEqual(read);
    expect(codes("/v2/clusters/{id}", "patch")).toEqual(["200", "400", "401", "403", "404", "422", "429", "default"]);
    expect(codes("/v2/clusters/{id}", "delete")).toEqual(["204", "401", "403", "404", "429", "default"]);
    expect(codes("/v2/clusters/{id}/pods", "get")).toEqual(read);
    for (const path of ["/v2/serverless/{id}", "/v2/clusters/{id}"]) expect(document.paths[path].delete.responses["204"].content).toBeUndefined();
  });

  it("creates a pod with exactly one of gpu and cpu, and an image unless a template gives one", () => {
    const body = schemaAt("#/components/schemas/CreatePodRequest");
    const gpu = { id: "NVIDIA GeForce RTX 4090", count: 2 };
    expect(body({ name: "a", image: "img", gpu })).toBe(true);
    expect(body({ name: "a", templateId: "9x4m2p7v", cpu: { id: "cpu5c", vcpuCount: 4 } })).toBe(true);
    expect(body({ name: "a", image: "img" }), "neither gpu nor cpu").toBe(false);
    expect(body({ name: "a", image: "img", gpu, cpu: { id: "cpu5c", vcpuCount: 4 } }), "both").toBe(false);
    expect(body({ name: "a", gpu }), "no image and no template").toBe(false);
    expect(body({ name: "a", image: "img", gpu: { ...gpu, count: 0 } })).toBe(false);
    expect(body({ name: "a", image: "img", gpu: { id: "x", minCudaVersion: "12" } }), "major.minor").toBe(false);
    expect(body({ name: "a", image: "img", gpu, bogus: 1 }), "unknown field").toBe(false);
    expect(schemaAt("#/components/schemas/PodActionRequest")({ action: "stop", force: true })).toBe(false);
  });

  it("prices a pod from the catalog by x-pod-cost, with the defaults the create body's schema has", () => {
    const cost = document.paths["/v2/pods"].post["x-pod-cost"];
    expect(cost.priceOperation).toBe(document.paths["/v2/catalog/gpus/{id}"].get.operationId);
    expect(cost.defaultGpuCount).toBe(schemas.CreatePodGpu.properties.count.default);
    expect(cost.defaultCloud).toBe(schemas.CreatePodRequest.properties.cloud.default);
    // Every cloud the rates name is one the Cloud schema knows, and its pointer reaches a GpuPrice member.
    expect(Object.keys(cost.rates).sort()).toEqual(schemas.Cloud.anyOf[0].enum.slice().sort());
    for (const pointer of Object.values<string>(cost.rates)) expect(Object.keys(schemas.GpuPrice.properties)).toContain(pointer.replace("/price/", ""));
    const readiness = document.paths["/v2/pods/{id}"].get["x-pod-readiness"];
    expect([...readiness.ready, ...readiness.failed].every((status: string) => schemas.PodStatus.anyOf[0].enum.includes(status))).toBe(true);
  });

  it("prices a GPU type in USD per GPU and hour, per cloud, and keeps the catalog's sets open", () => {
    expect(schemas.GpuPrice.required.sort()).toEqual(["community", "secure"]);
    expect(Object.keys(schemas.GpuPrice.properties).sort()).toEqual(["community", "secure", "serverless"]);
    expect(schemas.GpuPrice.description).toMatch(/USD per hour for one GPU/);
    expect(schemas.GpuType.required).toContain("price");
    const gpu = schemaAt("#/components/schemas/GpuType");
    const type = { id: "g", name: "G", pool: null, manufacturer: "SOMEONE_NEW", memory: 24, secure: true, community: false, price: { secure: 1, community: 0.5 }, maxCount: { secure: 8, community: 0 }, availability: "ABUNDANT" };
    expect(gpu(type), JSON.stringify(gpu.errors)).toBe(true);
    expect(gpu({ ...type, price: { secure: -1, community: 0.5 } })).toBe(false);
    const { price: _price, ...withoutPrice } = type;
    expect(gpu(withoutPrice)).toBe(false);
    const center = schemaAt("#/components/schemas/DataCenter");
    expect(center({ id: "X-1", name: "X", region: "ARCTIC", globalNetwork: false, networkVolumeTypes: ["COLD"], compliance: ["NEW_CERT"] })).toBe(true);
  });


  it("takes a serverless endpoint as the service does: closed body, one compute family, an image or a template", () => {
    const create = schemaAt("#/components/schemas/CreateEndpointRequest");
    const gpu = { name: "sdxl", type: "QUEUE", scaling: { type: "QUEUE_DELAY", queueDelay: 4 }, gpu: { pools: ["AMPERE_48"] } };
    expect(create({ ...gpu, image: "example/worker:1" })).toBe(true);
    expect(create({ ...gpu, templateId: "t7m2q9x4c1" })).toBe(true);
    expect(create(gpu), "neither image nor template").toBe(false);
    expect(create({ ...gpu, image: "example/worker:1", gpuCount: 2 }), "unknown field").toBe(false);
    expect(create({ ...gpu, image: "example/worker:1", scaling: { type: "QUEUE_DELAY", queueDelay: 0.2 } }), "queue delay below 0.5").toBe(false);
    // A load balancer scales by requests in flight, never by queue delay.
    expect(create({ ...gpu, image: "example/worker:1", type: "LOAD_BALANCER" })).toBe(false);
    expect(create({ ...gpu, image: "example/worker:1", type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 4 } })).toBe(true);
    // A CUDA set and a floor exclude each other, unless the set is empty.
    const cuda = (extra: object) => create({ ...gpu, image: "example/worker:1", gpu: { pools: ["AMPERE_48"], ...extra } });
    expect(cuda({ allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" })).toBe(false);
    expect(cuda({ allowedCudaVersions: [], minCudaVersion: "12.1" })).toBe(true);
    expect(cuda({ minCudaVersion: "12" })).toBe(false);
    // Exactly one compute family.
    const { gpu: _gpu, ...noCompute } = { ...gpu, image: "example/worker:1" };
    expect(create(noCompute), "neither gpu nor cpu").toBe(false);
    expect(create({ ...noCompute, cpu: [{ id: "cpu3c", vcpuCount: 2 }] })).toBe(true);
    expect(create({ ...noCompute, gpu: gpu.gpu, cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), "both").toBe(false);
    expect(create({ ...noCompute, cpu: [{ id: "cpu3c", vcpuCount: 1 }] }), "fewer than 2 vCPUs").toBe(false);

    const update = schemaAt("#/components/schemas/UpdateEndpointRequest");
    expect(update({})).toBe(true);
    expect(update({ workers: { min: 1 } })).toBe(true);
    expect(update({ gpu: { count: 2 }, cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), "both compute families").toBe(false);
    expect(update({ gpu: { excludedTypes: ["NVIDIA L40"] } }), "exclusions without pools").toBe(false);
    expect(update({ gpu: { allowedCudaVersions: ["12.4"], minCudaVersion: "" } }), "the empty floor clears it").toBe(true);
    expect(update({ workers: { min: 1, warm: true } })).toBe(false);
  });

  it("answers endpoints of both routing types, with the request URLs of each", () => {
    const endpoint = schemaAt("#/components/schemas/ServerlessEndpoint");
    const examples = document.paths["/v2/serverless/{id}"].get.responses["200"].content["application/json"].examples;
    const [queue, balancer] = [examples.gpuQueue.value, examples.loadBalancer.value];
    for (const example of [queue, balancer]) expect(endpoint(example), JSON.stringify(endpoint.errors)).toBe(true);
    expect(Object.keys(queue.requestUrls).sort()).toEqual(["cancel", "health", "purgeQueue", "retry", "run", "runSync", "status", "stream"]);
    expect(Object.keys(balancer.requestUrls).sort()).toEqual(["base", "health"]);
    // Open sets: a routing type or a FlashBoot mode the service adds later still validates.
    expect(endpoint({ ...queue, type: "BATCH", flashboot: "TURBO" })).toBe(true);
    expect(endpoint({ ...queue, scaling: { type: "QUEUE_DELAY" } })).toBe(false);
  });

  it("creates clusters of 2 to 250 identical pods, renames them, and nothing else", () => {
    const create = schemaAt("#/components/schemas/CreateClusterRequest");
    const cluster = { name: "c", type: "SLURM", compute: { gpuTypeId: "NVIDIA H200", gpuCountPerPod: 8, podCount: 2 } };
    expect(create(cluster)).toBe(true);
    expect(create({ ...cluster, compute: { ...cluster.compute, podCount: 1 } })).toBe(false);
    expect(create({ ...cluster, compute: { ...cluster.compute, podCount: 251 } })).toBe(false);
    // Clusters cannot pull private images yet: no registry in the body.
    expect(create({ ...cluster, registry: "cred_private_registry" })).toBe(false);
    const rename = schemaAt("#/components/schemas/UpdateClusterRequest");
    expect(rename({ name: "renamed" })).toBe(true);
    expect(rename({})).toBe(false);
    expect(rename({ name: "renamed", type: "RAY" })).toBe(false);
  });

  it("streams worker logs as text/event-stream whose events carry a WorkerLogEvent", () => {
    const logs = document.paths["/v2/serverless/{id}/workers/{workerId}/logs"].get;
    const parameters = logs.parameters.map((p: any) => deref(document, p));
    expect(parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(["path:id", "path:workerId", "query:source", "query:tail", "query:since", "header:Last-Event-ID"]);
    expect(parameters.find((p: any) => p.name === "tail").schema).toMatchObject({ type: "integer", minimum: 0, maximum: 5000, default: 100 });
    const media = logs.responses["200"].content["text/event-stream"];
    expect(media.schema.type).toBe("string");
    // Each stream names its event's data schema where the generator reads it (x-item-schema, OpenAPI 3.2's itemSchema).
    const dataSchema = (path: string) => document.paths[path].get.responses["200"].content["text/event-stream"]["x-item-schema"].properties.data;
    expect(dataSchema("/v2/serverless/{id}/workers/{workerId}/logs")).toMatchObject({ contentMediaType: "application/json", contentSchema: { $ref: "#/components/schemas/WorkerLogEvent" } });
    expect(dataSchema("/v2/pods/{id}/logs")).toMatchObject({ contentMediaType: "application/json", contentSchema: { $ref: "#/components/schemas/PodLogEvent" } });
    const event = schemaAt("#/components/schemas/WorkerLogEvent");
    const events = String(Object.values<any>(media.examples)[0].value)
      .split("\n\n")
      .filter((block) => block.trim())
      .map((block) => Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)])));
    expect(events.length).toBeGreaterThan(0);
    for (const { id, data } of events) {
      expect(id).toBeTruthy();
      expect(event(JSON.parse(data ?? "null")), JSON.stringify(event.errors)).toBe(true);
    }
    expect(event({ ts: "2026-07-14T09:12:31Z", source: "container" })).toBe(false);
  });

  it("takes SSH keys as authorized_keys lines, the whole set at once", () => {
    const body = schemaAt("#/components/schemas/UpdateSshKeysRequest");
    expect(body({ keys: [] })).toBe(true);
    expect(body({ keys: ["ssh-ed25519 AAAAC3Nza dev@laptop", "ecdsa-sha2-nistp256 AAAAE2Vj", "sk-ssh-ed25519@openssh.com AAAA key\twith tab"] })).toBe(true);
    for (const bad of ["AAAAC3Nza dev@laptop", "ssh-ed25519", "ssh-ed25519 AAAA\nssh-rsa BBBB", "rsa-sha2 AAAA"]) expect(body({ keys: [bad] }), bad).toBe(false);
    expect(body({ keys: [], merge: true })).toBe(false);
    expect(document.paths["/v2/account/ssh-keys"].put.description).toMatch(/removed/);
  });

  it("never sends a registry credential's username or password back, and takes them write-only", () => {
    expect(Object.keys(schemas.Registry.properties).sort()).toEqual(["id", "name"]);
    const create = schemas.CreateRegistryRequest;
    expect(create.required.sort()).toEqual(["name", "password", "username"]);
    expect(create.properties.username.writeOnly).toBe(true);
    expect(create.properties.password).toMatchObject({ writeOnly: true, format: "password" });
    const body = schemaAt("#/components/schemas/CreateRegistryRequest");
    expect(body({ name: "team-images", username: "ci-robot", password: "x" })).toBe(true);
    expect(body({ name: "", username: "ci-robot", password: "x" })).toBe(false);
    expect(body({ name: "team-images", username: "ci-robot", password: "x", server: "ghcr.io" })).toBe(false);
  });

  it("sends rate-limit headers on the responses section 4.3 names, and not on 401", () => {
    const responses = document.paths["/v2/registries/{id}"].delete.responses;
    for (const code of ["204", "400", "403", "404", "429", "default"]) {
      const headers = Object.keys(deref(document, responses[code]).headers ?? {});
      expect(headers, code).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy"]));
    }
    expect(deref(document, responses["401"]).headers).toBeUndefined();
    expect(Object.keys(deref(document, responses["429"]).headers)).toContain("Retry-After");
  });

  it("gives every problem example the status of the response it is listed under, and a default none", () => {
    let checked = 0;
    for (const { path, method, operation } of operations) {
      for (const [code, response] of Object.entries<any>(operation.responses)) {
        const media = deref(document, response).content?.["application/problem+json"];
        if (!media) continue;
        const examples = Object.values<any>(media.examples ?? {}).map((example) => deref(document, example).value);
        if (media.example !== undefined) examples.push(media.example);
        // A default stands for many codes: any status written in its example would be wrong for the others.
        if (code === "default") expect(examples, `${method} ${path} default`).toEqual([]);
        for (const example of examples) {
          expect(example.status, `${method} ${path} ${code}`).toBe(Number(code));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(11);
  });

  it("has includeClusterPods as an optional boolean defaulting to false", () => {
    const [parameter] = document.paths["/v2/pods"].get.parameters.map((p: any) => deref(document, p));
    expect(parameter).toMatchObject({ name: "includeClusterPods", in: "query", required: false, schema: { type: "boolean", default: false } });
  });

  it("encodes the image-to-video input of section 4.7 exactly", () => {
    const input = schemas.ImageToVideoInput;
    expect(input.required).toEqual(["prompt", "image"]);
    expect(Object.keys(input.properties).sort()).toEqual(
      ["audio", "duration", "enable_prompt_expansion", "enable_safety_checker", "image", "negative_prompt", "prompt", "seed", "shot_type", "size"].sort(),
    );
    const p = input.properties;
    expect(p.size).toMatchObject({ type: "string", enum: ["1280*720", "1920*1080"], default: "1280*720" });
    expect(p.duration).toMatchObject({ type: "integer", enum: [5, 10, 15], default: 5 });
    expect(p.shot_type).toMatchObject({ type: "string", enum: ["single", "multi"], default: "single" });
    expect(p.seed).toMatchObject({ type: "integer", default: -1 });
    expect(p.enable_prompt_expansion).toMatchObject({ type: "boolean", default: false });
    expect(p.enable_safety_checker).toMatchObject({ type: "boolean", default: true });
    const validate = schemaAt("#/components/schemas/ImageToVideoInput");
    expect(validate({ prompt: "p", image: "https://a.example/i.png", duration: 7 })).toBe(false);
    expect(validate({ prompt: "p", image: "https://a.example/i.png", size: "1280*720", duration: 15 })).toBe(true);
  });

  it("encodes the image model of section 4.8", () => {
    const p = schemas.ImageInput.properties;
    expect(p.prompt.type).toBe("string");
    expect([p.width.type, p.height.type, p.num_inference_steps.type, p.guidance.type]).toEqual(["integer", "integer", "integer", "number"]);
  });

  it("maps each known model to its input, output and pricing in x-model-endpoints", () => {
    const models = document["x-model-endpoints"];
    const idPattern = new RegExp(schemas.ModelEndpointId.pattern);
    for (const [id, model] of Object.entries<any>(models)) {
      expect(id).toMatch(idPattern);
      expect(["video", "image", "audio", "text"]).toContain(model.kind);
      expect(deref(document, model.input)).toBeTypeOf("object");
      const output = deref(document, model.output);
      // A file model answers its file's URL; a text model its generated tokens, alone or in a list.
      if (model.kind === "text") expect(output.type === "array" ? deref(document, output.items).properties : output.properties).toHaveProperty("choices");
      else expect(Object.keys(output.properties)).toContain(`${model.kind}_url`);
    }
    const pricing = models["wan-2-6-i2v"].pricing;
    expect(pricing).toMatchObject({ currency: "USD", unit: "second", unitsFrom: "/duration", rateFrom: "/size" });
    expect(pricing.rates).toEqual({ "1280*720": 0.1, "1920*1080": 0.15 });
    // cost = rate x duration: 5 s at 720p is 0.50 USD.
    expect(pricing.rates["1280*720"] * 5).toBeCloseTo(0.5);
  });

  it("gives request examples that each fit a known model's input exactly", () => {
    const examples = document.components.requestBodies.RunRequest.content["application/json"].examples;
    const modelOf: Record<string, string> = { imageToVideo: "wan-2-6-i2v", image: "black-forest-labs-flux-1-dev" };
    expect(Object.keys(examples).sort()).toEqual(Object.keys(modelOf).sort());
    for (const [name, example] of Object.entries<any>(examples)) {
      const validate = schemaAt(document["x-model-endpoints"][modelOf[name]!].input.$ref);
      expect(validate(example.value.input), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it("marks every output URL as expiring after 7 days", () => {
    for (const kind of ["Video", "Image", "Audio"]) {
      const url = schemas[`${kind}Output`].properties[`${kind.toLowerCase()}_url`];
      expect(url["x-expires-after-seconds"]).toBe(7 * 24 * 3600);
    }
  });

  it("gives a template's mounts no network volume, which the service refuses on templates", () => {
    const template = schemas.Template.properties.mounts;
    expect(template).toEqual({ $ref: "#/components/schemas/TemplateMounts" });
    expect(Object.keys(schemas.TemplateMounts.properties)).toEqual(["persistent"]);
    // A pod's mounts still may hold one.
    expect(Object.keys(schemas.Mounts.properties).sort()).toEqual(["network", "persistent"]);
    const mounts = schemaAt("#/components/schemas/TemplateMounts");
    expect(mounts({ persistent: { size: 20, path: "/workspace" } })).toBe(true);
    expect(mounts({ persistent: { size: 5, path: "/workspace" } })).toBe(false);
  });

  it("creates and changes templates with closed bodies whose mounts are a template's, never a pod's", () => {
    for (const name of ["CreateTemplateRequest", "UpdateTemplateRequest"]) {
      expect(schemas[name].properties.mounts, name).toEqual({ $ref: "#/components/schemas/TemplateMounts" });
      expect(schemas[name].additionalProperties, name).toBe(false);
    }
    const create = schemaAt("#/components/schemas/CreateTemplateRequest");
    expect(create({ name: "t", image: "ghcr.io/example/app:1" })).toBe(true);
    expect(create({ name: "t" })).toBe(false);
    expect(create({ name: "", image: "ghcr.io/example/app:1" })).toBe(false);
    expect(create({ name: "t", image: "i", allowedCudaVersions: ["12.8"] })).toBe(true);
    expect(create({ name: "t", image: "i", allowedCudaVersions: ["12"] })).toBe(false);
    expect(create({ name: "t", image: "i", disk: 0 })).toBe(false);
    expect(create({ name: "t", image: "i", templateId: "x" })).toBe(false);
    const update = schemaAt("#/components/schemas/UpdateTemplateRequest");
    expect(update({ allowedCudaVersions: [] })).toBe(true);
    expect(update({ id: "5t8w3k1r" })).toBe(false);
  });

  it("creates network volumes of 10 to 4096 GB that only grow, in open storage tiers", () => {
    const create = schemaAt("#/components/schemas/CreateNetworkVolumeRequest");
    const volume = { name: "datasets", size: 250, dataCenter: "EU-RO-1" };
    expect(create(volume)).toBe(true);
    expect(create({ ...volume, type: "HIGH_PERFORMANCE" })).toBe(true);
    expect(create({ ...volume, size: 9 })).toBe(false);
    expect(create({ ...volume, size: 4097 })).toBe(false);
    expect(create({ name: "datasets", size: 250 })).toBe(false);
    expect(create({ ...volume, id: "v1" })).toBe(false);
    const update = schemaAt("#/components/schemas/UpdateNetworkVolumeRequest");
    expect(update({ size: 500 })).toBe(true);
    expect(update({})).toBe(false);
    expect(update({ dataCenter: "US-TX-3" })).toBe(false);
    // A tier the reference does not name still validates on an answer.
    const answer = schemaAt("#/components/schemas/NetworkVolume");
    expect(answer({ ...volume, id: "v1", type: "ARCHIVE" })).toBe(true);
    expect(document.paths["/v2/network-volumes/{id}"].patch.description).toMatch(/only grows/);
  });

  it("never takes `delegations` for a registry credential's id, which would reach the delegations' list", () => {
    const id = document.components.parameters.RegistryId.schema;
    const validate = schemaAt("#/components/parameters/RegistryId/schema");
    expect(id.not).toEqual({ const: "delegations" });
    expect(validate("9x4m2p7v")).toBe(true);
    expect(validate("delegations")).toBe(false);
    const paths = Object.keys(document.paths);
    expect(paths).toContain("/v2/registries/delegations");
    expect(paths.indexOf("/v2/registries/delegations")).toBeLessThan(paths.indexOf("/v2/registries/{id}"));
    const create = schemaAt("#/components/schemas/CreateDelegationRequest");
    expect(create({ resource: "arn:aws:ecr:eu-central-1:123456789012:repository/ml/trainer", name: null })).toBe(true);
    expect(create({ name: "x" })).toBe(false);
    expect(create({ resource: "arn:aws:ecr:eu-central-1:123456789012:repository/ml/trainer", tag: "v1" })).toBe(false);
  });

  it("takes a billing period as startTime and endTime or as lastN buckets, of the bucket sizes the service names", () => {
    const parameterNames = (path: string) => document.paths[path].get.parameters.map((p: any) => deref(document, p).name);
    const period = ["startTime", "endTime", "bucketSize", "lastN"];
    expect(parameterNames("/v2/billing")).toEqual(period);
    expect(parameterNames("/v2/billing/endpoints")).toEqual(period);
    expect(parameterNames("/v2/billing/pods")).toEqual([...period, "podId"]);
    expect(parameterNames("/v2/billing/serverless")).toEqual([...period, "serverlessId"]);
    expect(parameterNames("/v2/billing/network-volumes")).toEqual([...period, "networkVolumeId"]);
    expect(parameterNames("/v2/billing/clusters")).toEqual([...period, "clusterId"]);
    expect(schemas.BillingBucketSize).toMatchObject({ enum: ["hour", "day", "week", "month", "year"], default: "day" });
    expect(document.components.parameters.BillingLastN.schema.minimum).toBe(1);
    expect(document.components.parameters.BillingLastN.description).toMatch(/not both/);
    // The echo of the query stays open to a bucket size the service may add.
    const query = schemaAt("#/components/schemas/BillingQuery");
    expect(query({ startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-02T00:00:00Z", bucketSize: "quarter" })).toBe(true);
    expect(query({ startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-02T00:00:00Z" })).toBe(false);
    const record = schemaAt("#/components/schemas/PodBillingRecord");
    const bucket = { startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-02T00:00:00Z", totalAmount: 1, gpuAmount: 1, cpuAmount: 0, diskAmount: 0 };
    expect(record({ ...bucket, podId: "7h9k2m4n6p" })).toBe(true);
    expect(record(bucket)).toBe(false);
  });

  it("says what lowPriority does: no worker scaling for the job, which is no queue order", () => {
    const lowPriority = schemas.RunRequest.properties.policy.properties.lowPriority;
    expect(lowPriority.default).toBe(false);
    expect(lowPriority.description).toMatch(/scaling/);
    expect(lowPriority.description).not.toMatch(/waits behind/);
  });

  it("keeps open sets open: unknown statuses, actions, clouds and categories validate", () => {
    const pod = structuredClone(document.components.examples.PodListWithClusterPods.value.pods[0]);
    const validatePod = schemaAt("#/components/schemas/Pod");
    expect(validatePod(pod), JSON.stringify(validatePod.errors)).toBe(true);
    Object.assign(pod, { status: "HIBERNATING", actions: ["migrate"], cloud: "ORBITAL", ports: ["53/udp"] });
    expect(validatePod(pod), JSON.stringify(validatePod.errors)).toBe(true);
    expect(validatePod({ ...pod, ports: ["http"] })).toBe(false);
    expect(validatePod({ ...pod, registry: 42 })).toBe(false);
    // The service's reference omits the cluster block on standalone pods; the description sends null.
    const { cluster, ...withoutCluster } = pod;
    expect(cluster).toBeNull();
    expect(validatePod(withoutCluster)).toBe(true);
    expect(schemaAt("#/components/schemas/JobStatus")("SOMETHING_NEW")).toBe(true);
  });

  it("declares the terminal job statuses machine-readably", () => {
    expect(schemas.JobStatus["x-terminal-statuses"]).toEqual({ COMPLETED: "success", FAILED: "failure", CANCELLED: "failure", TIMED_OUT: "failure" });
  });

  it("gives synchronous job ids the sync- prefix and 429 problems a window name", () => {
    const sync = schemaAt("#/components/schemas/SyncJob");
    expect(sync({ id: "sync-1", status: "IN_PROGRESS" })).toBe(true);
    expect(sync({ id: "1", status: "IN_PROGRESS" })).toBe(false);
    const problem = schemaAt("#/components/schemas/RateLimitProblem");
    expect(problem({ title: "Too Many Requests", status: 429, detail: "day window exceeded" })).toBe(true);
    expect(problem({ title: "Too Many Requests", status: 429, detail: "slow down" })).toBe(false);
  });

  it("requires output on a COMPLETED job and error on a FAILED one (section 2.4), nothing on others", () => {
    const job = schemaAt("#/components/schemas/Job");
    const output = { video_url: "https://files.example-gpu.cloud/outputs/a.mp4", cost: 0.5 };
    expect(job({ id: "j", status: "COMPLETED", output })).toBe(true);
    expect(job({ id: "j", status: "COMPLETED" })).toBe(false);
    expect(job({ id: "j", status: "FAILED", error: "bad image" })).toBe(true);
    expect(job({ id: "j", status: "FAILED" })).toBe(false);
    expect(job({ id: "j", status: "IN_PROGRESS" })).toBe(true);
    expect(job({ id: "j", status: "CANCELLED" })).toBe(true);
  });

  it("answers an invalid image URL with HTTP 400 and a FAILED job", () => {
    const failed = deref(document, document.paths["/v2/{model_endpoint_id}/runsync"].post.responses["400"]);
    const example = Object.values<any>(failed.content["application/json"].examples)[0].value;
    expect(example.status).toBe("FAILED");
    expect(schemaAt("#/components/schemas/FailedJob")(example)).toBe(true);
    expect(schemaAt("#/components/schemas/FailedJob")({ ...example, status: "COMPLETED" })).toBe(false);
    // Each operation's example carries its own kind of id: sync- for runsync, none for run.
    expect(schemaAt("#/components/schemas/SyncJob")(example)).toBe(true);
    const queued = deref(document, document.paths["/v2/{model_endpoint_id}/run"].post.responses["400"]);
    const queuedExample = Object.values<any>(queued.content["application/json"].examples)[0].value;
    expect(schemaAt("#/components/schemas/FailedJob")(queuedExample)).toBe(true);
    expect(queuedExample.id).not.toMatch(/^sync-/);
  });
});
