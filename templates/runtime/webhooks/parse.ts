/**
 * Reading a webhook's body: text, bytes or an already parsed value in; the value, checked by the
 * webhook's validator, out; else a WebhookError naming the webhook and the place that failed.
 * Synchronous and framework-agnostic: the caller reads the request, this judges what it read.
 */
import type { ValidationIssue } from "../validation.js";
import { WebhookError } from "./webhook-error.js";

/**
 * A webhook's body as a server has it: its text (a string is always read as JSON text), its
 * bytes (a Node `Buffer` is a `Uint8Array`; UTF-8), or the value a framework already parsed.
 */
export type WebhookBody = string | ArrayBuffer | ArrayBufferView | object | number | boolean | null;

/** What the package knows of one webhook: the validator of its body, if its contract gives the body a schema. */
export interface WebhookSpec {
  validate?: (value: unknown) => ValidationIssue[];
}

/** The spec of webhook `name`; a WebhookError when the package does not receive it (the name may come from a request's URL). */
export function webhookSpec(specs: Readonly<Record<string, WebhookSpec>>, name: string): WebhookSpec {
  const spec = typeof name === "string" && Object.hasOwn(specs, name) ? specs[name] : undefined;
  if (spec === undefined) throw new WebhookError({ webhook: String(name), reason: "unknown_webhook", problems: [], known: Object.keys(specs) });
  return spec;
}

/** The body of webhook `name`, parsed and checked; a WebhookError for an unknown name, a body that is not JSON or one that breaks the contract. */
export function parseWebhookBody(specs: Readonly<Record<string, WebhookSpec>>, name: string, body: WebhookBody): unknown {
  const spec = webhookSpec(specs, name);
  const value = valueOf(name, body);
  const issues = spec.validate?.(value) ?? [];
  if (issues.length > 0) {
    throw new WebhookError({
      webhook: name,
      reason: "invalid_body",
      problems: issues.map((issue) => ({ path: issue.path, message: issue.message, keyword: issue.keyword, schemaPath: issue.schemaPath })),
    });
  }
  return value;
}

function valueOf(name: string, body: WebhookBody): unknown {
  if (typeof body === "string") return parseJson(name, body);
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return parseJson(name, decodeUtf8(name, body));
  return body;
}

function decodeUtf8(name: string, bytes: ArrayBuffer | ArrayBufferView): string {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    // A leading byte order mark is dropped (ignoreBOM: false).
    return new TextDecoder("utf-8", { fatal: true }).decode(view);
  } catch {
    throw notJson(name, "its bytes are not UTF-8");
  }
}

function parseJson(name: string, text: string): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (json.trim() === "") throw notJson(name, "it is empty");
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    // The engine's message may quote the body: only the position is kept.
    const position = /at position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
    throw notJson(name, position === undefined ? "it does not parse" : `it does not parse at character ${position}`);
  }
}

function notJson(name: string, message: string): WebhookError {
  return new WebhookError({ webhook: name, reason: "not_json", problems: [{ path: "", message }] });
}
