/**
 * `x-model-endpoints`: each AI model the API runs jobs on, keyed by its endpoint id, with its kind,
 * input and output schemas, output URL field and lifetime, pricing, and the README's example.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer, unescapeSegment } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import { schemaExample } from "../../model/examples.ts";
import { readPricing } from "./pricing.ts";
import type { ModelEndpoint } from "./types.ts";

function schemaNameOf(ref: unknown, at: string): string {
  const value = (ref as { $ref?: unknown } | undefined)?.$ref;
  const match = typeof value === "string" ? /^#\/components\/schemas\/([^/]+)$/.exec(value) : null;
  if (!match) throw new ContractError(at, "must be a $ref to a schema under #/components/schemas");
  return unescapeSegment(match[1]!);
}

/** The model endpoints, in document order; none when the contract has no `x-model-endpoints`. */
export function readModelEndpoints(contract: LoadedContract): ModelEndpoint[] {
  const endpoints = contract.document["x-model-endpoints"];
  if (endpoints === undefined) return [];
  if (!endpoints || typeof endpoints !== "object" || Array.isArray(endpoints)) throw new ContractError("/x-model-endpoints", "must be an object keyed by model endpoint id");
  return Object.entries<any>(endpoints).map(([id, endpoint]) => {
    const at = pointer("x-model-endpoints", id);
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new ContractError(at, `model endpoint id "${id}" is not lowercase words joined by hyphens`);
    if (typeof endpoint?.kind !== "string") throw new ContractError(`${at}/kind`, "a model endpoint needs a kind (video, image, audio, …)");
    const inputSchema = schemaNameOf(endpoint.input, `${at}/input`);
    const outputSchema = schemaNameOf(endpoint.output, `${at}/output`);
    const output = contract.deref<any>(contract.document.components?.schemas?.[outputSchema], pointer("components", "schemas", outputSchema)).value;
    const urlField = Object.keys(output?.properties ?? {}).find((name) => output.properties[name]?.["x-expires-after-seconds"] !== undefined);
    const lifetime = urlField ? output.properties[urlField]["x-expires-after-seconds"] : undefined;
    if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime <= 0)) {
      throw new ContractError(pointer("components", "schemas", outputSchema, "properties", urlField!, "x-expires-after-seconds"), "must be a positive integer of seconds");
    }
    return {
      id,
      kind: endpoint.kind,
      summary: endpoint.summary,
      description: endpoint.description,
      inputSchema,
      outputSchema,
      urlField,
      urlLifetimeSeconds: lifetime,
      pricing: endpoint.pricing === undefined ? undefined : readPricing(contract, endpoint.pricing, inputSchema, `${at}/pricing`),
      inputExample: schemaExample(contract, inputSchema),
      inputFields: inputFieldsOf(contract, inputSchema),
      pointer: at,
    };
  });
}

/** The input schema's top-level properties and whether each is required, its `allOf` members' included. */
function inputFieldsOf(contract: LoadedContract, inputSchema: string): Array<{ name: string; required: boolean }> {
  const at = pointer("components", "schemas", inputSchema);
  const root = contract.deref<any>(contract.document.components?.schemas?.[inputSchema], at).value;
  const members = [root, ...(Array.isArray(root?.allOf) ? root.allOf.map((member: unknown, index: number) => contract.deref<any>(member, `${at}/allOf/${index}`).value) : [])];
  const objects = members.filter((member): member is Record<string, any> => typeof member === "object" && member !== null);
  const required = new Set(objects.flatMap((member) => (Array.isArray(member.required) ? member.required : [])));
  const names = new Set(objects.flatMap((member) => Object.keys(member.properties ?? {})));
  return [...names].map((name) => ({ name, required: required.has(name) }));
}
