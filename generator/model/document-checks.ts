/**
 * What the whole document must be for the emitters to read it: keys openapi-typescript can walk,
 * and a default dialect the validators implement.
 */
import { ACCEPTED_DIALECTS } from "../common/dialects.ts";
import { ContractError } from "../common/errors.ts";
import { pointer } from "../common/json-pointer.ts";

/**
 * Keys openapi-typescript cannot take: it walks the document with lookups that find
 * Object.prototype's methods (`valueOf`, `hasOwnProperty`…) and fails with a stack trace and no
 * location. `constructor`, `toString` and `__proto__` go through (the hostile fixture has them).
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype).filter((name) => !["constructor", "toString", "__proto__"].includes(name)));

/** Refuses, with its pointer, the first key of the document that openapi-typescript would fail on. */
function refusePrototypeKeys(value: unknown, at = ""): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) refusePrototypeKeys(value[index], `${at}/${index}`);
    return;
  }
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) {
      throw new ContractError(`${at}${pointer(key)}`, `the key "${key}" is named like a method of Object.prototype, which openapi-typescript (it emits the types) cannot process; only constructor, toString and __proto__ are supported`);
    }
    refusePrototypeKeys((value as Record<string, unknown>)[key], `${at}${pointer(key)}`);
  }
}

/** Refuses a document the emitters would misread, with its pointer. */
export function checkDocument(document: object): void {
  refusePrototypeKeys(document);
  // The validators implement 2020-12 (an older draft was rewritten into it): another default dialect would be misread.
  const dialect = (document as { jsonSchemaDialect?: unknown }).jsonSchemaDialect;
  if (dialect !== undefined && (typeof dialect !== "string" || !ACCEPTED_DIALECTS.has(dialect.replace(/#$/, "")))) {
    throw new ContractError("/jsonSchemaDialect", `${JSON.stringify(dialect)} is not JSON Schema 2020-12 (or the OpenAPI 3.1 dialect), the one the validators implement, nor a draft the generator reads as 2020-12 (2019-09, 07, 06, 04)`);
  }
}
