/**
 * `readOnly` and `writeOnly`, as OpenAPI reads them: a read-only property is sent by the service
 * and never required in a request; a write-only one is sent by the client and never required in a
 * response. The generator's one reading of them, shared by the types (`emit/schema-types/`), the
 * model (which operation and component types carry them) and the validators (which schemas need a
 * request or a response variant):
 *
 * - a property is marked when its schema (a member of `properties`) says `readOnly: true` or
 *   `writeOnly: true`, or is a `$ref` (through a chain of them) to a schema that does; marked both
 *   ways, it is neither (as openapi-typescript reads it);
 * - `required` drops, in a direction, the names whose property in the same schema object's
 *   `properties` that direction hides; a name required in one `allOf` branch and declared in
 *   another stays required;
 * - only local references (`#/...`) are followed.
 */
import { parsePointer, pointer } from "./json-pointer.ts";
import { forEachSchema, forEachSubschema, hasAnyKey } from "./schema-walk.ts";

export type Direction = "request" | "response";
export type Marker = "readOnly" | "writeOnly";

/** The marker a direction leaves out: read-only properties in requests, write-only ones in responses. */
export const HIDDEN_IN: Readonly<Record<Direction, Marker>> = { request: "readOnly", response: "writeOnly" };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A local `$ref`'s target as a normalized pointer; undefined for any other reference. */
function localTarget(ref: unknown): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  try {
    return pointer(...parsePointer(ref));
  } catch {
    return undefined;
  }
}

function valueAt(document: unknown, at: string): unknown {
  let node = document;
  for (const segment of parsePointer(at)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[segment];
  }
  return node;
}

export class ReadWriteMarks {
  /** Schemas (by pointer) that reach a marked property: their types carry markers. */
  private readonly marked: ReadonlySet<string>;
  /** Per direction, schemas that reach a required property it hides: checked differently there. */
  private readonly differing: Readonly<Record<Direction, ReadonlySet<string>>>;

  /** The marks of a document; undefined when it marks no property (most documents): nothing here applies. */
  static of(document: unknown): ReadWriteMarks | undefined {
    if (!hasAnyKey(document, ["readOnly", "writeOnly"])) return undefined;
    const marks = new ReadWriteMarks(document);
    return marks.marked.size === 0 ? undefined : marks;
  }

  private constructor(private readonly document: unknown) {
    // Who reaches whom: a schema reaches its subschemas and its `$ref`'s target.
    const reachedFrom = new Map<string, string[]>();
    const edge = (from: string, to: string) => {
      const list = reachedFrom.get(to);
      if (list === undefined) reachedFrom.set(to, [from]);
      else list.push(from);
    };
    const marked: string[] = [];
    const differing: Record<Direction, string[]> = { request: [], response: [] };
    forEachSchema(document, (node, at) => {
      forEachSubschema(node, at, (_, sub) => edge(at, sub));
      const target = localTarget(node["$ref"]);
      if (target !== undefined) edge(at, target);
      const properties = node["properties"];
      if (!isObject(properties)) return;
      if (Object.values(properties).some((property) => this.markOf(property) !== undefined)) marked.push(at);
      for (const direction of ["request", "response"] as const) if (this.hiddenRequired(node, direction).length > 0) differing[direction].push(at);
    });
    const closure = (start: readonly string[]): Set<string> => {
      const reached = new Set(start);
      const queue = [...start];
      while (queue.length > 0) for (const from of reachedFrom.get(queue.pop()!) ?? []) if (!reached.has(from)) reached.add(from), queue.push(from);
      return reached;
    };
    this.marked = closure(marked);
    this.differing = { request: closure(differing.request), response: closure(differing.response) };
  }

  /** The marker of a property's schema (its own, else its `$ref` target's); undefined when none, or both. */
  markOf(property: unknown): Marker | undefined {
    let schema = property;
    const seen = new Set<unknown>();
    while (isObject(schema) && !seen.has(schema)) {
      seen.add(schema);
      const readOnly = schema["readOnly"] === true;
      const writeOnly = schema["writeOnly"] === true;
      if (readOnly || writeOnly) return readOnly && writeOnly ? undefined : readOnly ? "readOnly" : "writeOnly";
      const target = localTarget(schema["$ref"]);
      if (target === undefined) return undefined;
      schema = valueAt(this.document, target);
    }
    return undefined;
  }

  /** The names a schema object's `required` lists whose property `direction` hides. */
  hiddenRequired(schema: Json, direction: Direction): string[] {
    const required = schema["required"];
    const properties = schema["properties"];
    if (!Array.isArray(required) || !isObject(properties)) return [];
    const hidden = HIDDEN_IN[direction];
    return required.filter((name): name is string => typeof name === "string" && Object.hasOwn(properties, name) && this.markOf(properties[name]) === hidden);
  }

  /** Whether the schema at `at` (a normalized pointer) reaches a marked property: its type carries markers. */
  reachesMarker(at: string): boolean {
    return this.marked.has(at);
  }

  /** Whether checking the schema at `at` in `direction` differs from checking it as written. */
  differsIn(at: string, direction: Direction): boolean {
    return this.differing[direction].has(at);
  }
}
