/**
 * A model endpoint's `pricing`: what a job costs, from its input, checked against the input
 * schema so that every property it names exists and has the type its use needs (a count is a
 * number, counted characters are a string). The forms, and what each lets a client promise:
 *
 * - units from numbers (`unitsFrom`: seconds, width × height): the product over `unitsPer`, exact;
 * - one unit per job (no `unitsFrom`): a price per image or per video, exact;
 * - `round: up`: a started unit is billed whole (a fixed clip), so the estimate never falls short;
 * - `charactersFrom`: the characters of a text (per 1,000 characters), exact;
 * - `tokens`: rates `{input, output}`; the estimate is an upper bound (output capped by the
 *   input's max-tokens property, input counted a token per UTF-8 byte plus a per-message allowance);
 * - `rates` picked by the values of `rateFrom` (a resolution, a tier, a variant), joined by ",";
 * - `unitsUnknown`: a published price per unit of the result (seconds of generated audio): no
 *   estimate, and `maxCostUsd` refuses; `unknownWhen`: likewise when the input has one of these.
 */
import { ContractError } from "../../common/errors.ts";
import { pointer, unescapeSegment } from "../../common/json-pointer.ts";
import type { LoadedContract } from "../../load/index.ts";
import type { EndpointPricing, TokenRate } from "./types.ts";

const KEYS = new Set(["currency", "unit", "rate", "rates", "rateFrom", "unitsFrom", "unitsPer", "round", "charactersFrom", "tokens", "unitsUnknown", "unknownWhen", "formula"]);

export function readPricing(contract: LoadedContract, pricing: any, inputSchema: string, at: string): EndpointPricing {
  if (!pricing || typeof pricing !== "object" || Array.isArray(pricing)) throw new ContractError(at, "must be an object");
  for (const key of Object.keys(pricing)) if (!KEYS.has(key)) throw new ContractError(`${at}/${key}`, `is not a pricing key (${[...KEYS].join(", ")})`);
  const inputAt = pointer("components", "schemas", inputSchema);
  const input = contract.deref<any>(contract.document.components?.schemas?.[inputSchema], inputAt).value;
  const typesOf = (schema: any) => [schema?.type].flat();
  // A path of properties from the input's root; only token caps may be nested.
  const propertyPath = (field: string, pointerText: unknown, nested = false): { path: string[]; schema: any } => {
    const shape = nested ? /^(\/[^/]+)+$/ : /^\/[^/]+$/;
    if (typeof pointerText !== "string" || !shape.test(pointerText)) {
      throw new ContractError(`${at}/${field}`, nested ? "must be a JSON pointer to an input property, like /sampling_params/max_tokens" : "must be a JSON pointer to a top-level input property, like /duration");
    }
    const path = pointerText.slice(1).split("/").map(unescapeSegment);
    let schema = input;
    let schemaAt = inputAt;
    for (const name of path) {
      if (!schema?.properties?.[name]) throw new ContractError(`${at}/${field}`, `the input schema ${inputSchema} has no property "${path.join(".")}"`);
      schemaAt = `${schemaAt}/properties/${name}`;
      schema = contract.deref<any>(schema.properties[name], schemaAt).value;
    }
    return { path, schema };
  };
  const property = (field: string, pointerText: unknown) => propertyPath(field, pointerText).path[0]!;
  const pointers = (field: string, value: unknown): string[] => {
    const list = Array.isArray(value) ? value.map((entry, index) => property(`${field}/${index}`, entry)) : [property(field, value)];
    if (list.length === 0) throw new ContractError(`${at}/${field}`, "must name at least one input property");
    return list;
  };
  const numeric = (field: string, pointerText: unknown, nested = false) => {
    const found = propertyPath(field, pointerText, nested);
    const types = typesOf(found.schema);
    if (!types.includes("integer") && !types.includes("number")) throw new ContractError(`${at}/${field}`, `the input property "${found.path.join(".")}" is not a number, so it cannot count units`);
    return found;
  };
  if (typeof pricing.currency !== "string") throw new ContractError(`${at}/currency`, "must be a currency code");
  const nonNegative = (value: unknown, where: string) => {
    if (typeof value !== "number" || !(value >= 0)) throw new ContractError(where, "must be a non-negative number");
  };

  const result: EndpointPricing = { currency: pricing.currency, unit: String(pricing.unit ?? "unit"), unitsPer: 1 };
  if (pricing.unitsFrom !== undefined) {
    const list = Array.isArray(pricing.unitsFrom) ? pricing.unitsFrom : [pricing.unitsFrom];
    if (list.length === 0) throw new ContractError(`${at}/unitsFrom`, "must name at least one input property");
    result.unitsFrom = list.map((entry: unknown, index: number) => numeric(Array.isArray(pricing.unitsFrom) ? `unitsFrom/${index}` : "unitsFrom", entry).path[0]!);
  }
  const unitsPer = pricing.unitsPer ?? 1;
  if (typeof unitsPer !== "number" || !(unitsPer > 0)) throw new ContractError(`${at}/unitsPer`, "must be a positive number (what the count of units is divided by)");
  result.unitsPer = unitsPer;
  if (pricing.round !== undefined) {
    if (pricing.round !== "up") throw new ContractError(`${at}/round`, 'must be "up" (a started unit is billed whole)');
    result.round = "up";
  }
  if (pricing.charactersFrom !== undefined) {
    const found = propertyPath("charactersFrom", pricing.charactersFrom);
    if (!typesOf(found.schema).includes("string")) throw new ContractError(`${at}/charactersFrom`, `the input property "${found.path[0]}" is not a string, so it has no characters to count`);
    result.charactersFrom = found.path[0]!;
  }
  if (pricing.tokens !== undefined) {
    const tokens = pricing.tokens;
    if (!tokens || typeof tokens !== "object") throw new ContractError(`${at}/tokens`, "must be {inputFrom, maxOutputFrom}");
    if (result.unitsFrom || result.charactersFrom) throw new ContractError(`${at}/tokens`, "token pricing counts tokens: it takes no unitsFrom or charactersFrom");
    for (const key of Object.keys(tokens)) if (key !== "inputFrom" && key !== "maxOutputFrom") throw new ContractError(`${at}/tokens/${key}`, "is not a token pricing key (inputFrom, maxOutputFrom)");
    const prompt = propertyPath("tokens/inputFrom", tokens.inputFrom);
    if (!typesOf(prompt.schema).includes("string") && !typesOf(prompt.schema).includes("array")) {
      throw new ContractError(`${at}/tokens/inputFrom`, `the input property "${prompt.path[0]}" is neither a prompt (string) nor a list of messages (array)`);
    }
    const cap = numeric("tokens/maxOutputFrom", tokens.maxOutputFrom, true);
    result.tokens = { inputFrom: prompt.path, maxOutputFrom: cap.path, ...(typeof cap.schema?.default === "number" ? { maxOutputDefault: cap.schema.default } : {}) };
  }
  const rateValue = (value: unknown, where: string): number | TokenRate => {
    if (!result.tokens) {
      nonNegative(value, where);
      return value as number;
    }
    const rate = value as TokenRate;
    if (!rate || typeof rate !== "object" || Object.keys(rate).sort().join() !== "input,output") throw new ContractError(where, "token pricing needs {input, output}: the price of unitsPer tokens in and out");
    nonNegative(rate.input, `${where}/input`);
    nonNegative(rate.output, `${where}/output`);
    return { input: rate.input, output: rate.output };
  };
  if (pricing.rate !== undefined && pricing.rates !== undefined) throw new ContractError(at, "has both a fixed `rate` and `rates`: give one");
  if (pricing.rate === undefined && pricing.rates === undefined) throw new ContractError(at, "needs a fixed `rate`, or `rates` with `rateFrom` (the input property that picks one)");
  if (pricing.rate !== undefined) {
    result.rate = rateValue(pricing.rate, `${at}/rate`);
    if (pricing.rateFrom !== undefined) throw new ContractError(`${at}/rateFrom`, "picks a rate in `rates`; a fixed `rate` needs none");
  } else {
    if (!pricing.rates || typeof pricing.rates !== "object") throw new ContractError(`${at}/rates`, "must map each value to a price per unit");
    result.rateFrom = pointers("rateFrom", pricing.rateFrom);
    const rates: Record<string, number | TokenRate> = {};
    for (const [value, rate] of Object.entries(pricing.rates)) {
      // The rates become an object literal of the package, where this key would set its prototype.
      if (value === "__proto__") throw new ContractError(at + pointer("rates", value), "a value named __proto__ cannot be emitted as data");
      rates[value] = rateValue(rate, at + pointer("rates", value));
    }
    result.rates = rates;
  }
  if (pricing.unitsUnknown !== undefined) {
    if (typeof pricing.unitsUnknown !== "string" || pricing.unitsUnknown.trim() === "") throw new ContractError(`${at}/unitsUnknown`, "must say why the input does not fix the units");
    result.unitsUnknown = pricing.unitsUnknown;
  }
  if (pricing.unknownWhen !== undefined) result.unknownWhen = pointers("unknownWhen", pricing.unknownWhen);
  if (pricing.formula !== undefined) result.formula = String(pricing.formula);
  return result;
}
