/** The webhook receivers' runtime in one module, as the generated `src/webhooks.ts` imports it. */
export { parseWebhookBody, webhookSpec } from "./parse.js";
export type { WebhookBody, WebhookSpec } from "./parse.js";
export { WebhookError } from "./webhook-error.js";
export type { WebhookFailure, WebhookProblem } from "./webhook-error.js";
