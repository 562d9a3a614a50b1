/**
 * Authentication as the contract's security schemes say: the credentials a client holds (options,
 * else environment variables), checked once, and per operation the first alternative of its
 * `security` whose credentials are all given, turned into headers and query parameters.
 */
import { InvalidRequestError } from "./errors.js";
import { isCredentialHeader, isHeaderValue } from "./headers.js";
import { registerSecrets } from "./redact.js";

/** A token, or a function giving one (called before every request, e.g. to refresh it). */
export type AccessToken = string | (() => string | Promise<string>);

/** How a scheme sends its credential; `option` names the client option that holds it. */
export type SchemeSpec =
  | { kind: "bearer"; option: string }
  | { kind: "basic"; username: string; password: string }
  | { kind: "header" | "query"; name: string; option: string };

/** OpenAPI's security requirement: any one alternative (OR), each needing all its schemes (AND). */
export type SecurityAlternatives = readonly (readonly string[])[];

export interface AuthSpec {
  schemes: Readonly<Record<string, SchemeSpec>>;
  /** Per credential option: the environment variable read when it is not given, and what to call it. */
  credentials: Readonly<Record<string, { env: string; label: string }>>;
  /** The requirement of operations that carry none of their own. */
  security: SecurityAlternatives;
  /** Every operation needs `security`: a client without its credentials is refused when made. */
  required: boolean;
}

/** What one alternative adds to a request. */
export interface AppliedAuth {
  /** Fixed headers (credentials and `X-Client-Name`), set over any the caller gave. */
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>> | undefined;
  /** Token functions, called per request; each result is sent as `Authorization: Bearer`. */
  tokens: ReadonlyArray<{ option: string; get: () => string | Promise<string> }> | undefined;
  /**
   * A key goes in a header or the query: fetch drops only `Authorization` on a cross-origin
   * redirect, so such a request follows no redirect (it is answered as an error instead).
   */
  manualRedirect: boolean;
}

const MAX_TOKENS_KEPT = 8;

/** The shortest value of a caller's credential header kept for redaction, and the shortest part of one kept on its own. */
const MIN_VALUE_CHARS = 4;
const MIN_PART_CHARS = 8;

/**
 * The client's credentials and, per requirement, what a request carries. Held in private fields of
 * the client (never enumerated, stringified or inspected); `secrets` lists every form a credential
 * is sent in, for redaction.
 */
export class Authenticator {
  readonly #spec: AuthSpec | undefined;
  readonly #values: Record<string, string | (() => string | Promise<string>)> = {};
  readonly #extra: Record<string, string>;
  readonly #byRequirement = new WeakMap<SecurityAlternatives, AppliedAuth | InvalidRequestError>();
  readonly #default: AppliedAuth | InvalidRequestError;
  /** Mutated in place (tokens from functions join it), so configurations that share it see them. */
  readonly secrets: string[] = [];
  /** How many of `secrets` are the fixed credentials' (the rest: recent tokens). */
  #staticSecrets = 0;
  /**
   * Lowercased names of every header a scheme sets, and `authorization`: a caller's header of that
   * name is dropped. None when the contract declares no scheme: the caller's own credentials are sent.
   */
  readonly headerNames: ReadonlySet<string>;

  constructor(spec: AuthSpec | undefined, given: Readonly<Record<string, unknown>>, extraHeaders: Record<string, string>, readEnv: (name: string) => string | undefined) {
    this.#spec = spec;
    this.#extra = extraHeaders;
    // Errors made away from the transport (a job's failure, say) blank these too, for as long as the client lives.
    registerSecrets(this.secrets);
    for (const [option, { env }] of Object.entries(spec?.credentials ?? {})) {
      const value = given[option] ?? readEnv(env);
      if (value === undefined || value === "") continue;
      if (typeof value === "function") this.#values[option] = value as () => string | Promise<string>;
      else if (typeof value === "string") this.#values[option] = value;
      else throw new InvalidRequestError(`${option} must be a string`, { field: option });
    }
    const schemes = Object.values(spec?.schemes ?? {});
    const names = new Set(schemes.length > 0 ? ["authorization"] : []);
    for (const scheme of schemes) {
      this.#remember(scheme);
      if (scheme.kind === "header") names.add(scheme.name.toLowerCase());
    }
    this.headerNames = names;
    this.#default = this.#resolve(spec?.security ?? []);
    if (spec?.required && this.#default instanceof InvalidRequestError) throw this.#default;
  }

  /** What an operation's request carries; throws when no alternative has all its credentials. */
  applied(security: SecurityAlternatives | undefined, operationId: string): AppliedAuth {
    let found = security === undefined ? this.#default : this.#byRequirement.get(security);
    if (found === undefined) this.#byRequirement.set(security!, (found = this.#resolve(security!)));
    if (found instanceof InvalidRequestError) {
      throw new InvalidRequestError(`${operationId}: ${found.message} Nothing was sent.`, { field: found.field, problems: found.problems });
    }
    return found;
  }

  /** A token function's result, checked as a header value and kept for redaction. */
  async token({ option, get }: { option: string; get: () => string | Promise<string> }): Promise<string> {
    const token = await get();
    if (typeof token !== "string" || token === "" || !isHeaderValue(token)) {
      throw new InvalidRequestError(`${option} gave no token usable in an HTTP header`, { field: option });
    }
    this.rememberSecret(token);
    return token;
  }

  /** A credential sent other than by a scheme (a token, a secret in a body), kept for redaction among the recent ones. */
  rememberSecret(secret: string): void {
    if (this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    // Only recent ones can still be echoed; the static credentials come first and stay.
    if (this.secrets.length > this.#staticSecrets + MAX_TOKENS_KEPT) this.secrets.splice(this.#staticSecrets, 1);
  }

  /**
   * Keeps for redaction what a header the caller set may hold as a credential (isCredentialHeader):
   * its value, and the parts a server may echo alone (a token after its scheme word, a cookie's
   * value). `lasting`: the client's own headers, kept for as long as the client; others join the
   * recent ones, as tokens do.
   */
  rememberCallerHeader(name: string, value: string, lasting = false): void {
    if (value === "" || !isCredentialHeader(name)) return;
    const forms = [value];
    const token = /^[A-Za-z][\w.+-]*\s+(\S.*)$/.exec(value)?.[1];
    if (token !== undefined) forms.push(token);
    if (/cookie/i.test(name)) for (const pair of value.split(";")) {
      const equals = pair.indexOf("=");
      if (equals > 0) forms.push(pair.slice(equals + 1).trim());
    }
    // A short value (a cookie's `1`) would blank ordinary text in every error: chosen by name, not declared, so kept only when long enough to be one.
    for (const form of forms.filter((form, index) => form.length >= (index === 0 ? MIN_VALUE_CHARS : MIN_PART_CHARS))) {
      if (!lasting) this.rememberSecret(form);
      else if (!this.secrets.includes(form)) this.secrets.splice(this.#staticSecrets++, 0, form);
    }
  }

  /** Records the forms a scheme's credential is sent in, and refuses one no header can carry. */
  #remember(scheme: SchemeSpec): void {
    const add = (secret: string) => {
      if (!this.secrets.includes(secret)) this.secrets.push(secret);
    };
    if (scheme.kind === "basic") {
      const username = this.#values[scheme.username];
      const password = this.#values[scheme.password];
      if (typeof password === "string") add(password);
      if (typeof username === "string" && typeof password === "string") {
        add(`${username}:${password}`);
        add(basicToken(username, password, scheme.username));
      }
    } else {
      const value = this.#values[scheme.option];
      if (typeof value !== "string") return;
      // The platform's message would quote the invalid value, which here is the secret.
      if (scheme.kind !== "query" && !isHeaderValue(value)) {
        throw new InvalidRequestError(`${scheme.option} contains characters that are not allowed in an HTTP header`, { field: scheme.option });
      }
      add(value);
    }
    this.#staticSecrets = this.secrets.length;
  }

  /** The first alternative whose credentials are all given; an empty one (`{}`) only when none is. */
  #resolve(security: SecurityAlternatives): AppliedAuth | InvalidRequestError {
    if (security.length === 0) return { headers: this.#extra, query: undefined, tokens: undefined, manualRedirect: false };
    let anonymous = false;
    for (const alternative of security) {
      if (alternative.length === 0) anonymous = true;
      else if (alternative.every((name) => this.#missing(name).length === 0)) return this.#apply(alternative);
    }
    if (anonymous) return { headers: this.#extra, query: undefined, tokens: undefined, manualRedirect: false };
    return this.#missingError(security[0]!);
  }

  #missing(name: string): string[] {
    const scheme = this.#spec?.schemes[name];
    if (scheme === undefined) return [];
    const options = scheme.kind === "basic" ? [scheme.username, scheme.password] : [scheme.option];
    return options.filter((option) => this.#values[option] === undefined);
  }

  #apply(alternative: readonly string[]): AppliedAuth {
    const headers: Record<string, string> = { ...this.#extra };
    let query: Record<string, string> | undefined;
    let tokens: Array<{ option: string; get: () => string | Promise<string> }> | undefined;
    let manualRedirect = false;
    for (const name of alternative) {
      const scheme = this.#spec!.schemes[name]!;
      if (scheme.kind === "basic") {
        headers["Authorization"] = `Basic ${basicToken(this.#values[scheme.username] as string, this.#values[scheme.password] as string, scheme.username)}`;
        continue;
      }
      const value = this.#values[scheme.option]!;
      if (typeof value === "function") (tokens ??= []).push({ option: scheme.option, get: value });
      else if (scheme.kind === "bearer") headers["Authorization"] = `Bearer ${value}`;
      else if (scheme.kind === "header") headers[scheme.name] = value;
      else (query ??= {})[scheme.name] = value;
      if (scheme.kind === "header" || scheme.kind === "query") manualRedirect = true;
    }
    return { headers, query, tokens, manualRedirect };
  }

  #missingError(alternative: readonly string[]): InvalidRequestError {
    const missing = alternative.flatMap((name) => this.#missing(name));
    const credentials = this.#spec!.credentials;
    const labels = missing.map((option) => credentials[option]!.label);
    const envs = missing.map((option) => credentials[option]!.env);
    const message = `No ${labels.join(" and ")}: pass { ${missing.join(", ")} } or set the ${envs.join(" and ")} environment variable${envs.length > 1 ? "s" : ""}.`;
    return new InvalidRequestError(message, { field: missing[0]!, problems: missing.map((path) => ({ path, message, keyword: "required" })) });
  }
}

/** `user:password` in base64 (UTF-8), refused when the username holds a colon (the server would split there). */
function basicToken(username: string, password: string, option: string): string {
  if (username.includes(":")) throw new InvalidRequestError(`${option} must not contain ":" (basic authentication splits there)`, { field: option });
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
