/**
 * The webhook receivers' runtime (`templates/runtime/webhooks/`) directly: how a body is read in
 * each form a server may hold it, what a name lookup accepts, and what an error keeps. The
 * generated receivers on real contracts: test/generator/webhooks.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parseWebhookBody, webhookSpec, WebhookError, type WebhookSpec } from "../../templates/runtime/webhooks/index.ts";
import type { ValidationIssue } from "../../templates/runtime/validation.ts";

const issue = (path: string, message: string): ValidationIssue => ({ path, message, keyword: "type", schemaPath: "/components/schemas/Thing/type" });
const SPECS: Record<string, WebhookSpec> = {
  anything: {},
  thing: { validate: (value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? [] : [issue("", "must be an object")]) },
};

function refusal(run: () => unknown): WebhookError {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookError) return error;
    throw error;
  }
  throw new Error("expected a WebhookError");
}

describe("parseWebhookBody", () => {
  it("reads text and every byte form as UTF-8 JSON, and hands a parsed value back as it is", () => {
    const text = '{"a":"é"}';
    const bytes = new TextEncoder().encode(text);
    for (const body of [text, bytes, bytes.buffer, new DataView(bytes.buffer), new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])]) expect(parseWebhookBody(SPECS, "thing", body)).toEqual({ a: "é" });
    const parsed = { a: 1 };
    expect(parseWebhookBody(SPECS, "thing", parsed)).toBe(parsed);
    // Without a schema any JSON is a body, `null` and numbers included.
    expect(parseWebhookBody(SPECS, "anything", "null")).toBeNull();
    expect(parseWebhookBody(SPECS, "anything", 5)).toBe(5);
  });

  it("refuses with each problem of the validator, the first named in the message", () => {
    const error = refusal(() => parseWebhookBody(SPECS, "thing", "[1, 2]"));
    expect(error).toMatchObject({ kind: "invalid_webhook", reason: "invalid_body", webhook: "thing", field: "", problems: [issue("", "must be an object")] });
    expect(error.message).toBe('webhook "thing": the body does not match the contract: (body) must be an object');
    expect(error.toJSON()).toEqual({ name: "WebhookError", kind: "invalid_webhook", message: error.message, webhook: "thing", reason: "invalid_body", field: "", problems: error.problems });
  });

  it("finds a webhook by its own name only: not an Object.prototype member, not a non-string", () => {
    for (const name of ["toString", "__proto__", "constructor", "Thing"]) expect(refusal(() => webhookSpec(SPECS, name)).reason).toBe("unknown_webhook");
    expect(refusal(() => webhookSpec(SPECS, 42 as unknown as string)).message).toBe('unknown webhook "42"; this package receives "anything", "thing"');
    expect(webhookSpec(SPECS, "thing")).toBe(SPECS["thing"]);
  });
});
