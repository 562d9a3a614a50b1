/**
 * Benchmark of the generated validators against ajv (compiled at run time), ajv standalone code,
 * TypeBox's TypeCompiler and hand-written zod 4 schemas for the same shapes. Run: `npx tsx bench/validators.bench.ts`.
 *
 * zod runs as it does by default (its object checks compiled with `new Function`), and, on the valid
 * cases, also jitless (`z.config({ jitless: true })` when its schemas are built), the way it must
 * run under the strict CSP these validators are built for; the goal is judged against the default.
 *
 * Cases: (a) a response listing 100 pods (copies of the contract's example pods), (b) a valid
 * video input, (c) an invalid video input with four errors, every library in all-errors mode.
 * (b′) is a diagnostic: (b) with the two `format: uri` checks left out of both the schema and the
 * zod schema, next to the two URL checks alone, to show what those checks cost and what time a 20×
 * zod goal leaves for them.
 * For valid data ajv runs in its default (first error) mode, which is its fast path; the generated
 * code is measured both as the `isX` guard and as `validateX` (which runs the guard first).
 *
 * Timing: a loop timer per contender, warm-up, then ROUNDS rounds of ROUND_MS each, taken
 * round-robin over the contenders of a case; the median round's operations per second is reported.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import addFormats from "ajv-formats";
import * as esbuild from "esbuild";
import { FormatRegistry, Type, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { z } from "zod";
import { emitValidators } from "../generator/emit/validators/modules.ts";
import { loadContract } from "../generator/load/contract.ts";
import { validUri } from "../templates/runtime/formats.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 7);
const ROUND_MS = Number(process.env["BENCH_ROUND_MS"] ?? 250);
const WARMUP_MS = 500;

type Check = (value: unknown) => unknown;

/* ------------------------------------------------------------ the contenders */

const contract = await loadContract(path.join(repoRoot, "openapi/openapi.yaml"));
const document = contract.document;
const schemaNames = Object.keys(document.components?.schemas ?? {});

/** Bundles JavaScript or TypeScript (stdin) into one ES module and imports it from a data: URL. */
async function importBundle(contents: string, loader: "ts" | "js"): Promise<Record<string, any>> {
  const result = await esbuild.build({
    stdin: { contents, loader, resolveDir: repoRoot, sourcefile: `bench-input.${loader}` },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text ?? "";
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`) as Promise<Record<string, any>>;
}

// Generated: emitted for every schema of the contract, bundled with its runtime.
const generated = await importBundle(
  emitValidators({
    document,
    entries: schemaNames.map((name) => ({ name, pointer: `/components/schemas/${name}` })),
    runtimeImport: path.join(repoRoot, "templates/runtime/validation.ts"),
    formatsImport: path.join(repoRoot, "templates/runtime/formats.ts"),
  }).js,
  "js",
);

// Diagnostic: the video input with its two `format: uri` checks left out, on both sides (below).
const withoutUriFormats = structuredClone(document) as any;
for (const name of ["image", "audio"]) delete withoutUriFormats.components.schemas.ImageToVideoInput.properties[name].format;
const generatedWithoutUris = await importBundle(
  emitValidators({
    document: withoutUriFormats,
    entries: [{ name: "ImageToVideoInput", pointer: "/components/schemas/ImageToVideoInput" }],
    runtimeImport: path.join(repoRoot, "templates/runtime/validation.ts"),
    formatsImport: path.join(repoRoot, "templates/runtime/formats.ts"),
  }).js,
  "js",
);

// ajv compiled at run time (the whole document registered so internal $refs resolve as written).
function ajvInstance(allErrors: boolean, source = false): InstanceType<typeof Ajv2020> {
  const ajv = new Ajv2020({ strict: false, allErrors, validateSchema: false, code: { source } });
  addFormats.default(ajv);
  ajv.addSchema(document, "contract");
  return ajv;
}
const ajvFirst = ajvInstance(false);
const ajvAll = ajvInstance(true);
const ajvValidator = (ajv: InstanceType<typeof Ajv2020>, name: string) => {
  const validate = ajv.getSchema(`contract#/components/schemas/${name}`);
  if (validate === undefined) throw new Error(name);
  return validate;
};

// ajv standalone: module code generated once, bundled with ajv's runtime helpers and ajv-formats.
async function ajvStandalone(allErrors: boolean): Promise<Record<string, any>> {
  const ajv = ajvInstance(allErrors, true);
  const refs = { PodList: "contract#/components/schemas/PodList", ImageToVideoInput: "contract#/components/schemas/ImageToVideoInput" };
  const module = await importBundle(standaloneCode.default(ajv, refs), "js");
  return (module["default"] ?? module) as Record<string, any>;
}
const standaloneFirst = await ajvStandalone(false);
const standaloneAll = await ajvStandalone(true);

// zod 4, written by hand for the same shapes. Open enums (`anyOf: [enum, string]`) as unions.
// Built twice: zod decides at construction whether an object check is compiled with `new Function`,
// so the jitless copies are made under `z.config({ jitless: true })`, its documented switch.
function zodSchemas() {
  const openEnum = <T extends readonly [string, ...string[]]>(values: T) => z.union([z.enum(values), z.string()]);
  const sshEndpoint = z.object({ host: z.string(), port: z.int().min(1).max(65535), username: z.string(), command: z.string() });
  const pod = z.object({
    id: z.string(),
    name: z.string(),
    image: z.string(),
    args: z.string(),
    disk: z.int(),
    ports: z.array(z.string().regex(/^[0-9]{1,5}\/[a-z]+$/u)),
    env: z.record(z.string(), z.string()),
    registry: z.string().nullable(),
    status: openEnum(["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"]),
    actions: z.array(openEnum(["start", "stop", "restart", "terminate"])),
    mounts: z.object({ persistent: z.object({ size: z.int(), path: z.string() }) }),
    gpu: z.object({ id: z.string(), count: z.int().min(0) }),
    cloud: openEnum(["SECURE", "COMMUNITY"]),
    dataCenterId: z.string(),
    ssh: z.object({ proxy: sshEndpoint, direct: sshEndpoint }),
    template: z.string(),
    cost: z.number(),
    locked: z.boolean(),
    globalNetworking: z.object({ enabled: z.boolean() }),
    runtime: z.object({
      uptime: z.int(),
      ports: z.array(z.object({ private: z.int(), public: z.int(), type: z.string(), ip: z.string() })),
    }),
    createdAt: z.iso.datetime({ offset: true }),
    startedAt: z.iso.datetime({ offset: true }),
    cluster: z.union([z.object({ id: z.string(), rank: z.int().nullable() }), z.null()]),
  });
  const videoInput = z.strictObject({
    prompt: z.string(),
    image: z.url(),
    audio: z.url().optional(),
    negative_prompt: z.string().optional(),
    size: z.enum(["1280*720", "1920*1080"]).optional(),
    duration: z.union([z.literal(5), z.literal(10), z.literal(15)]).optional(),
    shot_type: z.enum(["single", "multi"]).optional(),
    seed: z.int().optional(),
    enable_prompt_expansion: z.boolean().optional(),
    enable_safety_checker: z.boolean().optional(),
  });
  return { podList: z.object({ pods: z.array(pod) }), videoInput, videoInputWithoutUris: videoInput.extend({ image: z.string(), audio: z.string().optional() }) };
}
const zodDefault = zodSchemas();
z.config({ jitless: true });
const zodJitless = zodSchemas();
z.config({ jitless: false });

// TypeBox 0.34, compiled (TypeCompiler, which generates code with `new Function`, like ajv), for the
// same shapes. It checks a format only once registered: `date-time` by Date.parse and `uri` by
// URL.canParse, both looser than RFC 3339 and RFC 3986 (Date.parse takes "2026-11-24 12:00").
FormatRegistry.Set("date-time", (value) => /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value)));
FormatRegistry.Set("uri", (value) => URL.canParse(value));
function typeboxSchemas() {
  const openEnum = (values: string[]) => Type.Union([...values.map((v) => Type.Literal(v)), Type.String()]);
  const int = (options = {}) => Type.Integer(options);
  const sshEndpoint = Type.Object({ host: Type.String(), port: int({ minimum: 1, maximum: 65535 }), username: Type.String(), command: Type.String() });
  const pod = Type.Object({
    id: Type.String(),
    name: Type.String(),
    image: Type.String(),
    args: Type.String(),
    disk: int(),
    ports: Type.Array(Type.String({ pattern: "^[0-9]{1,5}/[a-z]+$" })),
    env: Type.Record(Type.String(), Type.String()),
    registry: Type.Union([Type.String(), Type.Null()]),
    status: openEnum(["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"]),
    actions: Type.Array(openEnum(["start", "stop", "restart", "terminate"])),
    mounts: Type.Object({ persistent: Type.Object({ size: int(), path: Type.String() }) }),
    gpu: Type.Object({ id: Type.String(), count: int({ minimum: 0 }) }),
    cloud: openEnum(["SECURE", "COMMUNITY"]),
    dataCenterId: Type.String(),
    ssh: Type.Object({ proxy: sshEndpoint, direct: sshEndpoint }),
    template: Type.String(),
    cost: Type.Number(),
    locked: Type.Boolean(),
    globalNetworking: Type.Object({ enabled: Type.Boolean() }),
    runtime: Type.Object({ uptime: int(), ports: Type.Array(Type.Object({ private: int(), public: int(), type: Type.String(), ip: Type.String() })) }),
    createdAt: Type.String({ format: "date-time" }),
    startedAt: Type.String({ format: "date-time" }),
    cluster: Type.Union([Type.Object({ id: Type.String(), rank: Type.Union([int(), Type.Null()]) }), Type.Null()]),
  });
  const videoInput = Type.Object(
    {
      prompt: Type.String(),
      image: Type.String({ format: "uri" }),
      audio: Type.Optional(Type.String({ format: "uri" })),
      negative_prompt: Type.Optional(Type.String()),
      size: Type.Optional(Type.Union([Type.Literal("1280*720"), Type.Literal("1920*1080")])),
      duration: Type.Optional(Type.Union([Type.Literal(5), Type.Literal(10), Type.Literal(15)])),
      shot_type: Type.Optional(Type.Union([Type.Literal("single"), Type.Literal("multi")])),
      seed: Type.Optional(int()),
      enable_prompt_expansion: Type.Optional(Type.Boolean()),
      enable_safety_checker: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  );
  return { podList: Type.Object({ pods: Type.Array(pod) }), videoInput };
}
const typebox = typeboxSchemas();

/** With `allErrors`, each call lists every error (`Errors`), as the other contenders do on (c); else `Check`. */
function typeboxContender(schema: TSchema, allErrors = false): Contender {
  const compiled = TypeCompiler.Compile(schema);
  return {
    library: allErrors ? "TypeBox 0.34 (TypeCompiler, Errors)" : "TypeBox 0.34 (TypeCompiler)",
    check: allErrors ? (value) => [...compiled.Errors(value)].length : (value) => compiled.Check(value),
    verdict: (value) => ({ valid: compiled.Check(value), errors: compiled.Check(value) ? 0 : [...compiled.Errors(value)].length }),
  };
}

/* ------------------------------------------------------------ the data */

const examplePods = contract.at<{ value: { pods: unknown[] } }>("/components/examples/PodListWithClusterPods")?.value.pods ?? [];
const podList = { pods: Array.from({ length: 100 }, (_, i) => structuredClone(examplePods[i % examplePods.length])) };
const validVideo = {
  prompt: "The camera slowly pushes in while the lanterns sway in the wind",
  image: "https://images.example.org/lanterns.jpg",
  audio: "https://audio.example.org/wind.mp3",
  negative_prompt: "blur, text",
  size: "1920*1080",
  duration: 10,
  shot_type: "multi",
  seed: 42,
  enable_prompt_expansion: true,
  enable_safety_checker: true,
};
/** Four errors: image not a URI, duration not in the enum, shot_type not in the enum, seed not an integer. */
const invalidVideo = { ...validVideo, image: "not a url", duration: 7, shot_type: "triple", seed: 1.5 };

/* ------------------------------------------------------------ timing */

let sink = 0;
function consume(result: unknown): void {
  sink = (sink + (result === true ? 1 : Array.isArray(result) ? result.length : result ? 2 : 3)) | 0;
}

/**
 * A fresh copy of the timing loop for each contender: closures of one function literal share V8's
 * type feedback, so a shared loop would turn megamorphic and favour whoever runs first.
 */
const LOOP_SOURCE = `
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 64; i++) consume(check(value));
    ops += 64;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
`;

/** Per contender: a timed loop of its own, run for `ms`, returning operations per second. */
function timer(check: Check, value: unknown): (ms: number) => number {
  // Benchmark harness only (the generated validators never evaluate code).
  const loop = new Function("check", "value", "consume", "ms", LOOP_SOURCE) as (c: Check, v: unknown, s: typeof consume, ms: number) => number;
  return (ms) => loop(check, value, consume, ms);
}

/**
 * Median ops/s of each contender. Rounds go round-robin over the contenders, so a slow spell of
 * the machine (other processes) hits all of them alike.
 */
function measure(checks: Check[], value: unknown): number[] {
  const timers = checks.map((check) => timer(check, value));
  for (const run of timers) run(WARMUP_MS);
  const rounds: number[][] = checks.map(() => []);
  for (let round = 0; round < ROUNDS; round++) timers.forEach((run, index) => rounds[index]?.push(run(ROUND_MS)));
  return rounds.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0);
}

interface Contender {
  library: string;
  check: Check;
  /** Whether the value is accepted, and how many errors are reported. */
  verdict: (value: unknown) => { valid: boolean; errors: number };
}

function ajvContender(library: string, validate: { (value: unknown): boolean; errors?: unknown[] | null }): Contender {
  return {
    library,
    check: (value) => validate(value),
    verdict: (value) => ({ valid: validate(value), errors: validate(value) ? 0 : (validate.errors?.length ?? 0) }),
  };
}

const ZOD_JITLESS = "zod 4 jitless (no new Function, as under a strict CSP)";

/**
 * zod as it runs by default (its object checks compiled with `new Function`), or `jitless`: the way
 * it must run under the strict CSP these validators are built for. The goal is judged on the first.
 */
function zodContender(schema: z.ZodType, jitless = false): Contender {
  return {
    library: jitless ? ZOD_JITLESS : "zod 4 (safeParse)",
    check: (value) => schema.safeParse(value).success,
    verdict: (value) => {
      const result = schema.safeParse(value);
      return { valid: result.success, errors: result.success ? 0 : result.error.issues.length };
    },
  };
}

function generatedContenders(name: string, guard: boolean, module: Record<string, any> = generated): Contender[] {
  const is = module[`is${name}`] as (value: unknown) => boolean;
  const validate = module[`validate${name}`] as (value: unknown) => unknown[];
  const verdict = (value: unknown) => ({ valid: is(value), errors: validate(value).length });
  const list: Contender[] = [{ library: `generated validate${name}`, check: validate, verdict }];
  if (guard) list.unshift({ library: `generated is${name}`, check: is, verdict });
  return list;
}

interface Case {
  title: string;
  value: unknown;
  expectValid: boolean;
  contenders: Contender[];
  /** An extra line under the case's ratios, from the ops/s of each contender by library. */
  note?: (ops: (library: string) => number) => string;
}

const URL_CHECKS_ALONE = "validUri(image) && validUri(audio), alone";
let zodVideoOps = Number.NaN;

const cases: Case[] = [
  {
    title: "(a) PodList, 100 pods (valid)",
    value: podList,
    expectValid: true,
    contenders: [
      ...generatedContenders("PodList", true),
      ajvContender("ajv (compiled at run time)", ajvValidator(ajvFirst, "PodList")),
      ajvContender("ajv standalone", standaloneFirst["PodList"]),
      typeboxContender(typebox.podList),
      zodContender(zodDefault.podList),
      zodContender(zodJitless.podList, true),
    ],
  },
  {
    title: "(b) ImageToVideoInput (valid)",
    value: validVideo,
    expectValid: true,
    contenders: [
      ...generatedContenders("ImageToVideoInput", true),
      ajvContender("ajv (compiled at run time)", ajvValidator(ajvFirst, "ImageToVideoInput")),
      ajvContender("ajv standalone", standaloneFirst["ImageToVideoInput"]),
      typeboxContender(typebox.videoInput),
      zodContender(zodDefault.videoInput),
      zodContender(zodJitless.videoInput, true),
    ],
  },
  {
    title: "(b′) diagnostic: (b) without its two URL format checks on both sides, and those two checks alone",
    value: validVideo,
    expectValid: true,
    contenders: [
      ...generatedContenders("ImageToVideoInput", true, generatedWithoutUris),
      zodContender(zodDefault.videoInputWithoutUris),
      {
        library: URL_CHECKS_ALONE,
        check: (value: any) => validUri(value.image) && validUri(value.audio),
        verdict: (value: any) => ({ valid: validUri(value.image) && validUri(value.audio), errors: 0 }),
      },
    ],
    note: (ops) => {
      const nanoseconds = (opsPerSecond: number) => (1e9 / opsPerSecond).toFixed(0);
      const budget = 1e9 / (20 * zodVideoOps);
      return (
        `  20× zod on (b) leaves ${budget.toFixed(0)} ns per call; the two URL checks alone take ${nanoseconds(ops(URL_CHECKS_ALONE))} ns, ` +
        `the rest of the validator ${nanoseconds(ops("generated isImageToVideoInput"))} ns\n`
      );
    },
  },
  {
    title: "(c) ImageToVideoInput with 4 errors (all errors)",
    value: invalidVideo,
    expectValid: false,
    contenders: [
      ...generatedContenders("ImageToVideoInput", false),
      ajvContender("ajv allErrors (compiled at run time)", ajvValidator(ajvAll, "ImageToVideoInput")),
      ajvContender("ajv allErrors standalone", standaloneAll["ImageToVideoInput"]),
      typeboxContender(typebox.videoInput, true),
      zodContender(zodDefault.videoInput),
    ],
  },
];

/* ------------------------------------------------------------ run */

const format = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`node ${process.version}, ${ROUNDS} rounds × ${ROUND_MS} ms after ${WARMUP_MS} ms warm-up, median ops/s\n`);
for (const { title, value, expectValid, contenders, note } of cases) {
  const speeds = measure(
    contenders.map((contender) => contender.check),
    value,
  );
  const rows = contenders.map((contender, index) => {
    const { valid, errors } = contender.verdict(value);
    if (valid !== expectValid) throw new Error(`${contender.library}: expected valid=${expectValid} on ${title}`);
    return { library: contender.library, "ops/s": speeds[index] ?? 0, errors };
  });
  const ops = (match: (library: string) => boolean) => rows.find((row) => match(row.library))?.["ops/s"] ?? Number.NaN;
  const generatedOps = ops((library) => library.startsWith("generated"));
  const ajvOps = ops((library) => library.startsWith("ajv") && !library.includes("standalone"));
  const standaloneOps = ops((library) => library.includes("standalone"));
  const zodOps = ops((library) => library.startsWith("zod") && library !== ZOD_JITLESS);
  const jitlessOps = ops((library) => library === ZOD_JITLESS);
  console.log(title);
  console.table(rows.map((row) => ({ library: row.library, "ops/s": format(row["ops/s"]), errors: row.errors })));
  const vsAjv = Number.isFinite(ajvOps) ? `generated ÷ ajv: ${(generatedOps / ajvOps).toFixed(2)}×   generated ÷ ajv standalone: ${(generatedOps / standaloneOps).toFixed(2)}×   ` : "";
  const typeboxOps = ops((library) => library.startsWith("TypeBox"));
  const vsTypebox = Number.isFinite(typeboxOps) ? `generated ÷ TypeBox: ${(generatedOps / typeboxOps).toFixed(2)}×   ` : "";
  const vsJitless = Number.isFinite(jitlessOps) ? `generated ÷ zod jitless: ${(generatedOps / jitlessOps).toFixed(1)}×   ` : "";
  console.log(`  ${vsAjv}${vsTypebox}generated ÷ zod: ${(generatedOps / zodOps).toFixed(1)}×   ${vsJitless}(generated = ${rows[0]?.library})\n`);
  if (value === validVideo && contenders.some((contender) => contender.library.startsWith("ajv"))) zodVideoOps = zodOps;
  if (note) console.log(note((library) => ops((name) => name === library)));
}
if (sink === 42) console.log("");
