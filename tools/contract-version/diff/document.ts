/**
 * The parts of the contract outside paths and schemas: `x-sdk` (package name, key variable, other
 * generator settings), `info`, servers, `x-model-endpoints`, and whatever else the document holds.
 */
import { isDeepStrictEqual } from "node:util";
import { pointer as toPointer } from "../../../generator/common/json-pointer.ts";
import type { Json } from "../contract.ts";
import { DOC_KEYS, union, type DiffContext } from "./context.ts";
import { modelEndpointsOf } from "../../../generator/extensions/model-endpoints/model.ts";

export function diffSdk(cx: DiffContext): void {
  const a = (cx.base.document as Json)["x-sdk"] ?? {};
  const b = (cx.head.document as Json)["x-sdk"] ?? {};
  if (cx.baseModel.packageName !== cx.headModel.packageName) {
    cx.add("major", "/x-sdk/packageName", `package renamed from ${cx.baseModel.packageName} to ${cx.headModel.packageName}`);
  }
  if (cx.baseModel.apiKeyEnvVar !== cx.headModel.apiKeyEnvVar) {
    cx.add("major", "/x-sdk/apiKeyEnvVar", `the key's environment variable changed from ${cx.baseModel.apiKeyEnvVar} to ${cx.headModel.apiKeyEnvVar}`);
  }
  for (const key of union(Object.keys(a), Object.keys(b))) {
    // The version is this tool's output, not a change.
    if (["packageName", "apiKeyEnvVar", "packageVersion"].includes(key)) continue;
    if (!isDeepStrictEqual(a[key], b[key])) cx.add("minor", toPointer("x-sdk", key), `x-sdk.${key} changed`);
  }
}

export function diffInfo(cx: DiffContext): void {
  const a = (cx.base.document as Json).info ?? {};
  const b = (cx.head.document as Json).info ?? {};
  for (const key of union(Object.keys(a), Object.keys(b))) {
    if (!isDeepStrictEqual(a[key], b[key])) cx.add("patch", toPointer("info", key), key === "version" ? `API version ${a.version} → ${b.version}` : `info.${key} changed`);
  }
}

export function diffServers(cx: DiffContext): void {
  const before = new Map(cx.baseModel.servers.map((s) => [s.key, s]));
  const after = new Map(cx.headModel.servers.map((s) => [s.key, s]));
  for (const [key, server] of before) {
    const now = after.get(key);
    if (!now) cx.add("major", "/servers", `removed the server option \`${key}\` (${server.url})`);
    else if (now.defaultUrl !== server.defaultUrl) cx.add("minor", "/servers", `default of \`${key}\` changed from ${server.defaultUrl} to ${now.defaultUrl}`);
    else if (now.description !== server.description) cx.add("patch", "/servers", `description of the server \`${key}\` changed`);
  }
  for (const [key, server] of after) if (!before.has(key)) cx.add("minor", "/servers", `new server option \`${key}\` (${server.url})`);
}

/** `x-model-endpoints`, by model id. */
export function diffModels(cx: DiffContext): void {
  const before = new Map((modelEndpointsOf(cx.baseModel)?.endpoints ?? []).map((m) => [m.id, m]));
  const after = new Map((modelEndpointsOf(cx.headModel)?.endpoints ?? []).map((m) => [m.id, m]));
  for (const [id, m] of before) {
    const now = after.get(id);
    if (!now) {
      cx.add("major", m.pointer, `removed model ${id}`);
      continue;
    }
    if (m.inputSchema !== now.inputSchema) cx.add("major", `${now.pointer}/input`, `input of model ${id} is now ${now.inputSchema} instead of ${m.inputSchema}`);
    if (m.outputSchema !== now.outputSchema) cx.add("major", `${now.pointer}/output`, `output of model ${id} is now ${now.outputSchema} instead of ${m.outputSchema}`);
    if (m.kind !== now.kind) cx.add("minor", now.pointer, `kind of model ${id} changed from ${m.kind} to ${now.kind}`);
    if (m.urlField !== now.urlField) cx.add("minor", now.pointer, `URL field of model ${id} changed`);
    if (!isDeepStrictEqual(m.pricing, now.pricing)) cx.add("patch", `${now.pointer}/pricing`, `pricing of model ${id} changed`);
    if (m.summary !== now.summary || m.description !== now.description || m.urlLifetimeSeconds !== now.urlLifetimeSeconds) {
      cx.add("patch", now.pointer, `documentation of model ${id} changed`);
    }
  }
  for (const [id, m] of after) if (!before.has(id)) cx.add("minor", m.pointer, `new model ${id}`);
}

/** Top-level keys and components the other parts do not compare; unknown ones count as major, to be safe. */
export function diffRest(cx: DiffContext): void {
  const a = cx.base.document as Json;
  const b = cx.head.document as Json;
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
        if (kind === "examples" || kind === "links") cx.add("patch", at, `components.${kind} changed`);
        else if (kind === "securitySchemes") cx.add("minor", at, "security schemes changed");
        else cx.add("major", at, `components.${kind} changed (not classified, treated as major)`);
      }
    } else if (DOC_KEYS.has(key) || key.startsWith("x-")) cx.add("patch", toPointer(key), `${key} changed`);
    else if (key === "security" || key === "webhooks") cx.add("minor", toPointer(key), `${key} changed`);
    else cx.add("major", toPointer(key), `${key} changed (not classified, treated as major)`);
  }
}
