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

/**
 * What OpenAPI 3.2 adds that the client cannot do yet, refused rather than dropped: a base URI of
 * the document's own (`$self`, which changes what its references mean) and operations on methods
 * other than the eight of 3.1 (`query`, `additionalOperations`). The rest of 3.2 reads as 3.1 does,
 * `itemSchema` of an event stream included (the server-sent-events extension).
 */
function refuseUnsupported32(document: Record<string, unknown>): void {
  if (document["$self"] !== undefined) throw new ContractError("/$self", "$self (OpenAPI 3.2) is not supported: references are resolved against the document's own location");
  const paths = document["paths"];
  if (typeof paths !== "object" || paths === null) return;
  for (const [path, item] of Object.entries(paths)) {
    for (const key of ["query", "additionalOperations"]) {
      if (typeof item === "object" && item !== null && key in item) {
        throw new ContractError(pointer("paths", path, key), `${key} (OpenAPI 3.2) is not supported: the client has methods for GET, PUT, POST, DELETE, OPTIONS, HEAD and PATCH only`);
      }
    }
  }
}

/** Refuses a document the emitters would misread, with its pointer. */
export function checkDocument(document: object): void {
  refusePrototypeKeys(document);
  refuseUnsupported32(document as Record<string, unknown>);
  // The validators implement 2020-12 (an older draft was rewritten into it): another default dialect would be misread.
  const dialect = (document as { jsonSchemaDialect?: unknown }).jsonSchemaDialect;
  if (dialect !== undefined && (typeof dialect !== "string" || !ACCEPTED_DIALECTS.has(dialect.replace(/#$/, "")))) {
    throw new ContractError("/jsonSchemaDialect", `${JSON.stringify(dialect)} is not JSON Schema 2020-12 (or the OpenAPI 3.1 dialect), the one the validators implement, nor a draft the generator reads as 2020-12 (2019-09, 07, 06, 04)`);
  }
}
