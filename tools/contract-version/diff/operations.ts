/**
 * Operations, by operationId: their method and path, parameters, request body and responses (with
 * headers), and the documentation beside them. Schemas found there go to the schema comparison.
 */
import { isDeepStrictEqual } from "node:util";
import { escapeSegment } from "../../../generator/common/json-pointer.ts";
import type { OperationModel } from "../../../generator/model/index.ts";
import type { Json } from "../contract.ts";

/** A node with where it sits: the last `$ref` followed, else where the node itself was. */
type Resolved = { value: Json; pointer: string };
import { DOC_KEYS, union, type DiffContext } from "./context.ts";
import type { SchemaDiff } from "./schemas.ts";

export function diffOperations(cx: DiffContext, schemas: SchemaDiff): void {
  const before = new Map(cx.baseModel.operations.map((o) => [o.operationId, o]));
  const after = new Map(cx.headModel.operations.map((o) => [o.operationId, o]));
  for (const [id, operation] of before) {
    const now = after.get(id);
    if (!now) {
      cx.add("major", operation.pointer, `removed operation \`${operation.methodName}\` (${operation.method.toUpperCase()} ${operation.path})`);
      continue;
    }
    diffOperation(cx, schemas, operation, now);
  }
  for (const [id, operation] of after) {
    if (!before.has(id)) cx.add("minor", operation.pointer, `new operation \`${operation.methodName}\` (${operation.method.toUpperCase()} ${operation.path})`);
  }
}

function diffOperation(cx: DiffContext, schemas: SchemaDiff, a: OperationModel, b: OperationModel): void {
  const name = `\`${b.methodName}\``;
  if (a.methodName !== b.methodName) cx.add("major", b.pointer, `method \`${a.methodName}\` renamed to ${name}`);
  if (a.method !== b.method || a.path !== b.path) {
    cx.add("minor", b.pointer, `${name} moved from ${a.method.toUpperCase()} ${a.path} to ${b.method.toUpperCase()} ${b.path}`);
  }
  if (a.server !== b.server) cx.add("minor", b.pointer, `${name} now uses the server \`${b.server}\` instead of \`${a.server}\``);
  if (!a.deprecated && b.deprecated) cx.add("minor", `${b.pointer}/deprecated`, `${name} is deprecated`);
  if (a.deprecated && !b.deprecated) cx.add("patch", `${b.pointer}/deprecated`, `${name} is no longer deprecated`);
  const rawA = cx.base.at<Json>(a.pointer) ?? {};
  const rawB = cx.head.at<Json>(b.pointer) ?? {};
  // A new role only adds per-model methods; losing or changing one takes a method away.
  const roleA: unknown = rawA["x-model-endpoint-role"];
  const roleB: unknown = rawB["x-model-endpoint-role"];
  if (roleA === undefined && roleB !== undefined) cx.add("minor", `${b.pointer}/x-model-endpoint-role`, `${name} now has the model endpoint role ${String(roleB)}`);
  else if (roleA !== roleB) cx.add("major", `${b.pointer}/x-model-endpoint-role`, `${name} changed its model endpoint role from ${String(roleA ?? "none")} to ${String(roleB ?? "none")}`);

  for (const key of union(Object.keys(rawA), Object.keys(rawB))) {
    if (["parameters", "requestBody", "responses", "operationId", "deprecated", "servers", "x-model-endpoint-role"].includes(key)) continue;
    if (isDeepStrictEqual(rawA[key], rawB[key])) continue;
    if (DOC_KEYS.has(key) || key.startsWith("x-")) cx.add("patch", `${b.pointer}/${escapeSegment(key)}`, `${key} of ${name} changed`);
    else if (key === "security") cx.add("minor", `${b.pointer}/security`, `security requirements of ${name} changed`);
    else cx.add("major", `${b.pointer}/${escapeSegment(key)}`, `${key} of ${name} changed (not classified, treated as major)`);
  }

  // Parameters, by location and name.
  const paramsA = new Map(a.parameters.map((p) => [`${p.in}:${p.name}`, p]));
  const paramsB = new Map(b.parameters.map((p) => [`${p.in}:${p.name}`, p]));
  for (const [key, p] of paramsA) {
    const q = paramsB.get(key);
    if (!q) {
      cx.add("major", p.pointer, `removed ${p.in} parameter \`${p.name}\` of ${name}`);
      continue;
    }
    if (!p.required && q.required) cx.add("major", q.pointer, `${p.in} parameter \`${p.name}\` of ${name} is now required`);
    if (p.required && !q.required) cx.add("minor", q.pointer, `${p.in} parameter \`${p.name}\` of ${name} is now optional`);
    diffDocKeys(cx, cx.base.at(p.pointer), cx.head.at(q.pointer), q.pointer, `${p.in} parameter \`${p.name}\` of ${name}`, ["schema", "required", "name", "in"]);
    // A parameter described by `content` changes through its `content`, which the line above treats as major.
    if (p.schemaPointer !== undefined && q.schemaPointer !== undefined) schemas.compare(cx.base.at(p.schemaPointer), cx.head.at(q.schemaPointer), p.schemaPointer, q.schemaPointer, "input");
  }
  for (const [key, q] of paramsB) {
    if (paramsA.has(key)) continue;
    if (q.required) cx.add("major", q.pointer, `new required ${q.in} parameter \`${q.name}\` of ${name}`);
    else cx.add("minor", q.pointer, `new optional ${q.in} parameter \`${q.name}\` of ${name}`);
  }

  // Request body.
  const bodyA = a.requestBody;
  const bodyB = b.requestBody;
  if (bodyA && !bodyB) cx.add("major", bodyA.pointer, `${name} no longer takes a request body`);
  if (!bodyA && bodyB) cx.add(bodyB.required ? "major" : "minor", bodyB.pointer, `${name} takes a new ${bodyB.required ? "required" : "optional"} request body`);
  if (bodyA && bodyB) {
    if (bodyA.mediaType !== bodyB.mediaType) cx.add("major", `${bodyB.pointer}/content`, `request body of ${name} is now ${bodyB.mediaType} instead of ${bodyA.mediaType}`);
    if (!bodyA.required && bodyB.required) cx.add("major", bodyB.pointer, `request body of ${name} is now required`);
    if (bodyA.required && !bodyB.required) cx.add("minor", bodyB.pointer, `request body of ${name} is now optional`);
    diffDocKeys(cx, cx.base.at(bodyA.pointer), cx.head.at(bodyB.pointer), bodyB.pointer, `request body of ${name}`, ["content", "required"]);
    const media = (at: string, type: string) => `${at}/content/${escapeSegment(type)}`;
    if (bodyA.mediaType === bodyB.mediaType) {
      diffDocKeys(cx, cx.base.at(media(bodyA.pointer, bodyA.mediaType)), cx.head.at(media(bodyB.pointer, bodyB.mediaType)), media(bodyB.pointer, bodyB.mediaType), `request body of ${name}`, ["schema"]);
    }
    // Where each schema is or would be: a media type without one has none to compare.
    const schemaA = `${media(bodyA.pointer, bodyA.mediaType)}/schema`;
    const schemaB = `${media(bodyB.pointer, bodyB.mediaType)}/schema`;
    schemas.compare(cx.base.at(schemaA), cx.head.at(schemaB), schemaA, schemaB, "input");
  }

  // Responses, by status.
  const responsesA = cx.base.deref<Json>(rawA.responses ?? {}, `${a.pointer}/responses`).value ?? {};
  const responsesB = cx.head.deref<Json>(rawB.responses ?? {}, `${b.pointer}/responses`).value ?? {};
  const success = (status: string) => /^2/.test(status);
  for (const status of union(Object.keys(responsesA), Object.keys(responsesB))) {
    const at = `${b.pointer}/responses/${escapeSegment(status)}`;
    const had = status in responsesA;
    const has = status in responsesB;
    if (had && !has) {
      cx.add(success(status) ? "major" : "minor", `${a.pointer}/responses/${escapeSegment(status)}`, `removed response ${status} of ${name}`);
      continue;
    }
    if (!had && has) {
      cx.add("minor", at, `new response ${status} of ${name}`);
      continue;
    }
    diffResponse(cx, schemas, cx.base.deref<Json>(responsesA[status], `${a.pointer}/responses/${escapeSegment(status)}`), cx.head.deref<Json>(responsesB[status], at), `response ${status} of ${name}`, success(status));
  }
}

function diffResponse(cx: DiffContext, schemas: SchemaDiff, a: Resolved, b: Resolved, what: string, success: boolean): void {
  diffDocKeys(cx, a.value, b.value, b.pointer, what, ["content", "headers", "links"]);
  const contentA = a.value?.content ?? {};
  const contentB = b.value?.content ?? {};
  for (const media of union(Object.keys(contentA), Object.keys(contentB))) {
    const at = `${b.pointer}/content/${escapeSegment(media)}`;
    if (!(media in contentB)) cx.add(success ? "major" : "minor", `${a.pointer}/content/${escapeSegment(media)}`, `${what} no longer has a ${media} body`);
    else if (!(media in contentA)) cx.add("minor", at, `${what} has a new ${media} body`);
    else {
      diffDocKeys(cx, contentA[media], contentB[media], at, `${media} body of ${what}`, ["schema"]);
      schemas.compare(contentA[media].schema, contentB[media].schema, `${a.pointer}/content/${escapeSegment(media)}/schema`, `${at}/schema`, "output");
    }
  }
  const headersA = a.value?.headers ?? {};
  const headersB = b.value?.headers ?? {};
  for (const header of union(Object.keys(headersA), Object.keys(headersB))) {
    const at = `${b.pointer}/headers/${escapeSegment(header)}`;
    if (!(header in headersB)) cx.add("minor", `${a.pointer}/headers/${escapeSegment(header)}`, `${what} no longer documents the header ${header}`);
    else if (!(header in headersA)) cx.add("minor", at, `${what} documents a new header ${header}`);
    else {
      const ha = cx.base.deref<Json>(headersA[header], `${a.pointer}/headers/${escapeSegment(header)}`);
      const hb = cx.head.deref<Json>(headersB[header], at);
      diffDocKeys(cx, ha.value, hb.value, hb.pointer, `header ${header} of ${what}`, ["schema"]);
      schemas.compare(ha.value?.schema, hb.value?.schema, `${ha.pointer}/schema`, `${hb.pointer}/schema`, "output");
    }
  }
  if (!isDeepStrictEqual(a.value?.links, b.value?.links)) cx.add("patch", `${b.pointer}/links`, `links of ${what} changed`);
}

/** Differences in documentation keys of two objects are patches; keys in `skip` are compared elsewhere; others are unclassified. */
function diffDocKeys(cx: DiffContext, a: Json, b: Json, at: string, what: string, skip: string[]): void {
  const objA = a && typeof a === "object" ? a : {};
  const objB = b && typeof b === "object" ? b : {};
  for (const key of union(Object.keys(objA), Object.keys(objB))) {
    if (skip.includes(key) || key === "$ref" || isDeepStrictEqual(objA[key], objB[key])) continue;
    if (DOC_KEYS.has(key) || key.startsWith("x-")) cx.add("patch", `${at}/${escapeSegment(key)}`, `${key} of ${what} changed`);
    else if (["style", "explode", "allowReserved", "allowEmptyValue", "encoding"].includes(key)) cx.add("major", `${at}/${escapeSegment(key)}`, `serialisation (${key}) of ${what} changed`);
    else if (key === "deprecated") cx.add(objB[key] ? "minor" : "patch", `${at}/deprecated`, `${what} ${objB[key] ? "is deprecated" : "is no longer deprecated"}`);
    else cx.add("major", `${at}/${escapeSegment(key)}`, `${key} of ${what} changed (not classified, treated as major)`);
  }
}
