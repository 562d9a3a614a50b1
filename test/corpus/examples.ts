/**
 * The examples a document carries about its own data, each paired with the generated validator
 * that judges it and the schema ajv judges it against: component schema `example`/`examples`,
 * parameter `example`/`examples` (and those of a parameter's JSON `content`), and JSON request and
 * success-response media-type
 * `example`/`examples` (Example Objects, `$ref`s to `components/examples` followed). Examples with
 * no generated validator (error responses, non-JSON bodies, nested property examples) are not
 * collected: there is nothing to compare.
 */
import { parsePointer, pointer } from "../../generator/common/json-pointer.ts";
import { mediaTypeKind } from "../../generator/common/media-types.ts";
import type { ApiModel } from "../../generator/model/index.ts";
import type { ValidatorNames } from "../../generator/emit/validators/operation-validators.ts";

/** Which generated validator judges the example, and what part of its issues concern it. */
export type ExampleTarget =
  | { kind: "schema"; stem: string }
  | { kind: "params"; stem: string; location: "path" | "query" | "header" | "cookie" | "body"; name?: string }
  | { kind: "response"; operationId: string; status: string };

export interface DocumentExample {
  /** Where the example is written in the (loaded) document. */
  at: string;
  /** The schema ajv validates it against. */
  schemaPointer: string;
  target: ExampleTarget;
  value: unknown;
}

export function at(document: unknown, where: string): any {
  let node: any = document;
  for (const segment of parsePointer(where)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[segment];
  }
  return node;
}

/** Follows local `$ref`s (a remote one gives undefined: the loader has bundled them anyway). */
function deref(document: unknown, node: any, where: string): { node: any; where: string } {
  for (let hops = 0; node && typeof node === "object" && typeof node.$ref === "string" && hops < 20; hops++) {
    if (!node.$ref.startsWith("#")) return { node: undefined, where };
    where = node.$ref.slice(1);
    node = at(document, where);
  }
  return { node, where };
}

/** `example` and the values of `examples` (a map of Example Objects) of a parameter or media type. */
function objectExamples(document: unknown, holder: any, where: string): Array<{ at: string; value: unknown }> {
  const found: Array<{ at: string; value: unknown }> = [];
  if (holder === null || typeof holder !== "object") return found;
  if ("example" in holder) found.push({ at: `${where}/example`, value: holder.example });
  if (holder.examples && typeof holder.examples === "object" && !Array.isArray(holder.examples)) {
    for (const [key, raw] of Object.entries<any>(holder.examples)) {
      const { node, where: exampleAt } = deref(document, raw, pointer(...parsePointer(where), "examples", key));
      if (node && typeof node === "object" && "value" in node) found.push({ at: `${exampleAt}/value`, value: node.value });
    }
  }
  return found;
}

export function collectExamples(document: any, api: ApiModel, names: ValidatorNames): DocumentExample[] {
  const examples: DocumentExample[] = [];
  for (const [schema, stem] of names.schemas) {
    const schemaPointer = pointer("components", "schemas", schema);
    const node = at(document, schemaPointer);
    if (node === null || typeof node !== "object") continue;
    if ("example" in node) examples.push({ at: `${schemaPointer}/example`, schemaPointer, target: { kind: "schema", stem }, value: node.example });
    // JSON Schema's `examples` is an array; a map here is a 3.0 habit and carries no schema meaning.
    if (Array.isArray(node.examples)) {
      node.examples.forEach((value: unknown, index: number) => examples.push({ at: `${schemaPointer}/examples/${index}`, schemaPointer, target: { kind: "schema", stem }, value }));
    }
  }
  for (const operation of api.operations) {
    const stems = names.operations.get(operation.operationId);
    if (stems?.request) {
      for (const parameter of operation.parameters) {
        // A parameter of non-JSON `content` is checked as a string, not against a schema ajv could read.
        if (parameter.schemaPointer === undefined) continue;
        const { node } = deref(document, at(document, parameter.pointer), parameter.pointer);
        const found = objectExamples(document, node, parameter.pointer);
        if (parameter.mediaType !== undefined) found.push(...objectExamples(document, node?.content?.[parameter.mediaType], pointer(...parsePointer(parameter.pointer), "content", parameter.mediaType)));
        for (const example of found) {
          examples.push({ ...example, schemaPointer: parameter.schemaPointer, target: { kind: "params", stem: stems.request, location: parameter.in, name: parameter.name } });
        }
      }
      const body = operation.requestBody;
      // A body without a schema admits anything: nothing to judge.
      if (body?.schemaPointer !== undefined && mediaTypeKind(body.mediaType) === "json") {
        const mediaAt = pointer(...parsePointer(body.pointer), "content", body.mediaType);
        const media = deref(document, at(document, body.pointer), body.pointer).node?.content?.[body.mediaType];
        for (const found of objectExamples(document, media, mediaAt)) {
          examples.push({ ...found, schemaPointer: body.schemaPointer, target: { kind: "params", stem: stems.request, location: "body" } });
        }
      }
    }
    for (const response of operation.successResponses) {
      if (!response.mediaType || !response.schemaPointer || mediaTypeKind(response.mediaType) !== "json") continue;
      const responseAt = pointer(...parsePointer(operation.pointer), "responses", response.status);
      const { node, where } = deref(document, at(document, responseAt), responseAt);
      const mediaAt = pointer(...parsePointer(where), "content", response.mediaType);
      for (const found of objectExamples(document, node?.content?.[response.mediaType], mediaAt)) {
        examples.push({ ...found, schemaPointer: response.schemaPointer, target: { kind: "response", operationId: operation.operationId, status: response.status } });
      }
    }
  }
  return examples;
}
