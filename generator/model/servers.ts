/**
 * The servers operations are served at, each a base-URL option of the client with its default
 * and the environment variable read when the option is not given.
 */
import { identifier } from "../common/escape.ts";
import { ContractError } from "../common/errors.ts";
import { pointer } from "../common/json-pointer.ts";
import type { ServerObject } from "../load/index.ts";
import type { ServerModel } from "./types.ts";

/** Distinct servers, keyed by URL template, each with an option name. */
export class ServerRegistry {
  readonly #byUrl = new Map<string, ServerModel>();
  readonly #usedKeys = new Set<string>();

  constructor(
    rootServers: ServerObject[],
    private readonly environmentPrefix: string,
  ) {
    rootServers.forEach((server, index) => this.register(server, pointer("servers", index)));
  }

  register(server: ServerObject, at: string): ServerModel {
    const existing = this.#byUrl.get(server.url);
    if (existing) return existing;
    const variables = server.variables ?? {};
    let defaultUrl = server.url;
    for (const name of server.url.match(/\{[^}]+\}/g) ?? []) {
      const variable = variables[name.slice(1, -1)];
      if (!variable || typeof variable.default !== "string") {
        throw new ContractError(at + pointer("variables", name.slice(1, -1)), `server variable ${name} has no default`);
      }
      defaultUrl = defaultUrl.replace(name, variable.default);
    }
    // A server that is a single variable is named after it (`{base_url}` → `baseUrl`).
    const onlyVariable = /^\{([^}]+)\}$/.exec(server.url)?.[1];
    let key = onlyVariable ? identifier(onlyVariable, { case: "camel" }) : this.#byUrl.size === 0 ? "baseUrl" : `server${this.#byUrl.size + 1}BaseUrl`;
    if (!/url$/i.test(key)) key = `${key}Url`;
    while (this.#usedKeys.has(key)) key = `${key}_`;
    this.#usedKeys.add(key);
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(defaultUrl);
    const envVar = `${this.environmentPrefix}_${key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
    const registered: ServerModel = { key, url: server.url, defaultUrl: defaultUrl.replace(/\/+$/, ""), description: server.description, envVar, relative };
    this.#byUrl.set(server.url, registered);
    return registered;
  }

  /** The document's first server or, when it names none, OpenAPI's default: `/`. */
  first(): ServerModel {
    return this.#byUrl.values().next().value ?? this.register({ url: "/" }, "");
  }

  list(): ServerModel[] {
    return [...this.#byUrl.values()];
  }
}
