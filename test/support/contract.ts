import fs from "node:fs";
import { parse } from "yaml";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { contractPath } from "./prism.ts";

/** The contract as a plain object (YAML anchors expanded, internal $refs kept). */
export function loadContractDocument(file: string = contractPath): any {
  return parse(fs.readFileSync(file, "utf8"), { maxAliasCount: -1 });
}

/** Resolves an internal JSON pointer such as `#/components/schemas/Pod`. */
export function resolvePointer(document: any, ref: string): any {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((node, key) => (node === undefined ? undefined : node[key]), document);
}

/** Follows `$ref`s until a non-reference object. */
export function deref(document: any, node: any): any {
  while (node && typeof node === "object" && typeof node.$ref === "string") node = resolvePointer(document, node.$ref);
  return node;
}

/**
 * Validators for any schema of the contract, by JSON pointer. The whole document is registered
 * once so internal `$ref`s resolve exactly as they are written.
 */
export function contractValidator(document: any = loadContractDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document, "contract");
  return (pointer: string): ValidateFunction => {
    const validate = ajv.getSchema(`contract${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
}
