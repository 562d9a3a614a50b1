/**
 * The validator emitter, unit by unit: issue messages and pointers, defaults, guard/validate
 * agreement, refusals with their JSON pointers, and the shape of the emitted code.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { emitValidators, type EmitValidatorsOptions, type ValidatorEntry } from "../../generator/emit/validators/modules.ts";
import { Warnings } from "../../generator/common/warnings.ts";
import { ContractError } from "../../generator/common/errors.ts";
import { loadContract, type LoadedContract } from "../../generator/load/contract.ts";
import { formatIssues } from "../../templates/runtime/validation.ts";
import { loadValidators, type LoadedValidators, type ValidationIssue, runtime } from "./support.ts";

const repoRoot = path.resolve(import.meta.dirname, "../..");

function compile(schema: unknown): LoadedValidators {
  return loadValidators(emitValidators({ document: schema as object, entries: [{ name: "X", pointer: "" }] }));
}

function issuesOf(schema: unknown, data: unknown): Array<Omit<ValidationIssue, "schemaPath"> & { schemaPath?: string }> {
  return compile(schema)["validateX"]?.(data) as ValidationIssue[];
}

function refusal(document: unknown, entries: ValidatorEntry[] = [{ name: "X", pointer: "" }]): { pointer: string; reason: string } {
  try {
    emitValidators({ document: document as object, entries });
  } catch (error) {
    if (error instanceof ContractError) return { pointer: error.pointer, reason: error.reason };
    throw error;
  }
  throw new Error("generation was not refused");
}

let contract: LoadedContract;
let validators: LoadedValidators;
let source: string;

beforeAll(async () => {
  contract = await loadContract(path.join(repoRoot, "openapi/openapi.yaml"));
  const names = Object.keys(contract.document.components?.schemas ?? {});
  source = emitValidators({ document: contract.document, entries: names.map((name) => ({ name, pointer: `/components/schemas/${name}` })) }).js;
  validators = loadValidators(source);
});

/** Pods from the contract's example, `count` of them, each a fresh copy. */
function podList(count: number): { pods: any[] } {
  const example = contract.at<{ value: { pods: unknown[] } }>("/components/examples/PodListWithClusterPods")?.value;
  const samples = example?.pods ?? [];
  return { pods: Array.from({ length: count }, (_, i) => structuredClone(samples[i % samples.length])) };
}

describe("issues of the contract's schemas", () => {
  it("accepts the contract's pod list example", () => {
    const list = podList(100);
    expect(validators["isPodList"]?.(list)).toBe(true);
    expect(validators["validatePodList"]?.(list)).toEqual([]);
  });

  it("points into the value and into the contract", () => {
    const list = podList(5);
    list.pods[3].ports[0] = "8888/HTTP";
    list.pods[1].gpu.count = 1.5;
    delete list.pods[4].image;
    list.pods[2].createdAt = "2026-02-30T00:00:00Z";
    expect(validators["isPodList"]?.(list)).toBe(false);
    expect(validators["validatePodList"]?.(list)).toEqual([
      { path: "/pods/1/gpu/count", keyword: "type", message: "must be an integer", schemaPath: "/components/schemas/PodGpu/properties/count/type" },
      { path: "/pods/2/createdAt", keyword: "format", message: 'must be an RFC 3339 date-time (format "date-time")', schemaPath: "/components/schemas/Pod/properties/createdAt/format" },
      { path: "/pods/3/ports/0", keyword: "pattern", message: 'must match pattern "^[0-9]{1,5}/[a-z]+$"', schemaPath: "/components/schemas/Port/pattern" },
      { path: "/pods/4", keyword: "required", message: 'must have required property "image"', schemaPath: "/components/schemas/Pod/required" },
    ]);
  });

  it("reports every problem of a video input, with readable messages", () => {
    const issues = validators["validateImageToVideoInput"]?.({ prompt: 7, duration: 7, size: "640*480", extra: true, seed: 1.5 }) as ValidationIssue[];
    expect(issues).toEqual([
      { path: "/prompt", keyword: "type", message: "must be a string", schemaPath: "/components/schemas/ImageToVideoInput/properties/prompt/type" },
      { path: "", keyword: "required", message: 'must have required property "image"', schemaPath: "/components/schemas/ImageToVideoInput/required" },
      { path: "/size", keyword: "enum", message: 'must be one of "1280*720", "1920*1080"', schemaPath: "/components/schemas/ImageToVideoInput/properties/size/enum" },
      { path: "/duration", keyword: "enum", message: "must be one of 5, 10, 15", schemaPath: "/components/schemas/ImageToVideoInput/properties/duration/enum" },
      { path: "/seed", keyword: "type", message: "must be an integer", schemaPath: "/components/schemas/ImageToVideoInput/properties/seed/type" },
      { path: "", keyword: "additionalProperties", message: 'must not have additional property "extra"', schemaPath: "/components/schemas/ImageToVideoInput/additionalProperties" },
    ]);
    expect(formatIssues(issues).split("\n").slice(0, 3)).toEqual([
      "6 validation issues:",
      "  /prompt: must be a string",
      '  (root): must have required property "image"',
    ]);
  });

  it("reports anyOf branches and the anyOf itself", () => {
    expect(validators["validateJobStatus"]?.(3)).toEqual([
      { path: "", keyword: "type", message: "must be a string", schemaPath: "/components/schemas/JobStatus/anyOf/0/type" },
      { path: "", keyword: "type", message: "must be a string", schemaPath: "/components/schemas/JobStatus/anyOf/1/type" },
      { path: "", keyword: "anyOf", message: "must match at least one schema in anyOf", schemaPath: "/components/schemas/JobStatus/anyOf" },
    ]);
    expect(validators["validateJobStatus"]?.("SOMETHING_NEW")).toEqual([]);
  });

  it("validates allOf with $ref and const (FailedJob)", () => {
    expect(validators["validateFailedJob"]?.({ id: "j", status: "COMPLETED" })).toEqual([
      // From Job (FailedJob's first allOf member): a COMPLETED job has an output.
      { path: "", keyword: "required", message: 'must have required property "output"', schemaPath: "/components/schemas/Job/allOf/0/then/required" },
      { path: "", keyword: "required", message: 'must have required property "error"', schemaPath: "/components/schemas/FailedJob/allOf/1/required" },
      { path: "/status", keyword: "const", message: 'must be equal to "FAILED"', schemaPath: "/components/schemas/FailedJob/allOf/1/properties/status/const" },
    ]);
  });

  it("accepts every example the contract gives for a schema", () => {
    const schemas = contract.document.components?.schemas ?? {};
    let checked = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const example of (schema["examples"] as unknown[] | undefined) ?? []) {
        expect({ name, example, issues: validators[`validate${name}`]?.(example) }).toEqual({ name, example, issues: [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("agrees between isX and validateX on valid and broken values", () => {
    const samples: unknown[] = [null, 0, 1.5, "", "x", [], {}, { pods: [] }, podList(3), { ...podList(1), extra: 1 }, { input: { prompt: "p" } }, { input: 3 }];
    const broken = podList(2);
    broken.pods[0].cluster = { id: 3, rank: "r" };
    samples.push(broken);
    for (const name of Object.keys(contract.document.components?.schemas ?? {})) {
      for (const sample of samples) {
        const guard = validators[`is${name}`]?.(sample) as boolean;
        const issues = validators[`validate${name}`]?.(sample) as ValidationIssue[];
        expect({ name, sample, agree: guard === (issues.length === 0) }).toEqual({ name, sample, agree: true });
      }
    }
  });
});

describe("issue messages", () => {
  it.each([
    { schema: { type: "integer" }, data: 1.5, want: [{ path: "", keyword: "type", message: "must be an integer" }] },
    { schema: { type: ["string", "null"] }, data: 1, want: [{ path: "", keyword: "type", message: "must be a string or null" }] },
    { schema: { type: "object", required: ["a b"] }, data: {}, want: [{ path: "", keyword: "required", message: 'must have required property "a b"' }] },
    { schema: { enum: [5, 10, 15] }, data: 7, want: [{ path: "", keyword: "enum", message: "must be one of 5, 10, 15" }] },
    { schema: { const: { a: [1] } }, data: { a: [2] }, want: [{ path: "", keyword: "const", message: 'must be equal to {"a":[1]}' }] },
    { schema: { minLength: 2 }, data: "😀", want: [{ path: "", keyword: "minLength", message: "must be at least 2 characters long" }] },
    { schema: { maxLength: 1 }, data: "😀😀", want: [{ path: "", keyword: "maxLength", message: "must be at most 1 character long" }] },
    { schema: { minimum: 0, exclusiveMaximum: 5 }, data: 5, want: [{ path: "", keyword: "exclusiveMaximum", message: "must be < 5" }] },
    { schema: { multipleOf: 0.1 }, data: 0.35, want: [{ path: "", keyword: "multipleOf", message: "must be a multiple of 0.1" }] },
    { schema: { multipleOf: 7 }, data: 1e24, want: [{ path: "", keyword: "multipleOf", message: "must be a multiple of 7" }] },
    { schema: { multipleOf: 7 }, data: 7.5, want: [{ path: "", keyword: "multipleOf", message: "must be a multiple of 7" }] },
    { schema: { multipleOf: 7 }, data: 7e22, want: [] },
    { schema: { multipleOf: 1e21 }, data: 1e23, want: [] },
    { schema: { items: { type: "string" } }, data: ["a", 1, "b", 2], want: [{ path: "/1", keyword: "type" }, { path: "/3", keyword: "type" }] },
    { schema: { prefixItems: [{ type: "string" }], items: false }, data: ["a", 1], want: [{ path: "", keyword: "items", message: "must have at most 1 item" }] },
    { schema: { uniqueItems: true }, data: [1, { a: 1 }, 2, { a: 1 }], want: [{ path: "", keyword: "uniqueItems", message: "must not have duplicate items (items 1 and 3 are equal)" }] },
    { schema: { contains: { const: 1 }, minContains: 2 }, data: [1], want: [{ path: "", keyword: "minContains", message: 'must contain at least 2 items matching the "contains" schema' }] },
    { schema: { contains: { const: 1 }, maxContains: 1 }, data: [1, 1], want: [{ path: "", keyword: "maxContains", message: 'must contain at most 1 item matching the "contains" schema' }] },
    { schema: { additionalProperties: { type: "integer" } }, data: { "a/b~c": "x" }, want: [{ path: "/a~1b~0c", keyword: "type" }] },
    { schema: { patternProperties: { "^x-": false } }, data: { "x-y": 1 }, want: [{ path: "/x-y", keyword: "false schema", message: "no value is allowed here" }] },
    { schema: { propertyNames: { maxLength: 2 } }, data: { abc: 1 }, want: [{ path: "", keyword: "propertyNames", message: 'property name "abc" is invalid: must be at most 2 characters long' }] },
    { schema: { minProperties: 2 }, data: { a: 1 }, want: [{ path: "", keyword: "minProperties", message: "must have at least 2 properties" }] },
    { schema: { dependentRequired: { card: ["cvc"] } }, data: { card: 1 }, want: [{ path: "", keyword: "dependentRequired", message: 'must have property "cvc" when property "card" is present' }] },
    { schema: { oneOf: [{ type: "number" }, { minimum: 0 }] }, data: 3, want: [{ path: "", keyword: "oneOf", message: "must match exactly one schema in oneOf, but matches 2" }] },
    { schema: { not: { type: "string" } }, data: "s", want: [{ path: "", keyword: "not", message: 'must not match the "not" schema' }] },
    { schema: { if: { type: "string" }, then: { minLength: 2 }, else: { minimum: 0 } }, data: -1, want: [{ path: "", keyword: "minimum", message: "must be >= 0" }] },
    { schema: { format: "uuid" }, data: "nope", want: [{ path: "", keyword: "format", message: 'must be a UUID (format "uuid")' }] },
    { schema: false, data: 1, want: [{ path: "", keyword: "false schema", message: "no value is allowed here" }] },
  ])("$schema on $data", ({ schema, data, want }) => {
    expect(issuesOf(schema, data)).toMatchObject(want);
    expect(issuesOf(schema, data)).toHaveLength(want.length);
  });

  it("gives every issue a schema pointer to the failing keyword", () => {
    const schema = { $defs: { n: { type: "integer" } }, properties: { a: { $ref: "#/$defs/n" }, b: { items: { $ref: "#/$defs/n" } } } };
    expect(issuesOf(schema, { a: "x", b: [1, "y"] })).toEqual([
      { path: "/a", keyword: "type", message: "must be an integer", schemaPath: "/$defs/n/type" },
      { path: "/b/1", keyword: "type", message: "must be an integer", schemaPath: "/$defs/n/type" },
    ]);
  });

  it("reads own properties only: Object.prototype does not satisfy required", () => {
    // JSON.parse: in an object literal, "__proto__" would set the prototype instead.
    const schema = JSON.parse('{ "required": ["constructor", "toString"], "properties": { "__proto__": { "type": "string" } } }');
    const { isX, validateX } = compile(schema) as Record<string, (v: unknown) => any>;
    expect(isX?.({})).toBe(false);
    expect(validateX?.({}).map((issue: ValidationIssue) => issue.message)).toEqual([
      'must have required property "constructor"',
      'must have required property "toString"',
    ]);
    expect(isX?.(JSON.parse('{"constructor": 1, "toString": 2, "__proto__": 3}'))).toBe(false);
    expect(isX?.(JSON.parse('{"constructor": 1, "toString": 2, "__proto__": "ok"}'))).toBe(true);
  });

  it("validates recursive schemas", () => {
    const tree = { $defs: { node: { type: "object", required: ["v"], properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } } } }, $ref: "#/$defs/node" };
    const deep = { v: 1, kids: [{ v: 2, kids: [{ v: 3, kids: [{ v: "x" }] }] }] };
    expect(issuesOf(tree, deep)).toEqual([{ path: "/kids/0/kids/0/kids/0/v", keyword: "type", message: "must be an integer", schemaPath: "/$defs/node/properties/v/type" }]);
  });
});

describe("withDefaults", () => {
  it("declares the fill function of a $ref only the defaults walk follows", () => {
    // `q` is a string schema: the validators never read its `properties`, the defaults walk does.
    const document = {
      R: { type: "object", properties: { p: { default: 1 }, q: { type: "string", properties: { x: { $ref: "#/Y" } } } } },
      Y: { properties: { k: { default: 2 } } },
    };
    const source = emitValidators({ document, entries: [{ name: "R", pointer: "/R" }] }).js;
    for (const called of source.matchAll(/\b(f_\w+)\(/g)) expect(source, called[1]).toContain(`function ${called[1]}(`);
    expect(loadValidators(source)["withDefaultsR"]!({})).toEqual({ p: 1 });
  });

  it("fills the video model's defaults into a copy", () => {
    const input = { prompt: "p", image: "https://images.example.org/a.jpg", duration: 10 };
    const frozen = Object.freeze({ ...input });
    const filled = validators["withDefaultsImageToVideoInput"]?.(frozen);
    expect(filled).toEqual({
      prompt: "p",
      image: "https://images.example.org/a.jpg",
      duration: 10,
      size: "1280*720",
      shot_type: "single",
      seed: -1,
      enable_prompt_expansion: false,
      enable_safety_checker: true,
    });
    expect(frozen).toEqual(input);
    expect(filled).not.toBe(frozen);
    expect(validators["isImageToVideoInput"]?.(filled)).toBe(true);
  });

  it("is only emitted where properties have defaults", () => {
    const names = Object.keys(validators).filter((name) => name.startsWith("withDefaults"));
    for (const name of ["withDefaultsRunRequest", "withDefaultsImageToVideoInput", "withDefaultsImageInput"]) expect(names).toContain(name);
    // Model inputs with defaults (nested ones too), not those without any, nor any other schema.
    expect(names).toContain("withDefaultsGraniteInput");
    expect(names).toContain("withDefaultsChatterboxInput");
    for (const without of ["withDefaultsSora2Input", "withDefaultsLoraWeight", "withDefaultsChatMessage", "withDefaultsTextOutput", "withDefaultsPod", "withDefaultsJob"]) expect(names).not.toContain(without);
    // Besides the run body and the model inputs, only the management API's create bodies have defaults.
    expect(names.filter((name) => name !== "withDefaultsRunRequest" && !name.endsWith("Input")).sort()).toEqual(
      ["withDefaultsCreateClusterRequest", "withDefaultsCreateEndpointGpu", "withDefaultsCreateEndpointRequest", "withDefaultsCreatePodGpu", "withDefaultsCreatePodRequest", "withDefaultsCreateTemplateRequest"],
    );
    // A body's defaults are the service's: filled in, they say what it would take for an absent field.
    const filled = validators["withDefaultsCreateClusterRequest"]?.({ name: "c", type: "RAY", compute: { gpuTypeId: "NVIDIA L40S", gpuCountPerPod: 1, podCount: 2 } });
    expect(filled).toMatchObject({ startSsh: false, startJupyter: false });
  });

  it("fills nested defaults through properties, items, allOf and $ref, copying and never mutating", () => {
    const schema = {
      $defs: { port: { type: "object", properties: { protocol: { default: "tcp" }, meta: { default: { tags: [] } } } } },
      type: "object",
      allOf: [{ properties: { retries: { default: 3 } } }],
      properties: {
        ports: { type: "array", items: { $ref: "#/$defs/port" } },
        limits: { type: "object", default: {}, properties: { cpu: { default: 1 } } },
        keep: { default: "unused" },
      },
    };
    const { withDefaultsX } = compile(schema) as Record<string, (v: unknown) => any>;
    const input = { ports: [{ number: 22 }, { protocol: "udp" }], keep: null };
    const snapshot = structuredClone(input);
    const out = withDefaultsX?.(input);
    expect(out).toEqual({
      ports: [
        { number: 22, protocol: "tcp", meta: { tags: [] } },
        { protocol: "udp", meta: { tags: [] } },
      ],
      limits: { cpu: 1 },
      keep: null,
      retries: 3,
    });
    expect(input).toEqual(snapshot);
    expect(out.ports[0]).not.toBe(input.ports[0]);
    // Default objects are fresh each time: changing one result does not change the next.
    out.ports[0].meta.tags.push("x");
    expect(withDefaultsX?.(input).ports[0].meta).toEqual({ tags: [] });
  });

  it("fills items defaults only after the prefixItems positions, so a valid value stays valid", () => {
    const schema = {
      type: "array",
      prefixItems: [{ type: "object", additionalProperties: false }],
      items: { type: "object", properties: { k: { type: "number", default: 1 } } },
    };
    const { withDefaultsX, validateX } = compile(schema) as Record<string, (v: unknown) => any>;
    const out = withDefaultsX?.([{}, {}]);
    expect(out).toEqual([{}, { k: 1 }]);
    expect(validateX?.(out)).toEqual([]);
  });

  it("keeps __proto__ a plain property", () => {
    const schema = JSON.parse('{ "properties": { "__proto__": { "default": { "polluted": true } }, "a": { "default": 1 } } }');
    const { withDefaultsX } = compile(schema) as Record<string, (v: unknown) => any>;
    const out = withDefaultsX?.({});
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(out.a).toBe(1);
  });
});

/** The warnings an emission tells, as `key pointer count`, and the loaded module. */
function told(document: unknown, options: Partial<EmitValidatorsOptions> = {}): { warnings: string[]; module: LoadedValidators } {
  const warnings = new Warnings();
  const module = loadValidators(emitValidators({ document: document as object, entries: [{ name: "X", pointer: "" }], warnings, ...options }));
  return { warnings: warnings.groups().map((g) => `${g.key} ${g.pointer} ${g.count}`), module };
}

describe("annotations told as warnings", () => {
  it.each([
    { document: { anyOf: [{ type: "string", foo: 1 }] }, warnings: ["keyword:foo /anyOf/0/foo 1"] },
    // Also where the code leaves them out, and in the target of a $ref in such a branch.
    { document: { anyOf: [true, { foo: 1 }], then: { foo: 2 } }, warnings: ["keyword:foo /anyOf/1/foo 2"] },
    { document: { anyOf: [true, { $ref: "#/x-extra" }], "x-extra": { bar: 1 } }, warnings: ["keyword:bar /x-extra/bar 1"] },
    { document: { maxLenght: 3, properties: { a: { maxLenght: 1, nullabel: true } } }, warnings: ["keyword:maxLenght /maxLenght 2", "keyword:nullabel /properties/a/nullabel 1"] },
    { document: { type: "integer", format: "hostname", properties: { a: { format: "hostname" } } }, warnings: ["format:hostname /format 2"] },
    { document: { format: "int32", properties: { a: { format: "password" } } }, warnings: [] },
  ])("$warnings", ({ document, warnings }) => {
    expect(told(document).warnings).toEqual(warnings);
  });

  it("leaves an unknown keyword and an unknown format unchecked", () => {
    const { module } = told({ type: "string", format: "hostname", minLenght: 100 });
    expect([module["isX"]?.("not a host name!"), module["validateX"]?.("x")]).toEqual([true, []]);
  });

  it("refuses an unknown format when asked to, and not one the caller ignores", () => {
    const document = { properties: { a: { format: "x*/y" }, b: { format: "uri-template" } } };
    expect(told(document).warnings).toEqual(["format:x*/y /properties/a/format 1", "format:uri-template /properties/b/format 1"]);
    try {
      emitValidators({ document, entries: [{ name: "X", pointer: "" }], unknownFormats: "error" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContractError);
      expect([(error as ContractError).pointer, (error as ContractError).reason]).toEqual(["/properties/a/format", expect.stringMatching(/format "x\*\/y" is not checked.*errors here/)]);
    }
    expect(told(document, { unknownFormats: "error", ignoredFormats: ["x*/y", "uri-template"] }).warnings).toEqual([]);
  });

  it("compiles a pattern valid only without the u flag without it", () => {
    const { warnings, module } = told({ properties: { a: { pattern: "^[\\-\\:]+$" } }, patternProperties: { "\\:": { type: "integer" } } });
    expect(warnings).toEqual(["pattern:no-u-flag /properties/a/pattern 2"]);
    expect(["-:", "a"].map((a) => module["isX"]?.({ a }))).toEqual([true, false]);
    expect([module["isX"]?.({ "x:y": 1 }), module["validateX"]?.({ "x:y": "1" })]).toEqual([true, [expect.objectContaining({ path: "/x:y", keyword: "type" })]]);
  });
});

describe("unevaluatedProperties and unevaluatedItems", () => {
  // The service's request bodies: a base schema and an extension joined by allOf, nothing else allowed.
  const service = {
    openapi: "3.1.0",
    components: {
      schemas: {
        Base: { type: "object", required: ["prompt"], properties: { prompt: { type: "string" }, seed: { type: "integer" } } },
        VideoInput: {
          allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", properties: { duration: { enum: [5, 10] } } }],
          unevaluatedProperties: false,
        },
      },
    },
  };
  const entries = [{ name: "VideoInput", pointer: "/components/schemas/VideoInput" }];

  it("allOf + unevaluatedProperties: false accepts the members of every part and nothing else", () => {
    const module = loadValidators(emitValidators({ document: service, entries }));
    const cases = [{ prompt: "p" }, { prompt: "p", seed: 1, duration: 5 }, { prompt: "p", durations: 5 }, { prompt: "p", duration: 7 }, { seed: 1 }];
    expect(cases.map((value) => module["isVideoInput"]?.(value))).toEqual([true, true, false, false, false]);
    expect(module["validateVideoInput"]?.({ prompt: "p", "a/b": 1 })).toEqual([
      { path: "", keyword: "unevaluatedProperties", message: 'must not have unevaluated property "a/b"', schemaPath: "/components/schemas/VideoInput/unevaluatedProperties" },
    ]);
  });

  it("compiles the service's shape to a static check: no set of evaluated names", () => {
    const source = emitValidators({ document: service, entries }).js;
    expect(source).toContain('k2 !== "prompt" && k2 !== "seed" && k2 !== "duration"');
    expect(source).not.toContain("new Set()");
  });

  it.each([
    { schema: { anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: {} } }], unevaluatedProperties: false }, valid: [{ a: "x" }, { a: "x", b: 1 }, { b: 1 }], invalid: [{ a: 1 }, { c: 1 }, { a: 1, b: 1 }] },
    { schema: { oneOf: [{ required: ["a"], properties: { a: {} } }, { required: ["b"], properties: { b: {} } }], unevaluatedProperties: false }, valid: [{ a: 1 }, { b: 1 }], invalid: [{ a: 1, b: 1 }, { a: 1, c: 1 }] },
    { schema: { if: { required: ["a"], properties: { a: {} } }, then: { properties: { b: {} } }, else: { properties: { c: {} } }, unevaluatedProperties: false }, valid: [{ a: 1, b: 1 }, { c: 1 }, {}], invalid: [{ a: 1, c: 1 }, { b: 1 }] },
    { schema: { not: { properties: { a: {} }, required: ["a"], maxProperties: 0 }, unevaluatedProperties: false }, valid: [{}], invalid: [{ a: 1 }] },
    { schema: { dependentSchemas: { a: { properties: { b: {} } } }, properties: { a: {} }, unevaluatedProperties: { type: "number" } }, valid: [{ a: 1, b: "x" }, { b: 1 }], invalid: [{ b: "x" }] },
    { schema: { patternProperties: { "^x-": {} }, allOf: [{ additionalProperties: { type: "string" } }], unevaluatedProperties: false }, valid: [{ "x-a": "s", b: "s" }], invalid: [{ b: 1 }, { "x-a": 1 }] },
    { schema: { prefixItems: [{}], allOf: [{ prefixItems: [{}, {}] }], unevaluatedItems: false }, valid: [[1, 2]], invalid: [[1, 2, 3]] },
    { schema: { contains: { type: "string" }, minContains: 0, unevaluatedItems: { type: "number" } }, valid: [["a", 1], []], invalid: [["a", null]] },
    { schema: { anyOf: [{ items: { type: "string" } }, { prefixItems: [{ type: "number" }] }], unevaluatedItems: false }, valid: [["a", "b"], [1]], invalid: [[1, 2]] },
    // Through a property, each level has its own evaluation.
    { schema: { properties: { n: { $ref: "#" }, a: {} }, unevaluatedProperties: false }, valid: [{ n: { a: 1 } }], invalid: [{ n: { b: 1 } }] },
  ])("$schema", ({ schema, valid, invalid }) => {
    const module = compile(schema);
    expect(valid.map((value) => [value, module["isX"]?.(value), module["validateX"]?.(value)])).toEqual(valid.map((value) => [value, true, []]));
    for (const value of invalid) {
      expect([value, module["isX"]?.(value)]).toEqual([value, false]);
      expect((module["validateX"]?.(value) as unknown[]).length).toBeGreaterThan(0);
    }
  });
});

describe("refusals", () => {
  it.each([
    { document: { properties: { a: { type: "string", nullable: true } } }, pointer: "/properties/a/nullable", reason: /OpenAPI 3\.0/ },
    { document: { $dynamicRef: "#meta" }, pointer: "/$dynamicRef", reason: /^\$dynamicRef "#meta": no \$anchor or \$dynamicAnchor "meta"/ },
    { document: { $defs: { a: { $dynamicAnchor: "n" }, b: { $dynamicAnchor: "n" } }, $dynamicRef: "#n" }, pointer: "/$dynamicRef", reason: /the anchor "n" is declared 2 times \(\/\$defs\/a, \/\$defs\/b\)/ },
    { document: { $dynamicAnchor: "1st" }, pointer: "/$dynamicAnchor", reason: /not a plain name/ },
    { document: { $recursiveAnchor: true, items: { $recursiveRef: "#" } }, pointer: "/$recursiveAnchor", reason: /draft 2019-09: the validators read 2020-12's \$dynamicAnchor/ },
    { document: { $ref: "https://example.org/s.json" }, pointer: "/$ref", reason: /outside the document/ },
    { document: { $ref: "#/$defs/missing" }, pointer: "/$ref", reason: /points at nothing/ },
    { document: { properties: { a: { $id: "a.json" } } }, pointer: "/properties/a/$id", reason: /document root/ },
    { document: { pattern: "(" }, pointer: "/pattern", reason: /regular expression \(with or without the u flag\)/ },
    { document: { pattern: "[z-a]" }, pointer: "/pattern", reason: /regular expression/ },
    { document: { minLength: -1 }, pointer: "/minLength", reason: /non-negative integer/ },
    { document: { items: [{}] }, pointer: "/items", reason: /prefixItems/ },
    { document: { exclusiveMinimum: true }, pointer: "/exclusiveMinimum", reason: /draft-04/ },
    { document: { $schema: "http://json-schema.org/draft-07/schema#" }, pointer: "/$schema", reason: /not JSON Schema 2020-12/ },
    { document: { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" }, pointer: "/$defs/b/allOf/0/$ref", reason: /never descends/ },
    // Refused wherever they stand: also where the code leaves them out (a type that rules them out,
    // an anyOf with a true branch, contains with minContains 0, then without if).
    { document: { type: "number", pattern: "(" }, pointer: "/pattern", reason: /regular expression/ },
    { document: { type: "string", minimum: "5" }, pointer: "/minimum", reason: /must be a number/ },
    { document: { type: "string", properties: { a: { $dynamicRef: "#x" } } }, pointer: "/properties/a/$dynamicRef", reason: /no \$anchor or \$dynamicAnchor "x"/ },
    // The target of a $ref in a branch the code leaves out never becomes a unit: it is audited all the same.
    { document: { anyOf: [true, { $ref: "#/x-extra" }], "x-extra": { format: 1 } }, pointer: "/x-extra/format", reason: /must be a string/ },
    { document: { type: "string", items: { $ref: "#/x-extra" }, "x-extra": { pattern: "(" } }, pointer: "/x-extra/pattern", reason: /regular expression/ },
    { document: { minContains: -1 }, pointer: "/minContains", reason: /non-negative integer/ },
    { document: { $anchor: 5 }, pointer: "/$anchor", reason: /not a plain name/ },
    { document: { type: "boolean", patternProperties: { "(": true } }, pointer: "/patternProperties/(", reason: /regular expression/ },
  ])("$pointer", ({ document, pointer, reason }) => {
    const refused = refusal(document);
    expect(refused.pointer).toBe(pointer);
    expect(refused.reason).toMatch(reason);
  });

  // Every place a schema can hold a subschema, under `type: "null"`, which leaves the code of all of
  // them out: the audit walks each one all the same.
  it.each([
    ["properties", { properties: { a: "BAD" } }, "/properties/a"],
    ["patternProperties", { patternProperties: { "^a": "BAD" } }, "/patternProperties/^a"],
    ["additionalProperties", { additionalProperties: "BAD" }, "/additionalProperties"],
    ["propertyNames", { propertyNames: "BAD" }, "/propertyNames"],
    ["dependentSchemas", { dependentSchemas: { a: "BAD" } }, "/dependentSchemas/a"],
    ["unevaluatedProperties", { unevaluatedProperties: "BAD" }, "/unevaluatedProperties"],
    ["prefixItems", { prefixItems: [true, "BAD"] }, "/prefixItems/1"],
    ["items", { items: "BAD" }, "/items"],
    ["contains", { contains: "BAD", minContains: 0 }, "/contains"],
    ["unevaluatedItems", { unevaluatedItems: "BAD" }, "/unevaluatedItems"],
    ["allOf", { allOf: [true, "BAD"] }, "/allOf/1"],
    ["anyOf", { anyOf: [true, "BAD"] }, "/anyOf/1"],
    ["oneOf", { oneOf: ["BAD"] }, "/oneOf/0"],
    ["not", { not: "BAD" }, "/not"],
    ["then without if", { then: "BAD" }, "/then"],
    ["else without if", { else: "BAD" }, "/else"],
    ["if", { if: "BAD", then: true }, "/if"],
    ["$defs", { $defs: { unused: "BAD" } }, "/$defs/unused"],
  ])("walks %s", (_, holder, at) => {
    const document = JSON.parse(JSON.stringify({ type: "null", ...holder }).replace('"BAD"', JSON.stringify({ $dynamicRef: "#x" })));
    const refused = refusal(document);
    expect(refused.pointer).toBe(`${at}/$dynamicRef`);
    expect(refused.reason).toMatch(/no \$anchor or \$dynamicAnchor "x"/);
  });

  it("names the contract pointer inside an OpenAPI document", () => {
    const document = { openapi: "3.1.0", components: { schemas: { Bad: { type: "object", properties: { "a/b": { type: "string", "x-ok": 1, maxLength: -3 } } } } } };
    expect(refusal(document, [{ name: "Bad", pointer: "/components/schemas/Bad" }]).pointer).toBe("/components/schemas/Bad/properties/a~1b/maxLength");
  });

  it("ignores annotations and OpenAPI's data-type formats", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.org/root.json",
      $comment: "c",
      title: "t",
      description: "d",
      deprecated: true,
      readOnly: false,
      writeOnly: false,
      examples: [1],
      example: 1,
      discriminator: { propertyName: "kind" },
      xml: { name: "x" },
      externalDocs: { url: "https://example.org" },
      "x-anything": { nullable: true },
      properties: { n: { type: "integer", format: "int32" }, b: { type: "string", format: "binary", contentMediaType: "image/png" } },
    };
    expect(compile(schema)["isX"]?.({ n: 2 ** 40, b: "" })).toBe(true);
  });
});

describe("emitted code", () => {
  it("never evaluates code", () => {
    expect(source).not.toMatch(/\beval\b|new Function|\bFunction\(/);
  });

  it("is deterministic", () => {
    const names = Object.keys(contract.document.components?.schemas ?? {});
    const again = emitValidators({ document: contract.document, entries: names.map((name) => ({ name, pointer: `/components/schemas/${name}` })) });
    expect(again.js).toBe(source);
  });

  it("has one internal function pair per $ref target and exports only the entries' functions", () => {
    expect(source.match(/^function c_Port\(/gm)).toHaveLength(1);
    expect(source.match(/^function e_Port\(/gm)).toHaveLength(1);
    expect(source.match(/^export function \w+/gm)?.every((line) => /^export function (is|validate|withDefaults)[A-Z]/.test(line))).toBe(true);
    expect(Object.keys(validators).some((name) => name.startsWith("c_") || name.startsWith("e_"))).toBe(false);
  });

  it("precompiles regular expressions at module level with the u flag, and scans simple anchored patterns", () => {
    // A group: stays a RegExp, built once.
    expect(source).toMatch(/const re_\d+ = \/\* @__PURE__ \*\/ new RegExp\("\^\[a-z0-9\]\+\(\?:-\[a-z0-9\]\+\)\*\$", "u"\);/);
    // Only at module level: never built per call.
    for (const line of source.split("\n").filter((l) => l.includes("new RegExp"))) expect(line).toMatch(/^const re_\d+ = /);
    // The port pattern: a scan function, called where the RegExp's test was.
    expect(source).toContain("function match_1(s) {");
    expect(source).toContain("if (!match_1(v)) return false;");
    expect(source).not.toContain('new RegExp("^[0-9]{1,5}/[a-z]+$"');
  });

  it("has the guard check an object's cheap properties before a format, and the issues keep the contract's order", () => {
    const document = { type: "object", properties: { link: { type: "string", format: "uri" }, kind: { enum: ["a", "b"] } } };
    const parsed: string[] = [];
    const counting = { ...runtime, validUri: (text: string) => (parsed.push(text), runtime.validUri(text)) };
    const module = loadValidators(emitValidators({ document, entries: [{ name: "X", pointer: "" }] }), undefined, counting);
    const value = { link: "not a url", kind: "c" };
    expect(module["isX"]?.(value)).toBe(false);
    expect(parsed).toEqual([]);
    expect((module["validateX"]?.(value) as ValidationIssue[]).map((issue) => issue.keyword)).toEqual(["format", "enum"]);
  });

  it("uses the runtime import it is given", () => {
    const code = emitValidators({ document: { type: "string" }, entries: [{ name: "S", pointer: "" }], runtimeImport: "../rt/v.js", typeImport: "// types" });
    expect(code.js.split("\n")[0]).toBe('import { addIssue, issuesOf } from "../rt/v.js";');
    expect(code.dts.split("\n").slice(0, 2)).toEqual(["// types", 'import type { ValidationIssue } from "../rt/v.js";']);
  });

  it("refuses entry names that are not identifiers, or repeated", () => {
    expect(() => emitValidators({ document: {}, entries: [{ name: "a-b", pointer: "" }] })).toThrow(TypeError);
    expect(() => emitValidators({ document: {}, entries: [{ name: "A", pointer: "" }, { name: "A", pointer: "" }] })).toThrow(TypeError);
  });
});
