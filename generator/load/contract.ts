/**
 * Stage 1 of the generator: read the contract (YAML or JSON, possibly split
 * across files, OpenAPI 3.0, 3.1 or 3.2), check its shape, bundle it into one
 * document with Redocly's core (external `$ref`s become components, internal
 * `$ref`s stay; example values are data, never followed), upgrade a 3.0 bundle
 * to 3.1, write discriminator mappings by name as `$ref`s, and refuse anything the later
 * stages cannot trust, with a JSON pointer to the offending spot. The one
 * stage that reads the user's files: the contract, and the CHANGELOG.md beside
 * it that the package ships.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import {
  BaseResolver,
  ResolveError,
  Source,
  YamlParseError,
  bundle,
  createConfig,
  type Document,
  type NormalizedProblem,
} from "@redocly/openapi-core";
import { ContractError } from "../common/errors.ts";
import { parsePointer, pointer } from "../common/json-pointer.ts";
import { mappingNamesAsRefs } from "./discriminator-mapping.ts";
import { REDOCLY_CONFIG } from "./redocly-config.ts";
import { checkStructure } from "./struct.ts";
import { unresolvedRefReason } from "./unresolved-ref.ts";
import { upgradeTo31 } from "./upgrade.ts";
import { Warnings, type PointerMap } from "../common/warnings.ts";
import type { OpenApiDocument } from "./document.ts";
export type { ReferenceObject, SchemaObject, InfoObject, ServerObject, OperationObject, PathItemObject, ComponentsObject, OpenApiDocument } from "./document.ts";

export interface LoadedContract {
  /** Bundled, deep-frozen plain JSON: later stages read it, never change it (the hash describes it). */
  document: OpenApiDocument;
  /** Absolute path of the root contract file. */
  sourcePath: string;
  /** Whether `$ref`s brought in other files: pointers into `document` are then pointers into the bundle. */
  split: boolean;
  /** Absolute paths of every file read: the root and the files its `$ref`s brought in (what `--watch` watches). */
  files: readonly string[];
  /**
   * sha256 (hex) of the canonical JSON of the bundled document as written (object keys sorted
   * recursively): for a 3.0 document, before its upgrade.
   */
  hash: string;
  /** The OpenAPI version the user wrote (`document.openapi` is 3.1.x after an upgrade). */
  writtenVersion: string;
  /**
   * A pointer into `document` as a real place in the document as written: the same pointer for
   * 3.1; for an upgraded 3.0 document, where the node the upgrade moved was written.
   */
  sourcePointer: PointerMap;
  /**
   * The value an internal `$ref` ("#/components/schemas/Pod") points at. Does not
   * follow a chain: if the target is itself a `$ref` object, that object is returned.
   */
  resolve<T = unknown>(ref: string): T;
  /** The value at a JSON pointer ("/paths/~1pods"), or undefined when there is none. */
  at<T = unknown>(pointer: string): T | undefined;
  /**
   * Follows a chain of `$ref`s from `node` (found at `at`) to the first value that is not a
   * reference, and where that value is: `at` itself when `node` is no reference, else the last
   * `$ref`'s fragment as a JSON pointer (percent-decoded). A chain that comes back to a `$ref` it followed names no
   * value: loading refuses such a contract already, and `deref` refuses one too rather than loop,
   * as it refuses an external `$ref` (none survives bundling). Its ContractErrors carry no file:
   * the caller names it (a split contract's pointers are into the bundle).
   */
  deref<T = any>(node: unknown, at: string): { value: T; pointer: string };
  /** Text of the CHANGELOG.md beside the contract (`npm run version:contract` writes it), if there is one. */
  changelog?: string;
}

type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

export async function loadContract(specPath: string, warnings: Warnings = new Warnings()): Promise<LoadedContract> {
  const sourcePath = path.resolve(specPath);
  const resolver = new LocalOnlyResolver();

  const root = await readRoot(resolver, sourcePath);
  checkRootMembers(root.parsed, sourcePath);

  // The shape of every node first, in the version written, so pointers are into the user's files:
  // a node the model reads that is malformed (an operationId that is a number, `servers` as an
  // object) is refused here rather than failing later with a stack trace; the rest are warnings.
  await throwFirstError(await checkStructure(root, resolver, warnings, (error) => refCycleError(error, sourcePath)), resolver, sourcePath);

  // One file whose references are all internal is its own bundle: Redocly's pass would only add
  // an empty `components` (done here too, so the document and its hash are the same either way).
  const copy = { externalRefs: false };
  let written = toFrozenJson(root.parsed, [], sourcePath, copy);
  if (resolver.cache.size > 1 || copy.externalRefs) {
    // No rules, so no decorators touch the bundle (createConfig reads no redocly.yaml).
    const config = await createConfig(REDOCLY_CONFIG);
    const bundled = await bundle({
      doc: root,
      config,
      externalRefResolver: resolver,
      dereference: false,
      // Two files' components of one name: the bundler keeps both, the later one renamed ("Pod-2"),
      // and says so as a warning, passed on (`reportRenames`) since the name becomes an exported type's.
      componentRenamingConflicts: "warn",
    });
    await throwFirstError(bundled.problems, resolver, sourcePath);
    reportRenames(bundled.problems, warnings, sourcePath);
    written = toFrozenJson(bundled.bundle.parsed, [], sourcePath, copy);
  } else if (isPlainObject(written) && written["components"] === undefined) {
    written = Object.freeze({ ...written, components: Object.freeze({}) });
  }
  const hash = createHash("sha256").update(canonicalJson(written)).digest("hex");
  // After bundling, so the parts of a split 3.0 document are upgraded too.
  const upgraded = upgradeTo31(written);
  // Values change, no node moves: `sourcePointer` still holds.
  const readable = mappingNamesAsRefs(upgraded.document);
  const document = (readable === written ? written : toFrozenJson(readable, [], sourcePath, copy)) as OpenApiDocument;

  const at = <T>(p: string): T | undefined => valueAt(document as Json, parsePointer(p)) as T | undefined;
  const resolve = <T>(ref: string): T => {
    if (!ref.startsWith("#")) {
      throw new ContractError("", `cannot resolve $ref "${ref}": only internal refs ("#/...") remain after bundling`, sourcePath);
    }
    const segments = parsePointer(ref);
    const target = valueAt(document as Json, segments);
    if (target === undefined) {
      throw new ContractError(pointer(...segments), `$ref "${ref}" points at nothing`, sourcePath);
    }
    return target as T;
  };

  const deref = <T>(node: unknown, at: string) => followRefs<T>(resolve, node, at);
  const changelog = await readBeside(sourcePath, "CHANGELOG.md");

  const writtenVersion = String((written as { openapi: string }).openapi);
  const files = Object.freeze([...resolver.cache.keys()].filter((ref) => path.isAbsolute(ref)));
  return { document, sourcePath, split: resolver.cache.size > 1, files, hash, writtenVersion, sourcePointer: upgraded.sourcePointer, resolve, at, deref, changelog };
}

/** `LoadedContract.deref` over any resolver of internal `$ref`s. */
export function followRefs<T>(resolve: (ref: string) => unknown, node: unknown, at: string): { value: T; pointer: string } {
  let current = node;
  let where = at;
  const seen = new Set<string>();
  while (isRefObject(current)) {
    const ref = current.$ref;
    if (!ref.startsWith("#")) throw new ContractError(where, `external reference ${ref} left after bundling`);
    if (seen.has(ref)) throw new ContractError(where, `reference cycle through ${ref}`);
    seen.add(ref);
    try {
      current = resolve(ref);
    } catch (error) {
      // Located where the reference is, not at the target that is missing.
      if (error instanceof ContractError) throw new ContractError(where, error.reason);
      throw error;
    }
    // A fragment may be percent-encoded (`~1%7Bid%7D`); pointers into the document are not.
    where = pointer(...parsePointer(ref));
  }
  return { value: current as T, pointer: where };
}

function isRefObject(value: unknown): value is { $ref: string } {
  return typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";
}

/**
 * Redocly's resolver throws, with neither file nor pointer, on a `$ref` chain that leads back to
 * itself: a one-line refusal instead of a stack trace.
 */
function refCycleError(error: unknown, file: string): unknown {
  if (!(error instanceof Error) || !/circular pointer/i.test(error.message)) return error;
  return new ContractError("", "a chain of $refs leads back to itself, so it names no value", file);
}

/** A file beside the contract, or undefined when there is none. */
async function readBeside(sourcePath: string, name: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(path.dirname(sourcePath), name), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Reads local files only: a contract must build the same way offline, so remote `$ref`s are refused. */
class LocalOnlyResolver extends BaseResolver {
  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(absoluteRef) || absoluteRef.startsWith("data:")) {
      throw new ResolveError(new Error(`remote $ref "${absoluteRef}" is not fetched; use a relative file path`));
    }
    return super.loadExternalRef(absoluteRef);
  }

  /**
   * JSON text is read with JSON.parse: the same values as Redocly's YAML parser gives, in a fraction
   * of its time and memory on a large document. Unless a key is duplicated: JSON.parse keeps the
   * last, the YAML parser refuses the document and says where, so then it reads it.
   */
  override parseDocument(source: Source, isRoot = false): Document {
    if ((isRoot || /\.json$/i.test(source.absoluteRef)) && /^\s*\{/.test(source.body)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(source.body);
      } catch {
        // Not JSON after all (YAML may start with a flow mapping).
      }
      if (parsed !== undefined && memberCount(parsed) === memberSeparators(source.body)) return { source, parsed };
    }
    return super.parseDocument(source, isRoot);
  }
}

/** Members of every object in a parsed JSON value. */
function memberCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (node !== null && typeof node === "object") {
      for (const key in node) {
        count++;
        pending.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

/** Colons outside string literals: in JSON text, exactly one per object member as written. */
function memberSeparators(text: string): number {
  let count = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index++; // a backslash escapes the next character
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 58) count++;
  }
  return count;
}

async function readRoot(resolver: BaseResolver, sourcePath: string): Promise<Document> {
  let root: unknown;
  try {
    root = await resolver.resolveDocument(null, sourcePath, true);
  } catch (error) {
    // Redocly declares errors as returned values but in fact rejects with them.
    root = error;
  }
  if (root instanceof YamlParseError) {
    throw new ContractError("", `YAML syntax error at line ${root.line}, column ${root.col}: ${yamlReason(root)}`, sourcePath);
  }
  if (root instanceof Error) {
    throw new ContractError("", `cannot read the contract: ${root.message}`, sourcePath);
  }
  return root as Document;
}

function checkRootMembers(parsed: unknown, file: string): void {
  if (!isPlainObject(parsed)) {
    throw new ContractError("", "not an OpenAPI document: expected an object at the top level", file);
  }
  const version = parsed["openapi"];
  if (version === undefined && "swagger" in parsed) {
    throw new ContractError("/swagger", "Swagger 2.0 is not supported: convert it to OpenAPI 3 first (`npx swagger2openapi --yaml --outfile openapi.yaml swagger.yaml`) and generate from that", file);
  }
  if (typeof version !== "string" || !/^3\.[012]\.\d+$/.test(version)) {
    const found = version === undefined ? "no openapi member" : JSON.stringify(version);
    throw new ContractError("/openapi", `expected OpenAPI 3.0.x, 3.1.x or 3.2.x, found ${found}`, file);
  }
  for (const member of ["info", "paths"]) {
    // OpenAPI 3.1 makes paths optional (a document of webhooks or components); 3.0 requires it.
    if (member === "paths" && parsed[member] === undefined && !version.startsWith("3.0.")) continue;
    if (!isPlainObject(parsed[member])) {
      const problem = parsed[member] === undefined ? "is missing" : "must be an object";
      throw new ContractError(pointer(member), `${member} ${problem}`, file);
    }
  }
}

/** Redocly collects problems instead of throwing; any error means the bundle cannot be trusted. */
async function throwFirstError(problems: NormalizedProblem[], resolver: BaseResolver, rootFile: string): Promise<void> {
  // Redocly may report one place twice (a mapping value is visited as a reference and as a string).
  const seen = new Set<string>();
  const errors = problems.filter((problem) => {
    const key = `${problem.message}\0${problem.location.map((l) => `${l.source.absoluteRef}#${l.pointer}`).join("\0")}`;
    return problem.severity === "error" && !seen.has(key) && seen.add(key);
  });
  const [first] = errors;
  if (!first) return;
  const location = first.location[0];
  const file = location?.source.absoluteRef ?? rootFile;
  const at = location?.pointer?.replace(/^#/, "") ?? "";
  const unresolved = location?.pointer !== undefined && first.message.startsWith("Can't resolve $ref");
  const reason = unresolved ? await unresolvedRefReason(resolver, file, at, first.message) : first.message;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? "s" : ""})` : "";
  throw new ContractError(at, `${reason}${more}`, file);
}

/**
 * Redocly's "Two schemas are referenced with the same name but different content. Renamed Pod to
 * Pod-2." (said of any kind of component): one warning each, at the `$ref` that got the new name.
 */
function reportRenames(problems: NormalizedProblem[], warnings: Warnings, rootFile: string): void {
  for (const problem of problems) {
    const renamed = /^Two schemas are referenced with the same name but different content\. Renamed (.+) to (.+)\.$/.exec(problem.message);
    if (problem.severity === "error" || !renamed) continue;
    const location = problem.location[0];
    const file = location?.source.absoluteRef ?? rootFile;
    const at = location?.pointer?.replace(/^#/, "") ?? "";
    warnings.add(
      `bundle:renamed:${file}#${at}`,
      at,
      `the bundler renamed the component ${renamed[1]} to ${renamed[2]} for this $ref: another file's ${renamed[1]} has other content`,
      file,
    );
  }
}

/**
 * Copies the bundle into fresh, frozen plain JSON. YAML can express values JSON
 * cannot (`.nan`, `!!binary`), and Redocly may share nodes between places; both
 * would make the hash and the emitted code depend on more than the text. Notes
 * in `found` whether a `$ref` names anything outside the document.
 */
function toFrozenJson(value: unknown, at: string[], file: string, found: { externalRefs: boolean }): Json {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
  } else if (Array.isArray(value)) {
    const items: Json[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      at.push(String(index));
      items[index] = toFrozenJson(value[index], at, file, found);
      at.pop();
    }
    return Object.freeze(items) as Json[];
  } else if (isPlainObject(value)) {
    // defineProperty-like semantics through fromEntries: a "__proto__" member stays data.
    const entries: Array<[string, Json]> = [];
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const member = value[key];
      if (key === "$ref" && typeof member === "string" && !member.startsWith("#")) found.externalRefs = true;
      at.push(key);
      entries.push([key, toFrozenJson(member, at, file, found)]);
      at.pop();
    }
    return Object.freeze(Object.fromEntries(entries)) as Json;
  }
  throw new ContractError(pointer(...at), `value is not representable in JSON (${String(value)})`, file);
}

/** JSON with object keys sorted recursively, so the hash ignores member order. */
function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

function valueAt(root: Json, segments: string[]): Json | undefined {
  let current: Json | undefined = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      // Only canonical indices: "01", "-" or "length" must not reach array internals.
      current = /^(0|[1-9]\d*)$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (current !== null && typeof current === "object") {
      // Own members only, so "constructor" or "__proto__" never reach Object.prototype.
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** js-yaml's bare reason, without the file name and position the ContractError already states. */
function yamlReason(error: YamlParseError): string {
  const reason: unknown = (error.originalError as { reason?: unknown }).reason;
  return typeof reason === "string" ? reason : error.message;
}
