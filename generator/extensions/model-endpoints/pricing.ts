/**
 * A model endpoint's `pricing`: what a job costs, from its input, checked against the input
 * schema so that every property it names exists and counts units only if it is a number.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer, unescapeSegment } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { EndpointPricing } from "./types.ts";

export function readPricing(contract: LoadedContract, pricing: any, inputSchema: string, at: string): EndpointPricing {
  const input = contract.deref<any>(contract.document.components?.schemas?.[inputSchema], pointer("components", "schemas", inputSchema)).value;
  const property = (field: string, pointerText: unknown) => {
    if (typeof pointerText !== "string" || !/^\/[^/]+$/.test(pointerText)) throw new ContractError(`${at}/${field}`, "must be a JSON pointer to a top-level input property, like /duration");
    const name = unescapeSegment(pointerText.slice(1));
    if (!input?.properties?.[name]) throw new ContractError(`${at}/${field}`, `the input schema ${inputSchema} has no property "${name}"`);
    return name;
  };
  if (typeof pricing.currency !== "string") throw new ContractError(`${at}/currency`, "must be a currency code");
  const nonNegative = (value: unknown, where: string) => {
    if (typeof value !== "number" || !(value >= 0)) throw new ContractError(where, "must be a non-negative number");
  };
  // A count of units is a number the input carries: a string property could never be priced.
  const numeric = (field: string, pointerText: unknown) => {
    const name = property(field, pointerText);
    const schema = contract.deref<any>(input.properties[name], pointer("components", "schemas", inputSchema, "properties", name)).value;
    const types = [schema?.type].flat();
    if (!types.includes("integer") && !types.includes("number")) throw new ContractError(`${at}/${field}`, `the input property "${name}" is not a number, so it cannot count units`);
    return name;
  };
  const unitsFrom = Array.isArray(pricing.unitsFrom)
    ? pricing.unitsFrom.map((entry: unknown, index: number) => numeric(`unitsFrom/${index}`, entry))
    : [numeric("unitsFrom", pricing.unitsFrom)];
  if (unitsFrom.length === 0) throw new ContractError(`${at}/unitsFrom`, "must name at least one input property");
  const unitsPer = pricing.unitsPer ?? 1;
  if (typeof unitsPer !== "number" || !(unitsPer > 0)) throw new ContractError(`${at}/unitsPer`, "must be a positive number (what the product of unitsFrom is divided by)");
  if (pricing.rate !== undefined && pricing.rates !== undefined) throw new ContractError(at, "has both a fixed `rate` and `rates`: give one");
  if (pricing.rate === undefined && pricing.rates === undefined) throw new ContractError(at, "needs a fixed `rate`, or `rates` with `rateFrom` (the input property that picks one)");
  if (pricing.rate !== undefined) {
    nonNegative(pricing.rate, `${at}/rate`);
    if (pricing.rateFrom !== undefined) throw new ContractError(`${at}/rateFrom`, "picks a rate in `rates`; a fixed `rate` needs none");
    return { currency: pricing.currency, unit: String(pricing.unit ?? "unit"), unitsFrom, unitsPer, rate: pricing.rate, formula: pricing.formula };
  }
  if (!pricing.rates || typeof pricing.rates !== "object") throw new ContractError(`${at}/rates`, "must map each value to a price per unit");
  for (const [value, rate] of Object.entries(pricing.rates)) {
    // The rates become an object literal of the package, where this key would set its prototype.
    if (value === "__proto__") throw new ContractError(at + pointer("rates", value), "a value named __proto__ cannot be emitted as data");
    nonNegative(rate, at + pointer("rates", value));
  }
  return {
    currency: pricing.currency,
    unit: String(pricing.unit ?? "unit"),
    unitsFrom,
    unitsPer,
    rateFrom: property("rateFrom", pricing.rateFrom),
    rates: pricing.rates,
    formula: pricing.formula,
  };
}
