/**
 * The client's credentials as the contract's security schemes give them: the options each scheme
 * takes, their docs, and the `AUTH` constant the runtime reads (schemes, where each credential
 * comes from, the requirement operations share).
 */
import type { CredentialOption, SecurityModel, SecurityRequirement, SecuritySchemeModel } from "../model/index.ts";
import { code, join, raw, type Block, type Code } from "./code.ts";
import { constant, valueKey } from "./typescript.ts";

export interface CredentialOptionSpec {
  scheme: SecuritySchemeModel;
  option: CredentialOption;
  type: Code;
  doc: string;
}

/** Every scheme's options, in scheme order. */
export function credentialOptions(security: SecurityModel): CredentialOptionSpec[] {
  return security.schemes.flatMap((scheme) =>
    scheme.options.map((option) => ({
      scheme,
      option,
      type: raw(scheme.kind === "token" ? "AccessToken | undefined" : "string | undefined"),
      doc: credentialDoc(scheme, option),
    })),
  );
}

/** The options interface's doc: where credentials come from, or that none is needed. */
export function credentialsDoc(className: string, security: SecurityModel): string {
  const variables = security.schemes.flatMap((s) => s.options.map((o) => `\`${o.name}\` (or \`${o.envVar}\`)`));
  if (variables.length === 0) return `Options of {@link ${className}}. The API needs no credentials.`;
  return `Options of {@link ${className}}. Credentials: ${variables.join(", ")}.`;
}

/** What one credential option is for, from its scheme. */
function credentialDoc(scheme: SecuritySchemeModel, option: CredentialOption): string {
  const how = {
    bearer: "sent as `Authorization: Bearer`",
    token: "sent as `Authorization: Bearer`; a function is called before every request (to refresh it)",
    basic: "sent with the other as `Authorization: Basic`",
    header: `sent in the \`${scheme.parameter}\` header`,
    query: `sent as the \`${scheme.parameter}\` query parameter`,
  }[scheme.kind];
  const description = scheme.description?.trim();
  return `The ${option.label} of the \`${scheme.name}\` security scheme, ${how}. Default: the \`${option.envVar}\` environment variable.${description ? `\n\n${description}` : ""}`;
}

/** `const AUTH = { schemes, credentials, security, required } as const satisfies AuthSpec;` */
export function authConstant(security: SecurityModel): Block {
  const schemes = security.schemes.map((scheme) => {
    const [first, second] = scheme.options;
    const body =
      scheme.kind === "basic"
        ? code`kind: "basic", username: ${first!.name}, password: ${second!.name}`
        : scheme.kind === "header" || scheme.kind === "query"
          ? code`kind: ${scheme.kind}, name: ${scheme.parameter!}, option: ${first!.name}`
          : code`kind: "bearer", option: ${first!.name}`;
    return code`${valueKey(scheme.name)}: { ${body} }`;
  });
  const value = code`{ schemes: { ${join(schemes, ", ")} }, credentials: ${credentialSources(security)}, security: ${requirementLiteral(security.defaultRequirement)}, required: ${raw(String(security.requiredEverywhere))} } as const satisfies AuthSpec`;
  return constant("The contract's security schemes, where each credential comes from, and the requirement operations share.", "AUTH", value, { exported: false });
}

/** `{ apiKey: { env: "X_API_KEY", label: "API key" } }`: each credential option, the variable it is read from, what it is called. */
export function credentialSources(security: SecurityModel): Code {
  return code`{ ${join(security.schemes.flatMap((s) => s.options).map((o) => code`${valueKey(o.name)}: { env: ${o.envVar}, label: ${o.label} }`), ", ")} }`;
}

/** `[["a", "b"], ["c"]]`: alternatives of scheme names. */
export function requirementLiteral(requirement: SecurityRequirement): Code {
  return code`[${join(requirement.map((alternative) => code`[${join(alternative.map((name) => code`${name}`), ", ")}]`), ", ")}]`;
}
