/**
 * Every fault case, one file per kind of fault in cases/ (their parts in case-kit.ts). To add a
 * case, add a row to the file of its kind.
 */
import { CONNECTION_CASES } from "./cases/connections.ts";
import { EVENT_STREAM_CASES } from "./cases/event-streams.ts";
import { ECHOED_KEY_CASES } from "./cases/echoed-key.ts";
import { HEADER_AND_REDIRECT_CASES } from "./cases/headers-and-redirects.ts";
import { IDEMPOTENCY_KEY_CASES } from "./cases/idempotency-keys.ts";
import { LIMIT_AND_CANCELLATION_CASES } from "./cases/limits-and-cancellation.ts";
import { UNUSABLE_ANSWER_CASES } from "./cases/unusable-answers.ts";
import type { FaultCase } from "./case-kit.ts";

export { ECHOES, KEY, PAYMENTS, STREAMS, type CaseContext, type FaultCase } from "./case-kit.ts";

export const CASES: FaultCase[] = [...CONNECTION_CASES, ...HEADER_AND_REDIRECT_CASES, ...ECHOED_KEY_CASES, ...UNUSABLE_ANSWER_CASES, ...LIMIT_AND_CANCELLATION_CASES, ...EVENT_STREAM_CASES, ...IDEMPOTENCY_KEY_CASES];
