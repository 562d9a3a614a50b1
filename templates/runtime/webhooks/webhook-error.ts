/**
 * The error a webhook receiver throws: which webhook, why, and where in the body. It never keeps
 * the body (a webhook may carry what the receiver must not log) and, like every error of the
 * package, blanks any live client's credentials (error-base.ts).
 */
import { SdkError, nameClass } from "../error-base.js";
import { redactRegisteredSecrets } from "../redact.js";

/** Why a webhook was refused: a name the package does not receive, a body that is not JSON, or one that breaks the contract. */
export type WebhookFailure = "unknown_webhook" | "not_json" | "invalid_body";

/** One way a body breaks the contract: the pointer into the body, and for a schema's rule its keyword and its pointer into the contract. */
export interface WebhookProblem {
  path: string;
  message: string;
  keyword?: string;
  schemaPath?: string;
}

/** The longest a webhook name is quoted in a message: an unknown one may come from a request's URL. */
const MAX_NAME_LENGTH = 100;

export class WebhookError extends SdkError {
  static {
    nameClass(this, "WebhookError");
  }

  /** The webhook's name as given (cut at 100 characters). */
  readonly webhook: string;
  readonly reason: WebhookFailure;
  /** JSON pointer into the body of the first problem ("" for the body as a whole). */
  readonly field: string;
  /** Every problem found, the first one first. */
  readonly problems: WebhookProblem[];

  constructor(init: { webhook: string; reason: WebhookFailure; problems: WebhookProblem[]; known?: readonly string[] }) {
    const webhook = init.webhook.length > MAX_NAME_LENGTH ? `${init.webhook.slice(0, MAX_NAME_LENGTH)}…` : init.webhook;
    // A body's field names become the paths: a sender may have echoed a key in one.
    const problems = init.problems.map((problem) => ({ ...problem, path: redactRegisteredSecrets(problem.path), message: redactRegisteredSecrets(problem.message) }));
    super("invalid_webhook", messageOf(webhook, init.reason, problems, init.known ?? []));
    this.webhook = webhook;
    this.reason = init.reason;
    this.field = problems[0]?.path ?? "";
    this.problems = problems;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), webhook: this.webhook, reason: this.reason, field: this.field, problems: this.problems };
  }
}

function messageOf(webhook: string, reason: WebhookFailure, problems: readonly WebhookProblem[], known: readonly string[]): string {
  const quoted = JSON.stringify(webhook);
  if (reason === "unknown_webhook") return `unknown webhook ${quoted}; this package receives ${known.map((name) => JSON.stringify(name)).join(", ") || "none"}`;
  const first = problems[0];
  const where = first === undefined ? "" : `${first.path === "" ? "(body)" : first.path} ${first.message}`;
  if (reason === "not_json") return `webhook ${quoted}: the body is not JSON: ${first?.message ?? "unreadable"}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return `webhook ${quoted}: the body does not match the contract: ${where}${more}`;
}
