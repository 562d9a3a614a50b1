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
    const management = ["/v2/account/ssh-keys", "/v2/pods", "/v2/templates", "/v2/registries", "/v2/registries/{id}"];
    for (const { path, item } of operations) {
      const [server] = item.servers;
      const variable = management.includes(path) ? "base_url" : "public_endpoint_base_url";
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
