/**
 * The shape check of the load stage: Redocly's `struct` rule over the document as written (its
 * own version, so a 3.0 document is checked as 3.0 and every pointer is into the user's files).
 * Real documents trip it with harmless leftovers (3.0's `nullable` in a 3.1 document, a keyword
 * the version does not know, a response without `description`): those become warnings. Only a
 * finding on a node the model reads to write code (a path item, an operation, a parameter, a
 * server… that is not an object, or whose member the model reads has the wrong type) stops
 * generation, as one located error.
 */
import { createConfig, lintDocument, type BaseResolver, type Document, type NormalizedProblem, type Plugin } from "@redocly/openapi-core";
import { ContractError } from "../common/errors.ts";
import { REDOCLY_CONFIG } from "./redocly-config.ts";
import type { Warnings } from "../common/warnings.ts";

/**
 * Redocly's node types the model reads members of, and those members. A wrong type there (or the
 * node not being an object, or a required member missing) would make the generated code wrong.
 */
const READ_BY_MODEL: Readonly<Record<string, ReadonlySet<string>>> = {
  Root: new Set(["openapi", "info", "paths", "servers", "components"]),
  Info: new Set(["title", "version", "description", "summary"]),
  Paths: new Set(),
  PathItem: new Set(["servers", "parameters", "get", "put", "post", "delete", "options", "head", "patch", "trace"]),
  Operation: new Set(["operationId", "summary", "description", "tags", "deprecated", "servers", "parameters", "requestBody", "responses"]),
  Parameter: new Set(["name", "in", "required", "style", "explode", "allowReserved", "description", "schema"]),
  ParameterList: new Set(),
  RequestBody: new Set(["required", "content"]),
  Responses: new Set(),
  Response: new Set(["content"]),
  MediaTypesMap: new Set(),
  MediaType: new Set(["schema"]),
  ServerList: new Set(),
  Server: new Set(["url", "variables", "description"]),
  ServerVariablesMap: new Set(),
  ServerVariable: new Set(["default", "enum"]),
};

/** Members the model cannot do without; others it reads may be absent (a 3.0 operation without `responses`). */
const REQUIRED_BY_MODEL: Readonly<Record<string, ReadonlySet<string>>> = {
  Info: new Set(["title", "version"]),
  Parameter: new Set(["name", "in"]),
  Server: new Set(["url"]),
  ServerVariable: new Set(["default"]),
};

interface NodeType {
  name: string;
  properties: Record<string, unknown>;
  additionalProperties?: unknown;
}

/**
 * Records the Redocly type of every node visited, by file and pointer, and of its members: `struct`
 * stops other rules from visiting a node it found a wrong member in, so its parent names its type.
 * Reports nothing.
 */
function nodeTypeRecorder(types: Map<string, string>): Plugin {
  const named = (candidate: unknown, value: unknown, key: string): string | undefined => {
    const resolved = typeof candidate === "function" ? (candidate as (v: unknown, k: string) => unknown)(value, key) : candidate;
    const name = (resolved as { name?: unknown } | undefined)?.name;
    return typeof name === "string" ? name : undefined;
  };
  const record = () => ({
    any(node: unknown, { type, location }: { type: NodeType; location: { source: { absoluteRef: string }; pointer: string } }) {
      const at = `${location.source.absoluteRef}${location.pointer}`;
      types.set(at, type.name);
      if (typeof node !== "object" || node === null || Array.isArray(node)) return;
      for (const [key, value] of Object.entries(node)) {
        const name = named(Object.hasOwn(type.properties, key) ? type.properties[key] : type.additionalProperties, value, key);
        if (name !== undefined) types.set(`${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, name);
      }
    },
  });
  // Ready plugin objects are used as given: the rule id carries its plugin prefix already.
  return { id: "load", rules: { oas3: { "load/node-types": record } as never } };
}

/**
 * Lints `root` (and the files it refers to) with `struct`: throws the first finding that makes
 * correct code impossible, and adds the others to `warnings`, grouped by message. Returns the
 * lint's other errors (a `$ref` it could not resolve, which a document of one file is never
 * bundled to find), for the caller to locate.
 */
export async function checkStructure(
  root: Document,
  resolver: BaseResolver,
  warnings: Warnings,
  refCycle: (error: unknown) => unknown,
): Promise<NormalizedProblem[]> {
  const types = new Map<string, string>();
  const config = await createConfig({ ...REDOCLY_CONFIG, rules: { struct: "error", "no-unresolved-refs": "error", "load/node-types": "error" } }, { plugins: [nodeTypeRecorder(types)] });
  const problems = await lintDocument({ document: root, config, externalRefResolver: resolver }).catch((error: unknown) => {
    throw refCycle(error);
  });
  const findings = problems.filter((p) => p.ruleId === "struct");
  const fatal = findings.filter((p) => isFatal(p, types));
  const [first] = fatal;
  if (first) {
    const { file, at } = where(first, root);
    const more = fatal.length > 1 ? ` (and ${fatal.length - 1} more)` : "";
    throw new ContractError(at, `${first.message}${more}`, file);
  }
  for (const problem of findings) {
    // 2019-09's recursive keywords are read (older-dialects/recursive-refs.ts), not unexpected.
    if (/^Property `\$recursive(?:Ref|Anchor)` is not expected here/.test(problem.message)) continue;
    const { file, at } = where(problem, root);
    warnings.add(`struct:${problem.message}`, at, `the document's shape (Redocly's struct rule): ${problem.message.replace(/\.$/, "")}`, file);
  }
  return problems.filter((p) => p.ruleId !== "struct" && p.severity === "error" && !isMappingName(p, root));
}

/**
 * A discriminator mapping value that names a schema (`Cat`) rather than referencing one: the load
 * stage reads those (load/discriminator-mapping.ts), so they are not unresolved references. A value
 * that looks like a reference (`#/…`, a path, a file) and resolves to nothing still is.
 */
function isMappingName(problem: NormalizedProblem, root: Document): boolean {
  const location = problem.location[0];
  if (problem.ruleId !== "no-unresolved-refs" || !location?.pointer || !/\/discriminator\/mapping\/[^/]*$/.test(location.pointer)) return false;
  // In another file of a split contract, the bundle pass that follows checks the value.
  if (location.source.absoluteRef !== root.source.absoluteRef) return true;
  let value: unknown = root.parsed;
  for (const segment of location.pointer.replace(/^#\//, "").split("/")) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
    value = typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return typeof value === "string" && !value.includes("#") && !value.includes("/") && !/\.(ya?ml|json)$/i.test(value);
}

function where(problem: NormalizedProblem, root: Document): { file: string; at: string } {
  const location = problem.location[0];
  return { file: location?.source.absoluteRef ?? root.source.absoluteRef, at: location?.pointer?.replace(/^#/, "") ?? "" };
}

function isFatal(problem: NormalizedProblem, types: Map<string, string>): boolean {
  // Inside a top-level extension (`x-webhooks`, which Redocly types as 3.1's webhooks in a 3.0
  // document): the model reads nothing there, whatever its type.
  if (/^#?\/x-/.test(problem.location[0]?.pointer ?? "")) return false;
  // The node itself is of the wrong kind: "Expected type `Operation` (object) but got `string`".
  const wrongNode = /^Expected type `(\w+)` \((?:object|array)\)/.exec(problem.message);
  if (wrongNode) return wrongNode[1]! in READ_BY_MODEL;
  const location = problem.location[0];
  if (!location?.pointer) return false;
  const file = location.source.absoluteRef;
  const pointer = location.pointer;
  if (location.reportOnKey && /^The field `\w+` must be present/.test(problem.message)) {
    // A required member missing from a node the model reads it from (a parameter's `in`, a server's `url`).
    const member = /`(\w+)`/.exec(problem.message)![1]!;
    return REQUIRED_BY_MODEL[types.get(`${file}${pointer}`) ?? ""]?.has(member) === true;
  }
  // A member of the wrong type or value: fatal when the model reads that member of that node.
  const slash = pointer.lastIndexOf("/");
  const member = pointer.slice(slash + 1).replace(/~1/g, "/").replace(/~0/g, "~");
  const parentType = types.get(`${file}${pointer.slice(0, slash)}`);
  if (/^Expected type|^`\w+` can be one of/.test(problem.message)) return READ_BY_MODEL[parentType ?? ""]?.has(member) === true;
  return false;
}
