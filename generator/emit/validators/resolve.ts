/**
 * `$ref` resolution inside the one document the validators are compiled from: JSON-pointer
 * fragments and `$anchor` names, with the document's root `$id` as the only base URI. Remote
 * references and changes of base URI are refused with a ContractError at the `$ref`.
 */
import { ContractError } from "../../common/errors.ts";
import { parsePointer, pointer } from "../../common/json-pointer.ts";
import { isObject, valueAt } from "./schema-object.ts";

export class RefResolver {
  /** Answers per `$ref` string: a much-referenced schema is resolved once. */
  private readonly resolved = new Map<string, string>();
  private anchors: Map<string, string[]> | undefined;
  private readonly rootId: string | undefined;

  constructor(private readonly document: unknown) {
    this.rootId = isObject(document) && typeof document["$id"] === "string" ? document["$id"].replace(/#$/, "") : undefined;
  }

  /** The JSON pointer a `$ref` (found at `at`) leads to, normalized. */
  resolve(ref: unknown, at: string): string {
    if (typeof ref !== "string") throw new ContractError(at, "$ref must be a string");
    // Only answers are kept: a refused `$ref` is refused again, at each place that uses it.
    const known = this.resolved.get(ref);
    if (known !== undefined) return known;
    const target = this.resolveNew(ref, at);
    this.resolved.set(ref, target);
    return target;
  }

  private resolveNew(ref: string, at: string): string {
    const hash = ref.indexOf("#");
    const resource = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    if (resource !== "" && resource !== this.rootId) {
      throw new ContractError(at, `$ref ${JSON.stringify(ref)} points outside the document: only internal references ("#/...") are supported`);
    }
    const target = fragment === "" || fragment.startsWith("/") ? pointer(...parsePointer(`#${fragment}`)) : this.anchorTarget(ref, fragment, at);
    const schema = valueAt(this.document, parsePointer(target));
    if (schema === undefined) throw new ContractError(at, `$ref ${JSON.stringify(ref)} points at nothing`);
    if (typeof schema !== "boolean" && !isObject(schema)) throw new ContractError(at, `$ref ${JSON.stringify(ref)} does not point at a schema`);
    return target;
  }

  /** The pointer of the one schema that declares `$anchor: name`. */
  private anchorTarget(ref: string, name: string, at: string): string {
    this.anchors ??= collectAnchors(this.document);
    const declared = this.anchors.get(name) ?? [];
    if (declared.length === 0) throw new ContractError(at, `$ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(name)} in the document`);
    if (declared.length > 1) {
      throw new ContractError(at, `$ref ${JSON.stringify(ref)}: $anchor ${JSON.stringify(name)} is declared ${declared.length} times (${declared.join(", ")})`);
    }
    return declared[0] as string;
  }
}

/** The schema at a normalized JSON pointer; a ContractError there when there is none. */
export function schemaAt(document: unknown, at: string): unknown {
  const schema = valueAt(document, parsePointer(at));
  if (schema === undefined) throw new ContractError(at, "no schema here");
  return schema;
}

/** `$anchor` names and the pointers of the schemas that declare them (data-valued members skipped). */
function collectAnchors(document: unknown): Map<string, string[]> {
  const anchors = new Map<string, string[]>();
  const walk = (node: unknown, segments: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...segments, String(index)]));
      return;
    }
    if (!isObject(node)) return;
    const anchor = node["$anchor"];
    if (typeof anchor === "string") {
      const list = anchors.get(anchor) ?? [];
      list.push(pointer(...segments));
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
