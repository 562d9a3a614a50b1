/**
 * `$ref` and `$dynamicRef` resolution inside the one document the validators (and, for
 * `$dynamicRef`, the types) are compiled from: JSON-pointer fragments and `$anchor`/`$dynamicAnchor`
 * names, with the document's root `$id` as the only base URI. Remote references and changes of base
 * URI are refused with a ContractError at the `$ref`.
 *
 * `$dynamicRef` (JSON Schema 2020-12 core §8.2.3.2) resolves first as `$ref` does; only when that
 * target declares a `$dynamicAnchor` of the fragment's name does the dynamic scope matter: the
 * outermost schema resource on the path of evaluation declaring that name wins. The schema
 * resources are, in an OpenAPI document, its top-level schemas (each component, each `schema`
 * member: what would be the root of a schema file; a component has no `$id` of its own, and the
 * base URI stays the document's), and in a document that is a schema, the document. When no other
 * resource declaring the name can be on a path of evaluation into the `$dynamicRef`'s resource
 * (the recursive tree: one declaration), the dynamic target is the static one, and that is what
 * the generator compiles. Otherwise (an "extensible" schema whose anchor another one overrides) the
 * target depends on the path, and the `$dynamicRef` is refused naming both declarations.
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { forEachSchema } from "../../common/schema-walk.ts";
import { isObject, valueAt } from "./schema-object.ts";

/** The reference keywords; a `$dynamicRef` compiles as a `$ref` to the one target it has (see above). */
export type RefKeyword = "$ref" | "$dynamicRef";
export const REF_KEYWORDS: readonly RefKeyword[] = ["$ref", "$dynamicRef"];

/** Where a plain name is declared: by `$anchor` or by `$dynamicAnchor`. */
interface Declaration {
  at: string;
  dynamic: boolean;
}

export class RefResolver {
  /** Answers per `$ref` string: a much-referenced schema is resolved once. */
  private readonly resolved = new Map<string, string>();
  /** Answers per `$dynamicRef` string and resource. */
  private readonly resolvedDynamic = new Map<string, string>();
  private anchors: Map<string, Declaration[]> | undefined;
  private resources: Resources | undefined;
  private readonly rootId: string | undefined;

  constructor(private readonly document: unknown) {
    this.rootId = isObject(document) && typeof document["$id"] === "string" ? document["$id"].replace(/#$/, "") : undefined;
  }

  /** The schema resource (see above) the schema at `at` is in: its top-level schema's pointer, or "". */
  resourceOf(at: string): string {
    this.resources ??= new Resources(this.document, this);
    return this.resources.of(at);
  }

  /** The JSON pointer a `$dynamicRef` (found at `at`) leads to, normalized; see above. */
  resolveDynamic(ref: unknown, at: string): string {
    if (typeof ref !== "string") throw new ContractError(at, "$dynamicRef must be a string");
    this.resources ??= new Resources(this.document, this);
    const resource = this.resources.of(at);
    const key = `${resource}#${ref}`;
    const known = this.resolvedDynamic.get(key);
    if (known !== undefined) return known;
    const target = this.resolveDynamicNew(ref, at, resource, this.resources);
    this.resolvedDynamic.set(key, target);
    return target;
  }

  private resolveDynamicNew(ref: string, at: string, resource: string, resources: Resources): string {
    const hash = ref.indexOf("#");
    const name = hash === -1 ? "" : ref.slice(hash + 1);
    if (name === "" || name.startsWith("/")) return this.resolve(ref, at, "$dynamicRef");
    this.anchors ??= collectAnchors(this.document);
    const declared = this.anchors.get(name) ?? [];
    // The name declared in the `$dynamicRef`'s own resource is the one the fragment means there.
    const own = declared.filter((d) => resources.of(d.at) === resource);
    if (own.length !== 1) return this.resolve(ref, at, "$dynamicRef");
    const target = own[0] as Declaration;
    this.checkResource(ref, at);
    if (!target.dynamic) return target.at;
    const others = declared.filter((d) => d.dynamic && resources.of(d.at) !== resource && resources.reaches(resources.of(d.at), resource));
    if (others.length > 0) {
      throw new ContractError(
        at,
        `$dynamicRef ${JSON.stringify(ref)}: $dynamicAnchor ${JSON.stringify(name)} is declared at ${target.at} and at ${others.map((d) => d.at).join(", ")}, from where evaluation can come into this one, so the target depends on the path taken (the extensible-schema pattern), which the generator does not compile: name the anchors apart, or use $ref`,
      );
    }
    return target.at;
  }

  /** Refuses a reference to another document, as `resolve` does. */
  private checkResource(ref: string, at: string): void {
    const hash = ref.indexOf("#");
    const resource = hash === -1 ? ref : ref.slice(0, hash);
    if (resource !== "" && resource !== this.rootId) {
      throw new ContractError(at, `$dynamicRef ${JSON.stringify(ref)} points outside the document: only internal references ("#...") are supported`);
    }
  }

  /** The JSON pointer a `$ref` (found at `at`) leads to, normalized. */
  resolve(ref: unknown, at: string, keyword: RefKeyword = "$ref"): string {
    if (typeof ref !== "string") throw new ContractError(at, `${keyword} must be a string`);
    // Only answers are kept: a refused `$ref` is refused again, at each place that uses it.
    const known = this.resolved.get(ref);
    if (known !== undefined) return known;
    const target = this.resolveNew(ref, at, keyword);
    this.resolved.set(ref, target);
    return target;
  }

  private resolveNew(ref: string, at: string, keyword: RefKeyword): string {
    const hash = ref.indexOf("#");
    const resource = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    if (resource !== "" && resource !== this.rootId) {
      throw new ContractError(at, `${keyword} ${JSON.stringify(ref)} points outside the document: only internal references ("#/...") are supported`);
    }
    const target = fragment === "" || fragment.startsWith("/") ? pointer(...parsePointer(`#${fragment}`)) : this.anchorTarget(ref, fragment, at, keyword);
    const schema = valueAt(this.document, parsePointer(target));
    if (schema === undefined) throw new ContractError(at, `${keyword} ${JSON.stringify(ref)} points at nothing`);
    if (typeof schema !== "boolean" && !isObject(schema)) throw new ContractError(at, `${keyword} ${JSON.stringify(ref)} does not point at a schema`);
    return target;
  }

  /** The pointer of the one schema that declares `$anchor: name` (or `$dynamicAnchor: name`, which is also a plain name). */
  private anchorTarget(ref: string, name: string, at: string, keyword: RefKeyword): string {
    this.anchors ??= collectAnchors(this.document);
    const declared = this.anchors.get(name) ?? [];
    if (declared.length === 0) throw new ContractError(at, `${keyword} ${JSON.stringify(ref)}: no $anchor or $dynamicAnchor ${JSON.stringify(name)} in the document`);
    if (declared.length > 1) {
      throw new ContractError(at, `${keyword} ${JSON.stringify(ref)}: the anchor ${JSON.stringify(name)} is declared ${declared.length} times (${declared.map((d) => d.at).join(", ")})`);
    }
    return (declared[0] as Declaration).at;
  }
}

/** The schema at a normalized JSON pointer; a ContractError there when there is none. */
export function schemaAt(document: unknown, at: string): unknown {
  const schema = valueAt(document, parsePointer(at));
  if (schema === undefined) throw new ContractError(at, "no schema here");
  return schema;
}

/** `$anchor` and `$dynamicAnchor` names and the pointers of the schemas that declare them (data-valued members skipped). */
function collectAnchors(document: unknown): Map<string, Declaration[]> {
  const anchors = new Map<string, Declaration[]>();
  const walk = (node: unknown, segments: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...segments, String(index)]));
      return;
    }
    if (!isObject(node)) return;
    for (const keyword of ["$anchor", "$dynamicAnchor"]) {
      const anchor = node[keyword];
      if (typeof anchor !== "string") continue;
      const list = anchors.get(anchor) ?? [];
      list.push({ at: pointer(...segments), dynamic: keyword === "$dynamicAnchor" });
      anchors.set(anchor, list);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "enum" || key === "const" || key === "default" || key === "examples" || key === "example") continue;
      walk(value, [...segments, key]);
    }
  };
  walk(document, []);
  return anchors;
}

/**
 * The document's schema resources (see above) and which can be on a path of evaluation into which:
 * one resource leads into another through a `$ref` or `$dynamicRef` of any schema in it whose
 * (static) target lies in the other. Built only for a `$dynamicRef` whose name is declared in
 * several resources.
 */
class Resources {
  /** Top-level schema pointers; empty for a document that is a schema (one resource, ""). */
  private readonly roots = new Set<string>();
  private edges: Map<string, Set<string>> | undefined;

  constructor(
    private readonly document: unknown,
    private readonly refs: RefResolver,
  ) {
    if (isObject(document) && "openapi" in document) forEachSchema(document, (_node, _at, topLevel) => this.roots.add(topLevel));
  }

  /** The resource a pointer is in: the nearest top-level schema at or above it, else the document. */
  of(at: string): string {
    let place = at;
    while (place !== "") {
      if (this.roots.has(place)) return place;
      place = place.slice(0, place.lastIndexOf("/"));
    }
    return "";
  }

  /** Whether evaluation can go from resource `from` into resource `to` (through others too). */
  reaches(from: string, to: string): boolean {
    const edges = (this.edges ??= this.collectEdges());
    const seen = new Set([from]);
    const queue = [from];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      for (const target of edges.get(next) ?? []) {
        if (target === to) return true;
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    return false;
  }

  private collectEdges(): Map<string, Set<string>> {
    const edges = new Map<string, Set<string>>();
    forEachSchema(this.document, (node, at, topLevel) => {
      for (const keyword of ["$ref", "$dynamicRef"]) {
        if (typeof node[keyword] !== "string") continue;
        let target: string;
        try {
          // Statically: a dynamic target is one of the declaring resources, already on the path.
          target = this.refs.resolve(node[keyword], at + pointer(keyword));
        } catch (error) {
          // A bad reference is refused where it is compiled, with its own pointer.
          if (error instanceof ContractError) continue;
          throw error;
        }
        const into = this.of(target);
        if (into === topLevel) continue;
        const set = edges.get(topLevel) ?? new Set<string>();
        set.add(into);
        edges.set(topLevel, set);
      }
    });
    return edges;
  }
}
