/**
 * Hooks an app adds to every call: `onRequest` before each attempt is sent (it may set headers),
 * `onResponse` once an attempt's answer is over (any status; its body read, or let go before a retry), `onError`
 * when an attempt ends without a usable answer. They see what a log line may: the URL with any
 * credential blanked, and the headers without the credentials' (which a hook cannot set either).
 */
import { InvalidRequestError } from "./errors.js";
import type { SdkError } from "./error-base.js";

/** One attempt of a call, as every hook sees it. */
export interface HookAttempt {
  /** The contract's operation id; undefined for a request the client did not build. */
  operationId: string | undefined;
  /** 1 for the first send, 2 for the first retry… */
  attempt: number;
  method: string;
  /** The request URL, credentials blanked. */
  url: string;
}

export interface HookRequest extends HookAttempt {
  /** The attempt's headers without the credentials': set or delete one to change what is sent. */
  headers: Headers;
}

export interface HookResponse extends HookAttempt {
  status: number;
  /** The response's headers (its body was read, or let go before a retry, before the hooks run). */
  headers: Headers;
  /** The service's id for the request, when its answer carries one (see `requestIdOf`). */
  requestId: string | undefined;
  /** From the attempt's send to its answer's headers, in milliseconds. */
  durationMs: number;
}

export interface HookFailure extends HookAttempt {
  /** The typed error of the attempt: a timeout, a dropped connection, an abort, a body too large. */
  error: SdkError;
  durationMs: number;
}

/** What an app runs around each attempt; any of the three may be left out, each may be async. */
export interface ClientHooks {
  onRequest?(request: HookRequest): void | Promise<void>;
  onResponse?(response: HookResponse): void | Promise<void>;
  onError?(failure: HookFailure): void | Promise<void>;
}

const HOOK_NAMES = ["onRequest", "onResponse", "onError"] as const;

/** The `hooks` option as a list; undefined when there are none, so a call can skip them at no cost. */
export function hookList(value: ClientHooks | readonly ClientHooks[] | undefined): readonly ClientHooks[] | undefined {
  const list = value === undefined ? [] : Array.isArray(value) ? (value as readonly ClientHooks[]) : [value as ClientHooks];
  return list.length === 0 ? undefined : list;
}

/** The `hooks` option checked when the client is made (a typo fails there, by its path), as a list. */
export function checkHooks(value: ClientHooks | readonly ClientHooks[] | undefined): readonly ClientHooks[] | undefined {
  const list = hookList(value) ?? [];
  list.forEach((hooks: unknown, index) => {
    const at = Array.isArray(value) ? `hooks[${index}]` : "hooks";
    if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) throw new InvalidRequestError(`${at} must be an object of onRequest, onResponse and onError functions`, { field: at });
    for (const name of HOOK_NAMES) {
      const hook = (hooks as Record<string, unknown>)[name];
      if (hook !== undefined && typeof hook !== "function") throw new InvalidRequestError(`${at}.${name} must be a function`, { field: `${at}.${name}` });
    }
  });
  return list.length === 0 ? undefined : list;
}
