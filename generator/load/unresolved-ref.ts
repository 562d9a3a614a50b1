/**
 * What Redocly says of a `$ref` that does not resolve ("Can't resolve $ref", sometimes with a
 * file-system error) names neither the reference nor what is missing. This says both: the `$ref` as
 * written where it is (a Reference Object's, or a discriminator `mapping` value), and the first part
 * of its target that is not there (the file, or the member of the document that lacks the next key).
 */
import * as path from "node:path";
import type { BaseResolver } from "@redocly/openapi-core";
import { parsePointer, pointer } from "../common/json-pointer.ts";

/** The one-line reason for the unresolvable reference at `at` in `file`; Redocly's own message when no `$ref` is found there. */
export async function unresolvedRefReason(resolver: BaseResolver, file: string, at: string, redoclyMessage: string): Promise<string> {
  const source = await parsedFile(resolver, file);
  const ref = source === undefined ? undefined : refAt(source, at);
  if (ref === undefined) return redoclyMessage;
  const hash = ref.indexOf("#");
  const target = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash);
  const targetFile = target === "" ? file : path.resolve(path.dirname(file), decodeURI(target));
  // The resolver's own refusal says why (contract.ts): no file of this machine is missing.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return redoclyMessage.replace(/^Can't resolve \$ref: /, "");
  const document = targetFile === file ? source : await parsedFile(resolver, targetFile);
  if (document === undefined) return `$ref ${JSON.stringify(ref)} points at nothing: there is no file ${targetFile}`;
  const inFile = target === "" ? "" : ` in ${target}`;
  let segments: string[];
  try {
    segments = parsePointer(fragment);
  } catch {
    return `$ref ${JSON.stringify(ref)} points at nothing: ${JSON.stringify(fragment)} is not a JSON pointer`;
  }
  let node: unknown = document;
  for (let index = 0; index < segments.length; index++) {
    const key = segments[index]!;
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) {
      const parent = pointer(...segments.slice(0, index));
      return `$ref ${JSON.stringify(ref)} points at nothing: ${parent === "" ? "the document" : parent}${inFile} has no ${JSON.stringify(key)}`;
    }
    node = (node as Record<string, unknown>)[key];
  }
  return `$ref ${JSON.stringify(ref)} cannot be resolved: ${redoclyMessage}`;
}

/** A file's parsed text as the resolver read it, or undefined when it cannot be read. */
async function parsedFile(resolver: BaseResolver, file: string): Promise<unknown> {
  try {
    const document = await resolver.resolveDocument(null, file);
    return document instanceof Error ? undefined : document.parsed;
  } catch {
    return undefined;
  }
}

/** The reference at `at`: a Reference Object's `$ref`, or a string where a discriminator's `mapping` holds references. */
function refAt(document: unknown, at: string): string | undefined {
  let node: unknown = document;
  const segments = parsePointer(at);
  for (const key of segments) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  if (typeof node === "object" && node !== null && typeof (node as { $ref?: unknown }).$ref === "string") return (node as { $ref: string }).$ref;
  return typeof node === "string" && segments.at(-2) === "mapping" ? node : undefined;
}
