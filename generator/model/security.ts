/**
 * Authentication as the contract declares it: `components.securitySchemes` become the client's
 * credential options (named after what each scheme needs), and each operation's `security` (else
 * the document's) the alternatives the client tries in order. Schemes a client cannot use (an
 * apiKey in a cookie, mutual TLS, an HTTP scheme other than bearer and basic) are warned about and
 * ignored: a browser keeps its own cookies, and a request without them is the server's to refuse.
 */
import { ContractError } from "../common/errors.ts";
import { identifier } from "../common/escape.ts";
import { pointer } from "../common/json-pointer.ts";
import type { LoadedContract } from "../load/index.ts";
import type { Warnings } from "../common/warnings.ts";

/** How a scheme sends its credential: bearer covers oauth2 and openIdConnect (`token`), whose option may be a function. */
export type SecurityKind = "bearer" | "token" | "basic" | "header" | "query";

/** A client option holding a credential. */
export interface CredentialOption {
  /** Option name: `apiKey`, `username`, `password`, `accessToken` (suffixed when two schemes need the same). */
  name: string;
  /** Environment variable read when the option is not given. */
  envVar: string;
  /** What the credential is called in messages: `API key`, `access token`. */
  label: string;
}

export interface SecuritySchemeModel {
  /** Its key in `components.securitySchemes`. */
  name: string;
  kind: SecurityKind;
  /** The header or query parameter an apiKey scheme goes in. */
  parameter?: string;
  /** One option, or username then password for basic. */
  options: CredentialOption[];
  description?: string;
  pointer: string;
}

/** OpenAPI's security requirement: any one alternative (OR) whose schemes (AND) all have credentials; `[]` is public. */
export type SecurityRequirement = string[][];

export interface SecurityModel {
  /** The schemes some operation uses, in `components.securitySchemes` order. */
  schemes: SecuritySchemeModel[];
  /** The requirement operations share (the document's `security`, or every operation's own when all agree). */
  defaultRequirement: SecurityRequirement;
  /** Every operation needs `defaultRequirement`: the client refuses to be made without its credentials. */
  requiredEverywhere: boolean;
}

/** Options the client's base class already has: a credential option may not take their names. */
const CORE_OPTION_NAMES = ["fetch", "clock", "headers", "hooks", "timeoutMs", "maxRetries", "retryBaseDelayMs", "retryMaxDelayMs", "maxRetryAfterMs", "maxResponseBytes", "logger", "random", "userAgent", "validateRequests", "validateResponses", "servers", "credentials"];

interface OperationRef {
  pointer: string;
}

/**
 * Reads the schemes and, per operation (given by its pointer), its requirement with unusable
 * schemes left out. `apiKeyEnvVar` is the variable of the first `apiKey` option.
 */
export function readSecurity<T extends OperationRef>(
  contract: LoadedContract,
  operations: T[],
  options: { apiKeyEnvVar: string; takenOptions: string[]; warnings?: Warnings | undefined },
): { security: SecurityModel; operations: Array<T & { security: SecurityRequirement }> } {
  const declared = (contract.document.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const usable = new Map<string, Omit<SecuritySchemeModel, "options"> & { base: string[] }>();
  for (const [name, raw] of Object.entries(declared)) {
    const at = pointer("components", "securitySchemes", name);
    const { value: scheme, pointer: where } = contract.deref<any>(raw, at);
    const read = readScheme(name, scheme, where, options.warnings);
    if (read) usable.set(name, read);
  }

  const requirementOf = (value: unknown, at: string): SecurityRequirement | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw new ContractError(at, "security must be a list of security requirements");
    const alternatives: SecurityRequirement = [];
    value.forEach((requirement: unknown, index: number) => {
      if (typeof requirement !== "object" || requirement === null || Array.isArray(requirement)) throw new ContractError(`${at}/${index}`, "a security requirement must be an object");
      const names = Object.keys(requirement);
      for (const name of names) {
        // Unusable as an unknown kind of scheme is: the alternative is left out, below.
        if (!(name in declared)) options.warnings?.add(`security:undeclared:${name}`, `${at}/${index}${pointer(name)}`, `no security scheme "${name}" in components.securitySchemes: the client never satisfies a requirement naming it`);
      }
      // An alternative needing a scheme the client cannot send can never be satisfied by it.
      if (names.every((name) => usable.has(name))) alternatives.push(names);
    });
    // Every alternative needed an unusable scheme: sent without credentials, for the server to judge.
    return value.length > 0 && alternatives.length === 0 ? [] : alternatives;
  };

  const documentRequirement = requirementOf(contract.document.security, "/security") ?? [];
  const withSecurity = operations.map((operation) => {
    const own = requirementOf(contract.at<{ security?: unknown }>(operation.pointer)?.security, `${operation.pointer}/security`);
    return { ...operation, security: own ?? documentRequirement };
  });

  const keyOf = (requirement: SecurityRequirement) => JSON.stringify(requirement);
  const shared = withSecurity.length > 0 && withSecurity.every((o) => keyOf(o.security) === keyOf(withSecurity[0]!.security));
  const defaultRequirement = shared ? withSecurity[0]!.security : documentRequirement;
  const requiredEverywhere = shared && defaultRequirement.length > 0 && defaultRequirement.every((alternative) => alternative.length > 0);

  const used = new Set(withSecurity.flatMap((o) => o.security.flat()));
  const taken = new Set([...CORE_OPTION_NAMES, ...options.takenOptions]);
  const prefix = options.apiKeyEnvVar.replace(/_API_KEY$/, "");
  const schemes: SecuritySchemeModel[] = [];
  for (const [name, scheme] of usable) {
    if (!used.has(name)) continue;
    const { base, ...rest } = scheme;
    const credentialOptions = base.map((wanted): CredentialOption => {
      const option = taken.has(wanted) ? `${wanted}${identifier(name, { case: "pascal" })}` : wanted;
      if (taken.has(option)) throw new ContractError(scheme.pointer, `the option "${option}" for this scheme's credential is already taken; rename the scheme`);
      taken.add(option);
      const envVar = option === "apiKey" ? options.apiKeyEnvVar : `${prefix}_${option.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
      return { name: option, envVar, label: label(wanted, option === wanted ? undefined : name) };
    });
    schemes.push({ ...rest, options: credentialOptions });
  }
  return { security: { schemes, defaultRequirement, requiredEverywhere }, operations: withSecurity };
}

function label(option: string, scheme: string | undefined): string {
  const text = { apiKey: "API key", accessToken: "access token", username: "username", password: "password" }[option] ?? option;
  return scheme === undefined ? text : `${text} (${scheme})`;
}

/** One scheme, or undefined (with a warning) when the client cannot send it. */
function readScheme(name: string, scheme: any, at: string, warnings: Warnings | undefined): (Omit<SecuritySchemeModel, "options"> & { base: string[] }) | undefined {
  if (typeof scheme !== "object" || scheme === null) throw new ContractError(at, "a security scheme must be an object");
  const description = typeof scheme.description === "string" ? scheme.description : undefined;
  const common = { name, description, pointer: at };
  switch (scheme.type) {
    case "http": {
      const httpScheme = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : undefined;
      if (httpScheme === "bearer") return { ...common, kind: "bearer", base: ["apiKey"] };
      if (httpScheme === "basic") return { ...common, kind: "basic", base: ["username", "password"] };
      if (httpScheme === undefined) throw new ContractError(`${at}/scheme`, "an http security scheme needs a `scheme` (bearer, basic)");
      warnings?.add(`security:http-${httpScheme}`, `${at}/scheme`, `the HTTP authentication scheme "${httpScheme}" is not supported (only bearer and basic); operations needing only it are sent without credentials`);
      return undefined;
    }
    case "apiKey": {
      if (typeof scheme.name !== "string" || scheme.name === "") throw new ContractError(`${at}/name`, "an apiKey security scheme needs the `name` of its header or query parameter");
      if (scheme.in === "header") return { ...common, kind: "header", parameter: scheme.name, base: ["apiKey"] };
      if (scheme.in === "query") return { ...common, kind: "query", parameter: scheme.name, base: ["apiKey"] };
      if (scheme.in === "cookie") {
        warnings?.add("security:cookie", `${at}/in`, "an apiKey in a cookie is not sent by the client (browsers forbid setting Cookie; their own cookie jar sends it); operations needing only it are sent without credentials");
        return undefined;
      }
      throw new ContractError(`${at}/in`, `an apiKey security scheme is in "header", "query" or "cookie", not ${JSON.stringify(scheme.in)}`);
    }
    case "oauth2":
    case "openIdConnect":
      return { ...common, kind: "token", base: ["accessToken"] };
    case "mutualTLS":
      warnings?.add("security:mutualTLS", at, "mutual TLS is set up in the fetch implementation, not by the client; operations needing only it are sent without credentials");
      return undefined;
    default:
      throw new ContractError(`${at}/type`, `unknown security scheme type ${JSON.stringify(scheme.type)} (apiKey, http, oauth2, openIdConnect, mutualTLS)`);
  }
}
