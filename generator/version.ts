/**
 * The generated package's version, from what changed in the contract.
 *
 * `npm run version:contract -- --base <git ref | file> [--spec openapi/openapi.yaml] [--write]`
 *
 * Compares the previous contract (`git show`-ed from a ref, or a file) with the current one, the
 * way a user of the generated TypeScript package sees it, and classifies each change:
 *
 * - major: a removed operation, parameter, request body, success response, property, enum value,
 *   model, schema (each schema is an exported type) or server option; a new required input
 *   (parameter, request body, request property); an input that became required; a narrowed type
 *   (string → enum, number → integer, a type removed, `const` added), tighter bounds on an input
 *   (minimum, maxLength, pattern…); a response field that may now be absent or has a wider type;
 *   a renamed package or key variable; anything this tool cannot classify (to be safe).
 * - minor: a new operation, optional parameter, optional request property, response field,
 *   enum value, model, schema or server; an input that became optional or wider; a moved
 *   operation, a new default server URL, a deprecation, changed defaults.
 * - patch: descriptions, summaries, titles, examples, tags, `info`, pricing data and other
 *   documentation; none when nothing differs.
 *
 * The version is `x-sdk.packageVersion` of the contract (the package's semver, independent of
 * `info.version`, the API's own version); without it the base's `info.version` is the starting
 * point. `--write` sets `x-sdk.packageVersion` in the contract (a one-line edit, nothing else in the
 * file moves) and adds an entry naming each change with its JSON pointer to the CHANGELOG.md beside
 * the contract (`openapi/CHANGELOG.md`), which the generator ships in the package.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import { parseCommandLine } from "./args.ts";
import { ContractError } from "./errors.ts";
import { escapeSegment, pointer as toPointer, unescapeSegment } from "./json-pointer.ts";
import { packageVersion, SEMVER } from "./emit/package.ts";
import { loadContract, type LoadedContract } from "./load.ts";
import { buildModel, type ApiModel, type OperationModel } from "./model.ts";
import { compareStrings } from "./compare.ts";

export type Bump = "major" | "minor" | "patch";
export type Classification = Bump | "none";

export interface ContractChange {
  bump: Bump;
  /** JSON pointer (`#/paths/~1v2~1pods/get`) in the current contract, or in the previous one for what was removed. */
  pointer: string;
  message: string;
}

export interface VersionReport {
  classification: Classification;
  changes: ContractChange[];
  previousVersion: string;
  nextVersion: string;
}

type Context = "input" | "output";
type Json = any;

const RANK: Record<Classification, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** Keys that only document: a difference in them is a patch. */
const DOC_KEYS = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "$comment", "tags", "contact", "license", "termsOfService"]);
/** Extensions the generator reads, compared by their own rules; any other `x-` key documents. */
const SCHEMA_EXTENSIONS_MINOR = new Set(["x-terminal-statuses"]);

// ───────────────────────────── classification ─────────────────────────────

export function classify(changes: readonly ContractChange[]): Classification {
  let result: Classification = "none";
  for (const change of changes) if (RANK[change.bump] > RANK[result]) result = change.bump;
  return result;
}

/** The next semver: major resets minor and patch, minor resets patch; a pre-release is dropped. */
export function bumpVersion(version: string, classification: Classification): string {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`"${version}" is not a semver version`);
  let [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const prerelease = match[4] !== undefined;
  if (classification === "none") return version;
  if (prerelease) return `${major}.${minor}.${patch}`;
  if (classification === "major") [major, minor, patch] = [major + 1, 0, 0];
  else if (classification === "minor") [minor, patch] = [minor + 1, 0];
  else patch += 1;
  return `${major}.${minor}.${patch}`;
}

/** Semver order of MAJOR.MINOR.PATCH (pre-releases sort before their release). */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) throw new Error(`cannot compare "${a}" and "${b}"`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return Math.sign(d);
  }
  if (pa[4] === pb[4]) return 0;
  if (pa[4] === undefined) return 1;
  if (pb[4] === undefined) return -1;
  return pa[4] < pb[4] ? -1 : 1;
}

export function compareContracts(base: LoadedContract, head: LoadedContract): VersionReport {
  const changes = new ContractDiff(base, head).run();
  const classification = classify(changes);
  const previousVersion = packageVersion(base.document as any);
  return { classification, changes, previousVersion, nextVersion: bumpVersion(previousVersion, classification) };
}

// ───────────────────────────── the diff ─────────────────────────────

class ContractDiff {
  readonly changes: ContractChange[] = [];
  readonly #baseModel: ApiModel;
  readonly #headModel: ApiModel;
  /** Component schema name → the contexts it is used in (both contracts together). */
  readonly #usage = new Map<string, Set<Context>>();
  /** Pairs of schema pointers already compared (refs can be cyclic). */
  readonly #compared = new Set<string>();

  constructor(
    readonly base: LoadedContract,
    readonly head: LoadedContract,
  ) {
    this.#baseModel = buildModel(base);
    this.#headModel = buildModel(head);
  }

  run(): ContractChange[] {
    this.#collectUsage(this.base, this.#baseModel);
    this.#collectUsage(this.head, this.#headModel);
    this.#sdk();
    this.#info();
    this.#servers();
    this.#operations();
    this.#schemas();
    this.#models();
    this.#rest();
    // Stable order: by severity, then pointer, then message.
    return this.changes.sort((a, b) => RANK[b.bump] - RANK[a.bump] || compareStrings(a.pointer, b.pointer) || compareStrings(a.message, b.message));
  }

  #add(bump: Bump, at: string, message: string): void {
    const pointer = at.startsWith("#") ? at : `#${at}`;
    if (!this.changes.some((c) => c.pointer === pointer && c.message === message)) this.changes.push({ bump, pointer, message });
  }

  // ── document level ──

  #sdk(): void {
    const a = (this.base.document as Json)["x-sdk"] ?? {};
    const b = (this.head.document as Json)["x-sdk"] ?? {};
    if (this.#baseModel.packageName !== this.#headModel.packageName) {
      this.#add("major", "/x-sdk/packageName", `package renamed from ${this.#baseModel.packageName} to ${this.#headModel.packageName}`);
    }
    if (this.#baseModel.apiKeyEnvVar !== this.#headModel.apiKeyEnvVar) {
      this.#add("major", "/x-sdk/apiKeyEnvVar", `the key's environment variable changed from ${this.#baseModel.apiKeyEnvVar} to ${this.#headModel.apiKeyEnvVar}`);
    }
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (["packageName", "apiKeyEnvVar", "packageVersion"].includes(key)) continue;
      if (!isDeepStrictEqual(a[key], b[key])) this.#add("minor", toPointer("x-sdk", key), `x-sdk.${key} changed`);
    }
  }

  #info(): void {
    const a = (this.base.document as Json).info ?? {};
    const b = (this.head.document as Json).info ?? {};
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (!isDeepStrictEqual(a[key], b[key])) this.#add("patch", toPointer("info", key), key === "version" ? `API version ${a.version} → ${b.version}` : `info.${key} changed`);
    }
  }

  #servers(): void {
    const before = new Map(this.#baseModel.servers.map((s) => [s.key, s]));
    const after = new Map(this.#headModel.servers.map((s) => [s.key, s]));
    for (const [key, server] of before) {
      const now = after.get(key);
      if (!now) this.#add("major", "/servers", `removed the server option \`${key}\` (${server.url})`);
      else if (now.defaultUrl !== server.defaultUrl) this.#add("minor", "/servers", `default of \`${key}\` changed from ${server.defaultUrl} to ${now.defaultUrl}`);
      else if (now.description !== server.description) this.#add("patch", "/servers", `description of the server \`${key}\` changed`);
    }
    for (const [key, server] of after) if (!before.has(key)) this.#add("minor", "/servers", `new server option \`${key}\` (${server.url})`);
  }

  // ── operations ──

  #operations(): void {
    const before = new Map(this.#baseModel.operations.map((o) => [o.operationId, o]));
    const after = new Map(this.#headModel.operations.map((o) => [o.operationId, o]));
    for (const [id, operation] of before) {
      const now = after.get(id);
      if (!now) {
        this.#add("major", operation.pointer, `removed operation \`${operation.methodName}\` (${operation.method.toUpperCase()} ${operation.path})`);
        continue;
      }
      this.#operation(operation, now);
    }
    for (const [id, operation] of after) {
      if (!before.has(id)) this.#add("minor", operation.pointer, `new operation \`${operation.methodName}\` (${operation.method.toUpperCase()} ${operation.path})`);
    }
  }

  #operation(a: OperationModel, b: OperationModel): void {
    const name = `\`${b.methodName}\``;
    if (a.methodName !== b.methodName) this.#add("major", b.pointer, `method \`${a.methodName}\` renamed to ${name}`);
    if (a.method !== b.method || a.path !== b.path) {
      this.#add("minor", b.pointer, `${name} moved from ${a.method.toUpperCase()} ${a.path} to ${b.method.toUpperCase()} ${b.path}`);
    }
    if (a.server !== b.server) this.#add("minor", b.pointer, `${name} now uses the server \`${b.server}\` instead of \`${a.server}\``);
    if (!a.deprecated && b.deprecated) this.#add("minor", `${b.pointer}/deprecated`, `${name} is deprecated`);
    if (a.deprecated && !b.deprecated) this.#add("patch", `${b.pointer}/deprecated`, `${name} is no longer deprecated`);
    if (a.modelRole !== b.modelRole) this.#add("major", `${b.pointer}/x-model-endpoint-role`, `${name} changed its model endpoint role from ${a.modelRole ?? "none"} to ${b.modelRole ?? "none"}`);

    const rawA = this.base.at<Json>(a.pointer) ?? {};
    const rawB = this.head.at<Json>(b.pointer) ?? {};
    for (const key of union(Object.keys(rawA), Object.keys(rawB))) {
      if (["parameters", "requestBody", "responses", "operationId", "deprecated", "servers", "x-model-endpoint-role"].includes(key)) continue;
      if (isDeepStrictEqual(rawA[key], rawB[key])) continue;
      if (DOC_KEYS.has(key) || key.startsWith("x-")) this.#add("patch", `${b.pointer}/${escapeSegment(key)}`, `${key} of ${name} changed`);
      else if (key === "security") this.#add("minor", `${b.pointer}/security`, `security requirements of ${name} changed`);
      else this.#add("major", `${b.pointer}/${escapeSegment(key)}`, `${key} of ${name} changed (not classified, treated as major)`);
    }

    // Parameters, by location and name.
    const paramsA = new Map(a.parameters.map((p) => [`${p.in}:${p.name}`, p]));
    const paramsB = new Map(b.parameters.map((p) => [`${p.in}:${p.name}`, p]));
    for (const [key, p] of paramsA) {
      const q = paramsB.get(key);
      if (!q) {
        this.#add("major", p.pointer, `removed ${p.in} parameter \`${p.name}\` of ${name}`);
        continue;
      }
      if (!p.required && q.required) this.#add("major", q.pointer, `${p.in} parameter \`${p.name}\` of ${name} is now required`);
      if (p.required && !q.required) this.#add("minor", q.pointer, `${p.in} parameter \`${p.name}\` of ${name} is now optional`);
      this.#docKeys(this.base.at(p.pointer), this.head.at(q.pointer), q.pointer, `${p.in} parameter \`${p.name}\` of ${name}`, ["schema", "required", "name", "in"]);
      this.#schema(this.base.at(p.schemaPointer), this.head.at(q.schemaPointer), p.schemaPointer, q.schemaPointer, "input");
    }
    for (const [key, q] of paramsB) {
      if (paramsA.has(key)) continue;
      if (q.required) this.#add("major", q.pointer, `new required ${q.in} parameter \`${q.name}\` of ${name}`);
      else this.#add("minor", q.pointer, `new optional ${q.in} parameter \`${q.name}\` of ${name}`);
    }

    // Request body.
    const bodyA = a.requestBody;
    const bodyB = b.requestBody;
    if (bodyA && !bodyB) this.#add("major", bodyA.pointer, `${name} no longer takes a request body`);
    if (!bodyA && bodyB) this.#add(bodyB.required ? "major" : "minor", bodyB.pointer, `${name} takes a new ${bodyB.required ? "required" : "optional"} request body`);
    if (bodyA && bodyB) {
      if (bodyA.mediaType !== bodyB.mediaType) this.#add("major", `${bodyB.pointer}/content`, `request body of ${name} is now ${bodyB.mediaType} instead of ${bodyA.mediaType}`);
      if (!bodyA.required && bodyB.required) this.#add("major", bodyB.pointer, `request body of ${name} is now required`);
      if (bodyA.required && !bodyB.required) this.#add("minor", bodyB.pointer, `request body of ${name} is now optional`);
      this.#docKeys(this.base.at(bodyA.pointer), this.head.at(bodyB.pointer), bodyB.pointer, `request body of ${name}`, ["content", "required"]);
      const media = (at: string, type: string) => `${at}/content/${escapeSegment(type)}`;
      if (bodyA.mediaType === bodyB.mediaType) {
        this.#docKeys(this.base.at(media(bodyA.pointer, bodyA.mediaType)), this.head.at(media(bodyB.pointer, bodyB.mediaType)), media(bodyB.pointer, bodyB.mediaType), `request body of ${name}`, ["schema"]);
      }
      this.#schema(this.base.at(bodyA.schemaPointer), this.head.at(bodyB.schemaPointer), bodyA.schemaPointer, bodyB.schemaPointer, "input");
    }

    // Responses, by status.
    const responsesA = deref(this.base, rawA.responses ?? {}).value ?? {};
    const responsesB = deref(this.head, rawB.responses ?? {}).value ?? {};
    const success = (status: string) => /^2/.test(status);
    for (const status of union(Object.keys(responsesA), Object.keys(responsesB))) {
      const at = `${b.pointer}/responses/${escapeSegment(status)}`;
      const had = status in responsesA;
      const has = status in responsesB;
      if (had && !has) {
        this.#add(success(status) ? "major" : "minor", `${a.pointer}/responses/${escapeSegment(status)}`, `removed response ${status} of ${name}`);
        continue;
      }
      if (!had && has) {
        this.#add("minor", at, `new response ${status} of ${name}`);
        continue;
      }
      this.#response(deref(this.base, responsesA[status], `${a.pointer}/responses/${escapeSegment(status)}`), deref(this.head, responsesB[status], at), `response ${status} of ${name}`, success(status));
    }
  }

  #response(a: Resolved, b: Resolved, what: string, success: boolean): void {
    this.#docKeys(a.value, b.value, b.pointer, what, ["content", "headers", "links"]);
    const contentA = a.value?.content ?? {};
    const contentB = b.value?.content ?? {};
    for (const media of union(Object.keys(contentA), Object.keys(contentB))) {
      const at = `${b.pointer}/content/${escapeSegment(media)}`;
      if (!(media in contentB)) this.#add(success ? "major" : "minor", `${a.pointer}/content/${escapeSegment(media)}`, `${what} no longer has a ${media} body`);
      else if (!(media in contentA)) this.#add("minor", at, `${what} has a new ${media} body`);
      else {
        this.#docKeys(contentA[media], contentB[media], at, `${media} body of ${what}`, ["schema"]);
        this.#schema(contentA[media].schema, contentB[media].schema, `${a.pointer}/content/${escapeSegment(media)}/schema`, `${at}/schema`, "output");
      }
    }
    const headersA = a.value?.headers ?? {};
    const headersB = b.value?.headers ?? {};
    for (const header of union(Object.keys(headersA), Object.keys(headersB))) {
      const at = `${b.pointer}/headers/${escapeSegment(header)}`;
      if (!(header in headersB)) this.#add("minor", `${a.pointer}/headers/${escapeSegment(header)}`, `${what} no longer documents the header ${header}`);
      else if (!(header in headersA)) this.#add("minor", at, `${what} documents a new header ${header}`);
      else {
        const ha = deref(this.base, headersA[header], `${a.pointer}/headers/${escapeSegment(header)}`);
        const hb = deref(this.head, headersB[header], at);
        this.#docKeys(ha.value, hb.value, hb.pointer, `header ${header} of ${what}`, ["schema"]);
        this.#schema(ha.value?.schema, hb.value?.schema, `${ha.pointer}/schema`, `${hb.pointer}/schema`, "output");
      }
    }
    if (!isDeepStrictEqual(a.value?.links, b.value?.links)) this.#add("patch", `${b.pointer}/links`, `links of ${what} changed`);
  }

  /** Differences in documentation keys of two objects are patches; keys in `skip` are someone else's; others are unclassified. */
  #docKeys(a: Json, b: Json, at: string, what: string, skip: string[]): void {
    const objA = a && typeof a === "object" ? a : {};
    const objB = b && typeof b === "object" ? b : {};
    for (const key of union(Object.keys(objA), Object.keys(objB))) {
      if (skip.includes(key) || key === "$ref" || isDeepStrictEqual(objA[key], objB[key])) continue;
      if (DOC_KEYS.has(key) || key.startsWith("x-")) this.#add("patch", `${at}/${escapeSegment(key)}`, `${key} of ${what} changed`);
      else if (["style", "explode", "allowReserved", "allowEmptyValue", "encoding"].includes(key)) this.#add("major", `${at}/${escapeSegment(key)}`, `serialisation (${key}) of ${what} changed`);
      else if (key === "deprecated") this.#add(objB[key] ? "minor" : "patch", `${at}/deprecated`, `${what} ${objB[key] ? "is deprecated" : "is no longer deprecated"}`);
      else this.#add("major", `${at}/${escapeSegment(key)}`, `${key} of ${what} changed (not classified, treated as major)`);
    }
  }

  // ── schemas ──

  #schemas(): void {
    const a = (this.base.document as Json).components?.schemas ?? {};
    const b = (this.head.document as Json).components?.schemas ?? {};
    for (const name of union(Object.keys(a), Object.keys(b))) {
      const at = toPointer("components", "schemas", name);
      if (!(name in b)) this.#add("major", at, `removed schema ${name} (its exported type goes)`);
      else if (!(name in a)) this.#add("minor", at, `new schema ${name}`);
      else {
        // A schema nothing uses is still an exported type: both directions count.
        const contexts = this.#usage.get(name) ?? new Set<Context>(["input", "output"]);
        for (const context of [...contexts].sort()) this.#schema(a[name], b[name], at, at, context);
      }
    }
  }

  /**
   * Compares two schemas as seen from `context`. Component schemas reached by `$ref` are compared
   * once on their own (by `#schemas`), so equal refs stop here.
   */
  #schema(a: Json, b: Json, atA: string, atB: string, context: Context): void {
    if (a === undefined && b === undefined) return;
    if (a === undefined || b === undefined) {
      if (a === undefined) this.#add(context === "input" ? "major" : "minor", atB, `a schema was added where there was none (${context})`);
      else this.#add(context === "input" ? "minor" : "major", atA, `the schema was removed (${context})`);
      return;
    }
    if (isRef(a) && isRef(b)) {
      // The target is compared on its own, as a component.
      if (a.$ref !== b.$ref) this.#add("major", atB, `now refers to ${b.$ref} instead of ${a.$ref} (${context})`);
      return;
    }
    if (isRef(a) || isRef(b)) {
      const ra = deref(this.base, a, atA);
      const rb = deref(this.head, b, atB);
      a = ra.value;
      b = rb.value;
      atA = ra.pointer;
      atB = rb.pointer;
    }
    const key = `${context}|${atA}|${atB}`;
    if (this.#compared.has(key)) return;
    this.#compared.add(key);
    if (typeof a === "boolean" || typeof b === "boolean") {
      if (a !== b) this.#add("major", atB, `schema changed from ${JSON.stringify(a)} to ${JSON.stringify(b)}`);
      return;
    }
    const narrowed = (what: string) => this.#add("major", atB, `${what} (${context})`);
    const widened = (what: string) => this.#add(context === "input" ? "minor" : "major", atB, `${what} (${context})`);

    // type
    const typesA = typeSet(a);
    const typesB = typeSet(b);
    if (!sameSet(typesA, typesB)) {
      const descA = typesA ? [...typesA].sort().join(" | ") : "any";
      const descB = typesB ? [...typesB].sort().join(" | ") : "any";
      if (typesB === undefined) widened(`type widened from ${descA} to any`);
      else if (typesA === undefined || isSubset(typesB, typesA)) narrowed(`type narrowed from ${descA} to ${descB}`);
      else if (isSubset(typesA, typesB)) widened(`type widened from ${descA} to ${descB}`);
      else narrowed(`type changed from ${descA} to ${descB}`);
    }

    // enum and const
    const enumA = enumOf(a);
    const enumB = enumOf(b);
    if (enumA === undefined && enumB !== undefined) narrowed(`restricted to the values ${list(enumB)}`);
    else if (enumA !== undefined && enumB === undefined) this.#add("minor", atB, `no longer restricted to ${list(enumA)} (${context})`);
    else if (enumA && enumB) {
      const removed = enumA.filter((v) => !enumB.some((w) => isDeepStrictEqual(v, w)));
      const added = enumB.filter((v) => !enumA.some((w) => isDeepStrictEqual(v, w)));
      for (const value of removed) this.#add("major", `${atB}/enum`, `removed enum value ${JSON.stringify(value)} (${context})`);
      for (const value of added) this.#add("minor", `${atB}/enum`, `new enum value ${JSON.stringify(value)} (${context})`);
    }

    // bounds
    for (const [bound, direction] of BOUNDS) {
      const va = a[bound];
      const vb = b[bound];
      if (isDeepStrictEqual(va, vb)) continue;
      let tighter: boolean;
      if (vb === undefined) tighter = false;
      else if (va === undefined) tighter = !(direction === "flag" && vb === false);
      else if (direction === "min") tighter = vb > va;
      else if (direction === "max") tighter = vb < va;
      else if (direction === "flag") tighter = vb === true;
      else tighter = true; // a new pattern, format or multipleOf: assume narrower
      const message = `${bound} ${va === undefined ? "added" : vb === undefined ? "removed" : "changed"}: ${JSON.stringify(va ?? null)} → ${JSON.stringify(vb ?? null)}`;
      const at = `${atB}/${escapeSegment(bound)}`;
      if (tighter) this.#add(context === "input" ? "major" : "minor", at, `${message}, narrower (${context})`);
      else this.#add("minor", at, `${message}, wider (${context})`);
    }

    // default
    if (!isDeepStrictEqual(a.default, b.default)) this.#add("minor", `${atB}/default`, `default changed from ${JSON.stringify(a.default ?? null)} to ${JSON.stringify(b.default ?? null)} (${context})`);

    // properties and required
    const propsA = a.properties ?? {};
    const propsB = b.properties ?? {};
    const reqA = new Set<string>(Array.isArray(a.required) ? a.required : []);
    const reqB = new Set<string>(Array.isArray(b.required) ? b.required : []);
    for (const name of union(Object.keys(propsA), Object.keys(propsB), [...reqA], [...reqB])) {
      const at = `${atB}/properties/${escapeSegment(name)}`;
      const inA = name in propsA || reqA.has(name);
      const inB = name in propsB || reqB.has(name);
      if (inA && !inB) {
        this.#add("major", `${atA}/properties/${escapeSegment(name)}`, `removed property \`${name}\` (${context})`);
        continue;
      }
      if (!inA && inB) {
        if (context === "input" && reqB.has(name)) this.#add("major", at, `new required property \`${name}\` (input)`);
        else this.#add("minor", at, `new ${reqB.has(name) ? "required" : "optional"} property \`${name}\` (${context})`);
        continue;
      }
      if (!reqA.has(name) && reqB.has(name)) this.#add(context === "input" ? "major" : "minor", at, `property \`${name}\` is now required (${context})`);
      if (reqA.has(name) && !reqB.has(name)) this.#add(context === "input" ? "minor" : "major", at, `property \`${name}\` is now optional${context === "output" ? ": it may be absent" : ""} (${context})`);
      if (name in propsA && name in propsB) this.#schema(propsA[name], propsB[name], `${atA}/properties/${escapeSegment(name)}`, at, context);
    }

    // additionalProperties
    const apA = a.additionalProperties;
    const apB = b.additionalProperties;
    if (!isDeepStrictEqual(apA, apB)) {
      const closedA = apA === false;
      const closedB = apB === false;
      if (!closedA && closedB) this.#add(context === "input" ? "major" : "minor", `${atB}/additionalProperties`, `no longer allows other properties (${context})`);
      else if (closedA && !closedB) this.#add("minor", `${atB}/additionalProperties`, `now allows other properties (${context})`);
      else if (typeof apA === "object" && typeof apB === "object") this.#schema(apA, apB, `${atA}/additionalProperties`, `${atB}/additionalProperties`, context);
      else if (apA === undefined || apA === true) narrowed("other properties now have a schema");
      else widened("other properties no longer have a schema");
    }

    // items, prefixItems
    if (a.items !== undefined || b.items !== undefined) this.#schema(a.items, b.items, `${atA}/items`, `${atB}/items`, context);
    const prefixA: Json[] = a.prefixItems ?? [];
    const prefixB: Json[] = b.prefixItems ?? [];
    for (let i = 0; i < Math.max(prefixA.length, prefixB.length); i++) this.#schema(prefixA[i], prefixB[i], `${atA}/prefixItems/${i}`, `${atB}/prefixItems/${i}`, context);

    // composition
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const la: Json[] = a[keyword] ?? [];
      const lb: Json[] = b[keyword] ?? [];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) this.#schema(la[i], lb[i], `${atA}/${keyword}/${i}`, `${atB}/${keyword}/${i}`, context);
      const more = keyword === "allOf" ? narrowed : widened;
      const fewer = keyword === "allOf" ? widened : narrowed;
      for (let i = la.length; i < lb.length; i++) more(`new ${keyword} member ${i}`);
      for (let i = lb.length; i < la.length; i++) fewer(`removed ${keyword} member ${i}`);
    }

    // everything else
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (HANDLED_SCHEMA_KEYS.has(key) || isDeepStrictEqual(a[key], b[key])) continue;
      const at = `${atB}/${escapeSegment(key)}`;
      if (DOC_KEYS.has(key)) this.#add("patch", at, `${key} changed`);
      else if (key === "deprecated") this.#add(b[key] ? "minor" : "patch", at, b[key] ? "deprecated" : "no longer deprecated");
      else if (key === "readOnly" || key === "writeOnly") this.#add("minor", at, `${key} changed (${context})`);
      else if (SCHEMA_EXTENSIONS_MINOR.has(key)) this.#add("minor", at, `${key} changed`);
      else if (key.startsWith("x-")) this.#add("patch", at, `${key} changed`);
      else this.#add("major", at, `${key} changed (not classified, treated as major) (${context})`);
    }
  }

  /** Which contexts each component schema is used in: parameters and request bodies are input, responses output. */
  #collectUsage(contract: LoadedContract, model: ApiModel): void {
    const mark = (node: Json, context: Context, seen: Set<string>) => {
      if (!node || typeof node !== "object") return;
      if (Array.isArray(node)) {
        for (const item of node) mark(item, context, seen);
        return;
      }
      if (typeof node.$ref === "string") {
        const match = /^#\/components\/schemas\/([^/]+)$/.exec(node.$ref);
        if (match) {
          const name = unescapeSegment(match[1]!);
          const set = this.#usage.get(name) ?? new Set<Context>();
          set.add(context);
          this.#usage.set(name, set);
        }
        if (seen.has(node.$ref)) return;
        seen.add(node.$ref);
        try {
          mark(contract.resolve(node.$ref), context, seen);
        } catch {
          /* a dangling ref is the loader's problem */
        }
        return;
      }
      for (const value of Object.values(node)) mark(value, context, seen);
    };
    for (const operation of model.operations) {
      for (const parameter of operation.parameters) mark(contract.at(parameter.schemaPointer), "input", new Set());
      if (operation.requestBody) mark(contract.at(operation.requestBody.schemaPointer), "input", new Set());
      const raw = contract.at<Json>(operation.pointer);
      mark(raw?.responses, "output", new Set());
    }
    const schemas = (contract.document as Json).components?.schemas ?? {};
    for (const m of model.models) {
      mark({ $ref: toPointer("components", "schemas", m.inputSchema).replace(/^/, "#") }, "input", new Set());
      mark({ $ref: toPointer("components", "schemas", m.outputSchema).replace(/^/, "#") }, "output", new Set());
    }
    void schemas;
  }

  // ── x-model-endpoints ──

  #models(): void {
    const before = new Map(this.#baseModel.models.map((m) => [m.id, m]));
    const after = new Map(this.#headModel.models.map((m) => [m.id, m]));
    for (const [id, m] of before) {
      const now = after.get(id);
      if (!now) {
        this.#add("major", m.pointer, `removed model ${id}`);
        continue;
      }
      if (m.inputSchema !== now.inputSchema) this.#add("major", `${now.pointer}/input`, `input of model ${id} is now ${now.inputSchema} instead of ${m.inputSchema}`);
      if (m.outputSchema !== now.outputSchema) this.#add("major", `${now.pointer}/output`, `output of model ${id} is now ${now.outputSchema} instead of ${m.outputSchema}`);
      if (m.kind !== now.kind) this.#add("minor", now.pointer, `kind of model ${id} changed from ${m.kind} to ${now.kind}`);
      if (m.urlField !== now.urlField) this.#add("minor", now.pointer, `URL field of model ${id} changed`);
      if (!isDeepStrictEqual(m.pricing, now.pricing)) this.#add("patch", `${now.pointer}/pricing`, `pricing of model ${id} changed`);
      if (m.summary !== now.summary || m.description !== now.description || m.urlLifetimeSeconds !== now.urlLifetimeSeconds) {
        this.#add("patch", now.pointer, `documentation of model ${id} changed`);
      }
    }
    for (const [id, m] of after) if (!before.has(id)) this.#add("minor", m.pointer, `new model ${id}`);
  }

  // ── whatever else the document holds ──

  #rest(): void {
    const a = this.base.document as Json;
    const b = this.head.document as Json;
    const handled = new Set(["openapi", "info", "servers", "paths", "x-sdk", "x-model-endpoints"]);
    for (const key of union(Object.keys(a), Object.keys(b))) {
      if (handled.has(key) || isDeepStrictEqual(a[key], b[key])) continue;
      if (key === "components") {
        const ca = a.components ?? {};
        const cb = b.components ?? {};
        for (const kind of union(Object.keys(ca), Object.keys(cb))) {
          // Schemas are compared on their own; parameters, responses, bodies and headers where operations use them.
          if (["schemas", "parameters", "responses", "requestBodies", "headers"].includes(kind) || isDeepStrictEqual(ca[kind], cb[kind])) continue;
          const at = toPointer("components", kind);
          if (kind === "examples" || kind === "links") this.#add("patch", at, `components.${kind} changed`);
          else if (kind === "securitySchemes") this.#add("minor", at, "security schemes changed");
          else this.#add("major", at, `components.${kind} changed (not classified, treated as major)`);
        }
      } else if (DOC_KEYS.has(key) || key.startsWith("x-")) this.#add("patch", toPointer(key), `${key} changed`);
      else if (key === "security" || key === "webhooks") this.#add("minor", toPointer(key), `${key} changed`);
      else this.#add("major", toPointer(key), `${key} changed (not classified, treated as major)`);
    }
  }
}

/** `[keyword, which way is narrower]`. */
const BOUNDS: Array<[string, "min" | "max" | "flag" | "other"]> = [
  ["minimum", "min"],
  ["exclusiveMinimum", "min"],
  ["maximum", "max"],
  ["exclusiveMaximum", "max"],
  ["minLength", "min"],
  ["maxLength", "max"],
  ["minItems", "min"],
  ["maxItems", "max"],
  ["minProperties", "min"],
  ["maxProperties", "max"],
  ["uniqueItems", "flag"],
  ["multipleOf", "other"],
  ["pattern", "other"],
  ["format", "other"],
];
const HANDLED_SCHEMA_KEYS = new Set([
  "$ref", "type", "enum", "const", "default", "properties", "required", "additionalProperties", "items", "prefixItems", "allOf", "anyOf", "oneOf",
  ...BOUNDS.map(([k]) => k),
]);

interface Resolved {
  value: Json;
  pointer: string;
}

function deref(contract: LoadedContract, node: Json, at = ""): Resolved {
  let value = node;
  let where = at;
  const seen = new Set<string>();
  while (value && typeof value === "object" && typeof value.$ref === "string" && value.$ref.startsWith("#") && !seen.has(value.$ref)) {
    seen.add(value.$ref);
    where = value.$ref.slice(1);
    value = contract.resolve(value.$ref);
  }
  return { value, pointer: where };
}

function isRef(node: Json): boolean {
  return !!node && typeof node === "object" && typeof node.$ref === "string";
}

function typeSet(schema: Json): Set<string> | undefined {
  const t = schema.type;
  if (t === undefined) return undefined;
  const set = new Set<string>(Array.isArray(t) ? t : [t]);
  // integer is a subset of number: a number accepts every integer.
  if (set.has("number")) set.add("integer");
  return set;
}

function enumOf(schema: Json): unknown[] | undefined {
  if ("const" in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function sameSet(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function isSubset(a: Set<string>, b: Set<string>): boolean {
  return [...a].every((x) => b.has(x));
}

function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

function union(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}


// ───────────────────────────── loading the base ─────────────────────────────

/**
 * The previous contract: a file path, or a git ref whose copy of the contract's folder is
 * extracted (`git archive`) into a temporary folder, so split contracts load too.
 */
export async function loadBase(base: string, specPath: string): Promise<{ contract: LoadedContract; label: string; cleanup(): void }> {
  if (fs.existsSync(base) && fs.statSync(base).isFile()) {
    return { contract: await loadContract(base), label: base, cleanup() {} };
  }
  const spec = path.resolve(specPath);
  const git = (args: string[], input?: Buffer) => execFileSync("git", args, { cwd: path.dirname(spec), input, maxBuffer: 256 * 1024 * 1024, stdio: ["pipe", "pipe", "pipe"] });
  let top: string;
  try {
    top = git(["rev-parse", "--show-toplevel"]).toString().trim();
    git(["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  } catch {
    throw new Error(`--base ${base}: neither a file nor a git commit`);
  }
  const relative = path.relative(fs.realpathSync(top), fs.realpathSync(spec)).split(path.sep).join("/");
  const folder = path.posix.dirname(relative);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "contract-base-"));
  const cleanup = () => fs.rmSync(scratch, { recursive: true, force: true });
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", base, "--", folder], { cwd: top, maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-f", "-", "-C", scratch], { input: archive });
    const file = path.join(scratch, ...relative.split("/"));
    if (!fs.existsSync(file)) throw new Error(`${relative} does not exist at ${base}`);
    return { contract: await loadContract(file), label: `${relative} at ${base}`, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

// ───────────────────────────── writing ─────────────────────────────

/**
 * The contract's text with `x-sdk.packageVersion` set to `version`: only that scalar changes (or
 * one line is added to a block `x-sdk` map, or an `x-sdk` block is appended). Verified by parsing.
 */
export function setPackageVersion(text: string, version: string): string {
  if (!SEMVER.test(version)) throw new Error(`"${version}" is not a semver version`);
  const doc = YAML.parseDocument(text);
  const root = doc.contents;
  if (!YAML.isMap(root)) throw new Error("the contract is not a mapping");
  const sdkPair = root.items.find((pair) => YAML.isScalar(pair.key) && pair.key.value === "x-sdk");
  let result: string;
  if (!sdkPair) {
    if (YAML.isMap(root) && (root as YAML.YAMLMap).flow) throw new Error("cannot add x-sdk to a flow-style document: add `x-sdk: { packageVersion: ... }` by hand");
    result = `${text.replace(/\n*$/, "\n")}x-sdk:\n  packageVersion: ${version}\n`;
  } else {
    const sdk = sdkPair.value;
    if (!YAML.isMap(sdk)) throw new Error("x-sdk is not a mapping");
    const versionPair = sdk.items.find((pair) => YAML.isScalar(pair.key) && pair.key.value === "packageVersion");
    if (versionPair && YAML.isScalar(versionPair.value) && versionPair.value.range) {
      const scalar = versionPair.value;
      const [start, end] = scalar.range!;
      const quoted = scalar.type === "QUOTE_DOUBLE" ? `"${version}"` : scalar.type === "QUOTE_SINGLE" ? `'${version}'` : version;
      result = text.slice(0, start) + quoted + text.slice(end);
    } else if (versionPair) {
      throw new Error("x-sdk.packageVersion is not a plain value");
    } else {
      if (sdk.flow) throw new Error("x-sdk is a flow mapping: add `packageVersion` to it by hand");
      const first = sdk.items[0];
      const last = sdk.items.at(-1);
      if (!first || !YAML.isScalar(first.key) || !first.key.range || !last) throw new Error("x-sdk is empty: add `packageVersion` to it by hand");
      const keyStart = first.key.range[0];
      const indent = keyStart - text.lastIndexOf("\n", keyStart - 1) - 1;
      const lastNode = (last.value ?? last.key) as YAML.Node;
      const end = lastNode.range![1];
      const lineEnd = text.indexOf("\n", end - 1) === -1 ? text.length : text.indexOf("\n", end - 1);
      result = `${text.slice(0, lineEnd)}\n${" ".repeat(indent)}packageVersion: ${version}${text.slice(lineEnd)}`;
    }
  }
  // Nothing but the version may change.
  const before = YAML.parse(text);
  const after = YAML.parse(result);
  if (String(after?.["x-sdk"]?.packageVersion) !== version) throw new Error("could not set x-sdk.packageVersion");
  delete after["x-sdk"].packageVersion;
  if (before["x-sdk"]) delete before["x-sdk"].packageVersion;
  else if (Object.keys(after["x-sdk"]).length === 0) delete after["x-sdk"];
  if (!isDeepStrictEqual(before, after)) throw new Error("setting x-sdk.packageVersion would change more than the version; set it by hand");
  return result;
}

/** A CHANGELOG entry naming each change with its pointer, most severe first. */
export function changelogEntry(report: VersionReport, options: { date: string; baseLabel: string }): string {
  const lines = [`## ${report.nextVersion} (${options.date})`, "", `${capitalise(report.classification)} release: the contract changed since ${options.baseLabel} (package ${report.previousVersion}).`];
  for (const bump of ["major", "minor", "patch"] as const) {
    const changes = report.changes.filter((c) => c.bump === bump);
    if (changes.length === 0) continue;
    lines.push("", `### ${bump === "major" ? "Breaking (major)" : bump === "minor" ? "Added (minor)" : "Documentation (patch)"}`, "");
    for (const change of changes) lines.push(`- ${change.message.replace(/[<>]/g, (c) => (c === "<" ? "&lt;" : "&gt;"))} — \`${change.pointer.replace(/`/g, "'")}\``);
  }
  return `${lines.join("\n")}\n`;
}

/** Adds (or replaces, when that version is already there) the entry below the title of the changelog. */
export function updateChangelog(existing: string | undefined, entry: string, version: string): string {
  const title = "# Changelog\n\nVersions of the generated package, derived from contract changes by `npm run version:contract`.\n";
  let text = existing && existing.trim() ? existing.replace(/\r\n?/g, "\n") : title;
  const heading = new RegExp(`^## ${version.replace(/[.+]/g, "\\$&")} .*$`, "m");
  const match = heading.exec(text);
  if (match) {
    const next = text.slice(match.index + match[0].length).search(/^## /m);
    const end = next === -1 ? text.length : match.index + match[0].length + next;
    return `${text.slice(0, match.index)}${entry}\n${text.slice(end).replace(/^\n+/, "")}`.replace(/\n+$/, "\n");
  }
  const firstEntry = text.search(/^## /m);
  if (firstEntry === -1) return `${text.replace(/\n*$/, "\n\n")}${entry}`;
  return `${text.slice(0, firstEntry)}${entry}\n${text.slice(firstEntry)}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ───────────────────────────── CLI ─────────────────────────────

const USAGE = `usage: npm run version:contract -- --base <git ref | file> [--spec openapi/openapi.yaml] [--write] [--changelog FILE] [--date YYYY-MM-DD] [--json]`;

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  const args = parseCommandLine(
    argv,
    {
      base: { type: "string" },
      spec: { type: "string", default: "openapi/openapi.yaml" },
      write: { type: "boolean", default: false },
      changelog: { type: "string" },
      date: { type: "string" },
      json: { type: "boolean", default: false },
    },
    USAGE,
    out,
    err,
  );
  if (args.exitCode !== undefined) return args.exitCode;
  const { values } = args;
  if (!values.base) {
    err.write(`--base is required\n${USAGE}\n`);
    return 2;
  }
  const date = values.date ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    err.write(`--date must be YYYY-MM-DD\n`);
    return 2;
  }
  const head = await loadContract(values.spec);
  const base = await loadBase(values.base, values.spec);
  let report: VersionReport;
  try {
    report = compareContracts(base.contract, head);
  } finally {
    base.cleanup();
  }
  const declared = packageVersion(head.document as any);
  // A version set by hand above the computed one is kept: the tool never lowers it.
  const target = report.classification !== "none" && compareVersions(declared, report.nextVersion) > 0 ? declared : report.nextVersion;

  if (values.json) out.write(`${JSON.stringify({ ...report, nextVersion: target, base: base.label }, null, 2)}\n`);
  else {
    for (const change of report.changes) out.write(`${change.bump.padEnd(5)}  ${change.pointer}  ${change.message}\n`);
    out.write(
      report.classification === "none"
        ? `no change since ${base.label}: the package stays at ${report.previousVersion}\n`
        : `${report.classification}: ${report.previousVersion} → ${target} (${report.changes.length} change${report.changes.length === 1 ? "" : "s"} since ${base.label})\n`,
    );
  }
  if (!values.write || report.classification === "none") return 0;

  const specText = fs.readFileSync(values.spec, "utf8");
  const hasDeclared = (head.document as any)["x-sdk"]?.packageVersion !== undefined;
  const updated = declared === target && hasDeclared ? specText : setPackageVersion(specText, target);
  const changelogPath = values.changelog ?? path.join(path.dirname(path.resolve(values.spec)), "CHANGELOG.md");
  const existing = fs.existsSync(changelogPath) ? fs.readFileSync(changelogPath, "utf8") : undefined;
  const changelog = updateChangelog(existing, changelogEntry({ ...report, nextVersion: target }, { date, baseLabel: base.label }), target);
  fs.writeFileSync(values.spec, updated);
  fs.writeFileSync(changelogPath, changelog);
  out.write(`wrote x-sdk.packageVersion: ${target} to ${values.spec} and an entry to ${changelogPath}; now run \`npm run generate\`\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof ContractError ? error.message : error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
