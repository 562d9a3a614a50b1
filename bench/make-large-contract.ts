/**
 * Writes a large, realistic OpenAPI 3.1 document for the generation benchmark: 1,000 operations
 * and 2,000 component schemas, shaped like the big public APIs (a resource per schema family with
 * list / create / get / update / delete; objects of 5–15 properties with formats, bounds, enums,
 * arrays, nested objects, nullable fields, maps and `$ref`s between schemas, some self-referencing;
 * path, query and header parameters; JSON request bodies; 2–4 responses per operation; a
 * description everywhere). Deterministic: the same seed gives the same bytes.
 *
 *   node --import tsx bench/make-large-contract.ts [out-dir]   → prints the file's path
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isMain } from "./lib.ts";

export interface LargeContractStats {
  file: string;
  bytes: number;
  operations: number;
  schemas: number;
  paths: number;
}

const DOMAINS = [
  "Billing", "Compute", "Storage", "Network", "Identity", "Catalog", "Orders", "Shipping", "Inventory", "Support",
  "Analytics", "Messaging", "Payments", "Search", "Media", "Security", "Audit", "Scheduling", "Projects", "Teams",
  "Documents", "Forms", "Workflows", "Devices", "Sensors", "Fleet", "Clinics", "Courses", "Events", "Venues",
  "Tickets", "Loyalty", "Pricing", "Tax", "Ledger", "Payroll", "Hiring", "Assets", "Contracts", "Vendors",
  "Campaigns", "Leads", "Surveys", "Reviews", "Maps", "Routes", "Energy", "Weather", "Models", "Datasets",
] as const;

const NOUNS = [
  "Account", "Invoice", "Item", "Record", "Profile", "Setting", "Policy", "Report", "Entry", "Batch",
  "Job", "Rule", "Label", "Note", "Attachment", "Comment", "Group", "Member", "Role", "Token",
  "Session", "Webhook", "Export", "Import", "Snapshot", "Volume", "Region", "Zone", "Quota", "Usage",
  "Alert", "Metric", "Dashboard", "Filter", "Template", "Version", "Release", "Schedule", "Task", "Channel",
] as const;

const WORDS = ["primary", "display", "external", "internal", "billing", "shipping", "source", "target", "parent", "default", "legacy", "preferred", "current", "previous", "next", "public", "private", "custom", "total", "base"];
const FIELDS = ["name", "code", "status", "kind", "reference", "amount", "count", "limit", "score", "weight", "email", "url", "owner", "region", "locale", "currency", "notes", "title", "summary", "priority"];
const STATES = ["active", "inactive", "pending", "archived", "deleted", "draft", "published", "failed", "queued", "running", "paused", "completed"];
const FORMATS = ["date-time", "uri", "email", "uuid", "date"] as const;

/** Mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const camel = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const plural = (s: string) => (s.endsWith("y") ? `${s.slice(0, -1)}ies` : s.endsWith("s") || s.endsWith("x") || s.endsWith("ch") ? `${s}es` : `${s}s`);

export function buildLargeContract(options: { operations?: number; schemas?: number; seed?: number } = {}): { document: any; operations: number; schemas: number } {
  const operationTarget = options.operations ?? 1_000;
  const schemaTarget = options.schemas ?? 2_000;
  const rnd = random(options.seed ?? 7);
  const int = (min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const chance = (p: number) => rnd() < p;

  // Schema names: Domain × Noun, in a fixed order; the first few are shared building blocks.
  const names: string[] = ["Problem", "ValidationIssue", "PageInfo", "Money", "Address", "AuditStamp"];
  for (const noun of NOUNS) for (const domain of DOMAINS) if (names.length < schemaTarget) names.push(`${domain}${noun}`);
  const schemas: Record<string, any> = {};
  schemas.Problem = {
    type: "object",
    description: "An RFC 9457 problem detail.",
    required: ["title", "status"],
    properties: {
      type: { type: "string", format: "uri", description: "A URI identifying the problem type." },
      title: { type: "string", description: "A short summary of the problem." },
      status: { type: "integer", minimum: 100, maximum: 599, description: "The HTTP status code." },
      detail: { type: "string", description: "What went wrong, for people." },
      errors: { type: "array", description: "Every invalid field.", items: { $ref: "#/components/schemas/ValidationIssue" } },
    },
  };
  schemas.ValidationIssue = {
    type: "object",
    description: "One invalid field of a request.",
    required: ["field", "message"],
    properties: { field: { type: "string", description: "JSON pointer of the field." }, message: { type: "string", description: "Why it is invalid." } },
  };
  schemas.PageInfo = {
    type: "object",
    description: "Where a page of results sits in the whole list.",
    required: ["hasMore"],
    properties: {
      hasMore: { type: "boolean", description: "Whether another page follows." },
      nextCursor: { type: ["string", "null"], description: "Cursor of the next page, null on the last page." },
      total: { type: "integer", minimum: 0, description: "Number of results across all pages." },
    },
  };
  schemas.Money = {
    type: "object",
    description: "An amount in a currency.",
    required: ["amount", "currency"],
    properties: {
      amount: { type: "string", pattern: "^-?\\d+(\\.\\d{1,4})?$", description: "Decimal amount as a string." },
      currency: { type: "string", minLength: 3, maxLength: 3, description: "ISO 4217 code." },
    },
  };
  schemas.Address = {
    type: "object",
    description: "A postal address.",
    required: ["line1", "country"],
    properties: {
      line1: { type: "string", maxLength: 200, description: "Street and number." },
      line2: { type: ["string", "null"], maxLength: 200, description: "Apartment, suite, floor." },
      city: { type: "string", description: "City or locality." },
      postalCode: { type: "string", description: "Postal code." },
      country: { type: "string", minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2 code." },
    },
  };
  schemas.AuditStamp = {
    type: "object",
    description: "Who changed a resource, and when.",
    required: ["at"],
    properties: { at: { type: "string", format: "date-time", description: "When." }, by: { type: "string", description: "Who (user id)." } },
  };

  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const shared = ["Money", "Address", "AuditStamp", "PageInfo"];
  const firstFamily = names.indexOf(`${DOMAINS[0]}${NOUNS[0]}`);
  const enumSchemas = new Set<string>();

  const propertySchema = (index: number, depth: number): any => {
    const roll = rnd();
    const description = `The ${pick(WORDS)} ${pick(FIELDS)} of this resource.`;
    // References only point backwards (plus the odd self-reference), like real API families.
    const earlier = () => names[int(firstFamily, Math.max(firstFamily, index - 1))]!;
    if (roll < 0.22) return { type: "string", description, ...(chance(0.4) ? { maxLength: pick([64, 255, 1024]) } : {}) };
    if (roll < 0.32) return { type: "string", format: pick(FORMATS), description };
    if (roll < 0.40) return { type: "integer", minimum: 0, ...(chance(0.3) ? { maximum: pick([100, 1000, 65535]) } : {}), description };
    if (roll < 0.45) return { type: "number", description };
    if (roll < 0.52) return { type: "boolean", description, ...(chance(0.3) ? { default: false } : {}) };
    if (roll < 0.60) {
      const values = STATES.slice(int(0, 6), int(7, 12));
      return { type: "string", enum: values, description };
    }
    if (roll < 0.64) return { type: ["string", "null"], description };
    if (roll < 0.69) return { type: "array", description, items: { type: "string" }, ...(chance(0.3) ? { maxItems: 50 } : {}) };
    if (roll < 0.76 && index > firstFamily) return { type: "array", description, items: ref(earlier()) };
    if (roll < 0.84 && index > firstFamily) return { ...ref(earlier()), description };
    if (roll < 0.88) return { ...ref(pick(shared)), description };
    if (roll < 0.91 && enumSchemas.size > 0) return { ...ref(pick([...enumSchemas])), description };
    if (roll < 0.94) return { type: "object", description, additionalProperties: { type: "string" } };
    if (depth < 2) {
      const nested: Record<string, any> = {};
      const count = int(2, 4);
      for (let i = 0; i < count; i++) nested[`${pick(WORDS)}${pick(FIELDS).replace(/^./, (c) => c.toUpperCase())}${i}`] = propertySchema(index, depth + 1);
      return { type: "object", description, properties: nested, required: Object.keys(nested).slice(0, 1) };
    }
    return { type: "string", description };
  };

  for (let index = firstFamily; index < names.length; index++) {
    const name = names[index]!;
    if (index % 10 === 3) {
      schemas[name] = { type: "string", description: `The kind of ${kebab(name).replace(/-/g, " ")}.`, enum: STATES.slice(int(0, 5), int(6, 12)) };
      enumSchemas.add(name);
      continue;
    }
    const properties: Record<string, any> = {
      id: { type: "string", description: `Identifier of the ${kebab(name).replace(/-/g, " ")}.`, readOnly: true },
    };
    const count = int(5, 15);
    while (Object.keys(properties).length < count) {
      const key = `${pick(WORDS)}${pick(FIELDS).replace(/^./, (c) => c.toUpperCase())}`;
      if (!(key in properties)) properties[key] = propertySchema(index, 0);
    }
    if (index % 20 === 7) properties.parent = { description: "The parent, for nested hierarchies.", anyOf: [ref(name), { type: "null" }] };
    properties.created = { ...ref("AuditStamp"), description: "Creation stamp." };
    const keys = Object.keys(properties);
    schemas[name] = {
      type: "object",
      description: `A ${kebab(name).replace(/-/g, " ")}: one resource of the ${name.replace(/[A-Z][a-z]+$/, "")} domain.`,
      required: keys.filter((key, i) => key === "id" || (i < keys.length - 1 && chance(0.35))),
      properties,
    };
  }

  // Resources: the object schemas, in order, five operations each.
  const resources = names.slice(firstFamily).filter((name) => !enumSchemas.has(name));
  const paths: Record<string, any> = {};
  const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: ref("Problem") } } });
  let operations = 0;
  const tags = new Set<string>();
  for (const resource of resources) {
    if (operations >= operationTarget) break;
    const domain = DOMAINS.find((d) => resource.startsWith(d))!;
    const noun = resource.slice(domain.length);
    tags.add(domain);
    const collection = `/${kebab(domain)}/${kebab(plural(noun))}`;
    const item = `${collection}/{${camel(noun)}Id}`;
    const idParameter = {
      name: `${camel(noun)}Id`,
      in: "path",
      required: true,
      description: `Identifier of the ${noun.toLowerCase()}.`,
      schema: { type: "string", minLength: 1, maxLength: 64 },
    };
    const requestId = { name: "X-Request-Id", in: "header", required: false, description: "Idempotency and tracing key.", schema: { type: "string", format: "uuid" } };
    const body = (what: string) => ({ required: true, description: `The ${what} ${noun.toLowerCase()}.`, content: { "application/json": { schema: ref(resource) } } });
    const ok = (description: string, schema: any, status = "200") => ({ [status]: { description, content: { "application/json": { schema } } } });
    const errors = (extra: string[]) =>
      Object.fromEntries(
        extra.map((status) => [status, problem(status === "404" ? `No such ${noun.toLowerCase()}.` : status === "400" ? "The request is invalid." : "Unexpected error.")]),
      );
    const listSchema = {
      type: "object",
      required: ["data", "page"],
      properties: { data: { type: "array", items: ref(resource) }, page: ref("PageInfo") },
    };
    const operation = (verb: string, summary: string, extra: object) => ({
      tags: [domain],
      operationId: `${verb}${domain}${verb === "list" ? plural(noun) : noun}`,
      summary,
      description: `${summary}. Part of the ${domain} API; returns problem details on failure.`,
      ...extra,
    });
    const queryParameters = [
      { name: "limit", in: "query", description: "Page size.", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
      { name: "cursor", in: "query", description: "Cursor from the previous page.", schema: { type: "string" } },
      ...(chance(0.6) ? [{ name: "status", in: "query", description: "Only resources in this state.", schema: { type: "string", enum: STATES.slice(0, int(3, 8)) } }] : []),
      ...(chance(0.4) ? [{ name: "createdAfter", in: "query", description: "Only resources created after this instant.", schema: { type: "string", format: "date-time" } }] : []),
    ];
    paths[collection] = {
      get: operation("list", `List ${plural(noun).toLowerCase()}`, {
        parameters: queryParameters,
        responses: { ...ok("One page of results.", listSchema), ...errors(chance(0.5) ? ["400", "default"] : ["default"]) },
      }),
      post: operation("create", `Create a ${noun.toLowerCase()}`, {
        parameters: [requestId],
        requestBody: body("new"),
        responses: { ...ok("The created resource.", ref(resource), "201"), ...errors(["400", "default"].concat(chance(0.3) ? ["409"] : [])) },
      }),
    };
    paths[item] = {
      parameters: [idParameter],
      get: operation("get", `Get a ${noun.toLowerCase()}`, { responses: { ...ok("The resource.", ref(resource)), ...errors(["404", "default"]) } }),
      patch: operation("update", `Update a ${noun.toLowerCase()}`, {
        parameters: [requestId],
        requestBody: body("changed"),
        responses: { ...ok("The updated resource.", ref(resource)), ...errors(["400", "404", "default"]) },
      }),
      delete: operation("delete", `Delete a ${noun.toLowerCase()}`, {
        responses: { "204": { description: "Deleted." }, ...errors(chance(0.5) ? ["404", "409", "default"] : ["404"]) },
      }),
    };
    operations += 5;
  }

  const document = {
    openapi: "3.1.0",
    info: {
      title: "Synthetic Platform API",
      version: "1.0.0",
      description: "A large synthetic contract for the generator benchmark, shaped like public APIs.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "https://api.example.com/v1", description: "Production." }],
    security: [{ bearerAuth: [] }],
    tags: [...tags].map((name) => ({ name, description: `The ${name} resources.` })),
    "x-sdk": { packageName: "synthetic-platform-client", apiKeyEnvVar: "SYNTHETIC_API_KEY" },
    paths,
    components: { schemas, securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  };
  return { document, operations, schemas: Object.keys(schemas).length };
}

export function writeLargeContract(dir: string, options: Parameters<typeof buildLargeContract>[0] = {}): LargeContractStats {
  const { document, operations, schemas } = buildLargeContract(options);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "large-openapi.json");
  const text = `${JSON.stringify(document, null, 2)}\n`;
  fs.writeFileSync(file, text);
  return { file, bytes: Buffer.byteLength(text), operations, schemas, paths: Object.keys(document.paths).length };
}

if (isMain(import.meta.url)) {
  const dir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), "large-contract-"));
  const stats = writeLargeContract(dir);
  process.stdout.write(`${stats.file}\n`);
  process.stderr.write(`${stats.operations} operations, ${stats.schemas} schemas, ${stats.paths} paths, ${(stats.bytes / 1024 / 1024).toFixed(1)} MiB\n`);
}
