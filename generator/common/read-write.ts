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
import { parsePointer } from "./json-pointer.ts";
import { hasAnyKey, holdsData, subschemaObjects } from "./schema-walk.ts";

export type Direction = "request" | "response";
export type Marker = "readOnly" | "writeOnly";

/** The marker a direction leaves out: read-only properties in requests, write-only ones in responses. */
export const HIDDEN_IN: Readonly<Record<Direction, Marker>> = { request: "readOnly", response: "writeOnly" };

type Json = Record<string, unknown>;


function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Answers are searched from the schemas asked about, never by a walk of the whole document (on
 * GitHub's, a walk costs seconds): through subschemas and local `$ref`s, stopping at the first
 * schema that answers yes; a search that finds none records every schema it saw as "no".
 */
export class ReadWriteMarks {
  /** Per pointer or local `$ref` string, what it names (undefined: no such place). */
  private readonly targets = new Map<string, unknown>();
  private readonly markers = new WeakMap<object, Marker | null>();
  /** Per question (a marked property; a hidden required one per direction), the schemas known to reach one or not. */
  private readonly answers = { marked: new WeakMap<object, boolean>(), request: new WeakMap<object, boolean>(), response: new WeakMap<object, boolean>() };

  /** The marks of a document; undefined when it marks no property (most documents): nothing here applies. */
  static of(document: unknown): ReadWriteMarks | undefined {
    if (!hasAnyKey(document, ["readOnly", "writeOnly"])) return undefined;
    const marks = new ReadWriteMarks(document);
    return marks.marksAnyProperty() ? marks : undefined;
  }

  private constructor(private readonly document: unknown) {}

  private marksAnyProperty(): boolean {
    return this.someObject((node) => this.hasMarkedProperty(node));
  }

  /**
   * The properties marked only through their `$ref` (their target says `readOnly` or `writeOnly`),
   * each with its marker: where openapi-typescript, which reads a property's own keywords, needs it.
   */
  markedThroughRefs(): Array<[property: Json, marker: Marker]> {
    const found: Array<[Json, Marker]> = [];
    this.someObject((node) => {
      const properties = node["properties"];
      if (!isObject(properties)) return false;
      for (const property of Object.values(properties)) {
        if (!isObject(property) || !("$ref" in property)) continue;
        const marker = this.markOf(property);
        if (marker !== undefined && !(marker in property)) found.push([property, marker]);
      }
      return false;
    });
    return found;
  }

  /**
   * Whether `test` holds for an object of the document, looked at as `hasAnyKey` does (no pointers
   * built: a walk of the schemas costs seconds on GitHub's document); data (`example`, `examples`,
   * `default`, `enum`, `const`) and `x-` extensions are not entered.
   */
  private someObject(test: (node: Json) => boolean): boolean {
    const stack: [unknown, string | undefined][] = [[this.document, undefined]];
    while (stack.length > 0) {
      const [node, parent] = stack.pop()!;
      if (Array.isArray(node)) {
        for (const item of node) if (typeof item === "object" && item !== null) stack.push([item, undefined]);
        continue;
      }
      if (!isObject(node)) continue;
      if (test(node)) return true;
      for (const key in node) {
        const value = node[key];
        if (typeof value === "object" && value !== null && Object.hasOwn(node, key) && !holdsData(key, parent) && !key.startsWith("x-")) stack.push([value, key]);
      }
    }
    return false;
  }

  private target(ref: unknown): unknown {
    return typeof ref === "string" && ref.startsWith("#") ? this.lookup(ref) : undefined;
  }

  /** What a JSON pointer, or a `$ref`'s fragment, names in the document. */
  private lookup(ref: string): unknown {
    if (this.targets.has(ref)) return this.targets.get(ref);
    let node: unknown = this.document;
    try {
      for (const segment of parsePointer(ref)) node = isObject(node) || Array.isArray(node) ? (node as Json)[segment] : undefined;
    } catch {
      node = undefined;
    }
    this.targets.set(ref, node);
    return node;
  }

  /** The marker of a property's schema (its own, else its `$ref` target's); undefined when none, or both. */
  markOf(property: unknown): Marker | undefined {
    if (!isObject(property)) return undefined;
    const known = this.markers.get(property);
    if (known !== undefined) return known ?? undefined;
    let marker: Marker | undefined;
    let schema: unknown = property;
    const seen = new Set<unknown>();
    while (isObject(schema) && !seen.has(schema)) {
      seen.add(schema);
      const readOnly = schema["readOnly"] === true;
      const writeOnly = schema["writeOnly"] === true;
      if (readOnly || writeOnly) {
        marker = readOnly && writeOnly ? undefined : readOnly ? "readOnly" : "writeOnly";
        break;
      }
      schema = this.target(schema["$ref"]);
    }
    this.markers.set(property, marker ?? null);
    return marker;
  }

  private hasMarkedProperty(schema: Json): boolean {
    const properties = schema["properties"];
    return isObject(properties) && Object.values(properties).some((property) => this.markOf(property) !== undefined);
  }

  /** The names a schema object's `required` lists whose property `direction` hides. */
  hiddenRequired(schema: Json, direction: Direction): string[] {
    const required = schema["required"];
    const properties = schema["properties"];
    if (!Array.isArray(required) || !isObject(properties)) return [];
    const hidden = HIDDEN_IN[direction];
    return required.filter((name): name is string => typeof name === "string" && Object.hasOwn(properties, name) && this.markOf(properties[name]) === hidden);
  }

  /** Whether the schema at `at` (a pointer) reaches a marked property: its type carries markers. */
  reachesMarker(at: string): boolean {
    return this.reaches(at, this.answers.marked, (schema) => this.hasMarkedProperty(schema));
  }

  /** Whether checking the schema at `at` in `direction` differs from checking it as written. */
  differsIn(at: string, direction: Direction): boolean {
    return this.reaches(at, this.answers[direction], (schema) => this.hiddenRequired(schema, direction).length > 0);
  }

  private reaches(at: string, answers: WeakMap<object, boolean>, itself: (schema: Json) => boolean): boolean {
    const start = this.lookup(at);
    if (!isObject(start)) return false;
    const known = answers.get(start);
    if (known !== undefined) return known;
    const seen = new Set<Json>();
    const stack: Json[] = [start];
    let found = false;
    while (stack.length > 0 && !found) {
      const schema = stack.pop()!;
      if (seen.has(schema)) continue;
      seen.add(schema);
      const answer = answers.get(schema);
      if (answer === false) continue;
      found = answer === true || itself(schema);
      stack.push(...subschemaObjects(schema));
      const target = this.target(schema["$ref"]);
      if (isObject(target)) stack.push(target);
    }
    // Everything a fruitless search saw reaches nothing it did not see.
    if (!found) for (const schema of seen) answers.set(schema, false);
    answers.set(start, found);
    return found;
  }
}
