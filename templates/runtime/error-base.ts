/**
 * The base class of every error the client throws, the kinds that tell them apart, how each class
 * gets its name, and the one place that keeps credentials out of them all. The generated package
 * exports the base class under a name of its own (a client class `AcmeClient` exports it as
 * `AcmeError`): the brand comes from the contract.
 */
import { redactRegisteredSecrets } from "./redact.js";


export type ApiErrorKind =
  | "bad_request"
  | "authentication"
  | "permission_denied"
  | "not_found"
  | "conflict"
  | "unprocessable"
  | "rate_limit"
  | "server"
  | "unexpected_status"
  | "connection"
  | "timeout"
  | "aborted"
  | "invalid_request"
  | "invalid_response"
  | "response_too_large"
  | "job_failed"
  | "job_expired"
  | "cost_limit"
  | "pod_failed"
  | "download_failed"
  | "invalid_webhook";

/** The most of a body an error keeps (a raw body is read no further). */
export const MAX_RAW_BODY_BYTES = 64 * 1024;

/**
 * Names live on the prototype, set from string literals: class names do not
 * survive minifiers, and an own `name` property would clutter every inspection.
 * Every error class goes through here, so here its `toJSON` is made to blank credentials too.
 */
export function nameClass(errorClass: { prototype: Error }, name: string): void {
  Object.defineProperty(errorClass.prototype, "name", { value: name, writable: true, configurable: true });
  const own = Object.getOwnPropertyDescriptor(errorClass.prototype, "toJSON");
  if (typeof own?.value === "function") Object.defineProperty(errorClass.prototype, "toJSON", { ...own, value: redactingToJson(own.value as ToJson) });
}

type ToJson = (this: unknown, key?: string) => unknown;

/** How deep in `toJSON` calls this is: a subclass's calls its parent's, and only the outermost redacts. */
let serializing = 0;

/** `toJSON` giving its result with every live client's credentials blanked (strings and keys, at any depth). */
function redactingToJson(toJson: ToJson): ToJson {
  return function (this: unknown, key?: string): unknown {
    serializing += 1;
    try {
      const value = toJson.call(this, key);
      return serializing === 1 ? redactedCopy(value, new Map()) : value;
    } finally {
      serializing -= 1;
    }
  };
}

/**
 * A copy of `value` with every live client's credentials blanked out of its strings and field
 * names, at any depth: arrays, plain objects and errors (a cause) are copied; an SdkError inside
 * is left as it is (it blanks itself when shown); other objects (a Date) are kept. The data is
 * blanked before it is quoted: JSON and util.inspect escape a string again, in spellings of their own.
 */
function redactedCopy(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value === "string") return redactRegisteredSecrets(value);
  if (typeof value !== "object" || value === null || value instanceof SdkError) return value;
  if (copies.has(value)) return copies.get(value);
  if (value instanceof Error) return redactedError(value, copies);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(redactedCopy(item, copies));
    return copy;
  }
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const [name, item] of Object.entries(value)) copy[redactRegisteredSecrets(name)] = redactedCopy(item, copies);
  return copy;
}

/**
 * Replaces every own field of `error` (enumerable or not, `cause` included) with its blanked copy.
 * An error that keeps what a server sent (a job and its `error`, a window's name, a cause) calls
 * it last in its constructor: error reporters read own fields as they are, past toJSON and
 * util.inspect, so no field may hold a credential at all.
 */
export function blankOwnFields(error: SdkError): void {
  const copies = new Map<object, unknown>();
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor === undefined || !("value" in descriptor)) continue;
    Object.defineProperty(error, key, { ...descriptor, value: redactedCopy(descriptor.value, copies) });
  }
}

/** An error of the same class, with the same own fields (the stack and message too), blanked. */
function redactedError(error: Error, copies: Map<object, unknown>): Error {
  // A native error, so that util.inspect shows it as one; emptied, then given the original's fields.
  const copy = Object.setPrototypeOf(new Error(), Object.getPrototypeOf(error) as object) as Error;
  for (const key of Reflect.ownKeys(copy)) Reflect.deleteProperty(copy, key);
  copies.set(error, copy);
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    let value: unknown;
    try {
      value = "value" in descriptor ? descriptor.value : Reflect.get(error, key);
    } catch {
      continue;
    }
    Object.defineProperty(copy, key, { value: redactedCopy(value, copies), enumerable: descriptor.enumerable, writable: true, configurable: true });
  }
  return copy;
}

/** The copies being inspected (util.inspect): their own inspection, inside, is the default one. */
const inspecting = new WeakSet<object>();

/** Node's hook for util.inspect (and console.log); Deno and Bun honour it too. */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * Base class of every error this client throws. A server may echo a credential anywhere (a job's
 * `error`, a body's field names), so every live client's credentials are blanked, in any spelling
 * redact.ts knows, out of the message (and so the stack) when the error is made, out of `toJSON`
 * and out of `util.inspect` output (which shows every field and the `cause` chain).
 */
export class SdkError extends Error {
  static {
    nameClass(this, "SdkError");
    Object.defineProperty(this.prototype, INSPECT, {
      value: function inspect(this: SdkError, depth: number, options: object, inspectValue?: (value: unknown, options: object) => string): unknown {
        // Returning the error itself asks for the default inspection: that of a blanked copy.
        if (typeof inspectValue !== "function" || inspecting.has(this)) return this;
        const copy = redactedError(this, new Map());
        inspecting.add(copy);
        try {
          return inspectValue(copy, { ...options, depth });
        } finally {
          inspecting.delete(copy);
        }
      },
      writable: true,
      configurable: true,
    });
  }

  readonly kind: ApiErrorKind;

  constructor(kind: ApiErrorKind, message: string) {
    super(redactRegisteredSecrets(message));
    this.kind = kind;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}
