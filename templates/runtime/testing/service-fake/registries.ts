/**
 * Registry credentials and templates. Deleting a credential follows the contract's
 * `deleteRegistry`: refused (400) while a pod uses it; otherwise every template that named it gets
 * `registry: null`.
 */
import { isRecord, json, problem } from "./answers.js";

export interface FakeRegistry {
  id: string;
  name: string;
  /** Kept to show the fake never answers with them. */
  username: string;
  password: string;
}

const TEMPLATE_DEFAULTS = {
  args: "",
  disk: 20,
  mounts: {},
  ports: [] as string[],
  env: {},
  registry: null as string | null,
  serverless: false,
  public: false,
  category: "NVIDIA",
  startSsh: true,
  startJupyter: true,
  allowedCudaVersions: [] as string[],
};

export type FakeTemplate = typeof TEMPLATE_DEFAULTS & { id: string; name: string; image: string };

export class Registries {
  readonly registries = new Map<string, FakeRegistry>();
  readonly templates = new Map<string, FakeTemplate>();
  /** The pod that uses a credential, if any. */
  readonly #usedBy: (id: string) => string | undefined;
  #nextId = 1;

  constructor(usedBy: (id: string) => string | undefined) {
    this.#usedBy = usedBy;
  }

  handle(method: string, path: string, body: unknown, headers: Record<string, string>): Response | undefined {
    if (path === "/v2/registries" && method === "GET") return json(200, { registries: [...this.registries.values()].map(view) }, headers);
    if (path === "/v2/registries" && method === "POST") {
      if (!isRecord(body) || !nonEmpty(body["name"]) || !nonEmpty(body["username"]) || !nonEmpty(body["password"])) {
        return problem(400, "Bad Request", "a registry credential needs a name, a username and a password", headers);
      }
      const registry = { id: this.#id("reg"), name: body["name"], username: body["username"], password: body["password"] };
      this.registries.set(registry.id, registry);
      return json(201, view(registry), headers);
    }
    const one = /^\/v2\/registries\/([^/]+)$/.exec(path);
    if (one && one[1] !== "delegations" && (method === "GET" || method === "DELETE")) {
      const id = decodeURIComponent(one[1]!);
      const registry = this.registries.get(id);
      if (registry === undefined) return problem(404, "Not Found", "no registry credential with this id", headers);
      if (method === "GET") return json(200, view(registry), headers);
      const pod = this.#usedBy(id);
      if (pod !== undefined) return problem(400, "Bad Request", `registry credential ${id} is used by pod ${pod} and cannot be deleted`, headers);
      this.registries.delete(id);
      for (const template of this.templates.values()) if (template.registry === id) template.registry = null;
      return json(204, undefined, headers);
    }
    if (path === "/v2/templates" && method === "GET") return json(200, { templates: [...this.templates.values()] }, headers);
    if (path === "/v2/templates" && method === "POST") {
      if (!isRecord(body) || !nonEmpty(body["name"]) || typeof body["image"] !== "string") return problem(400, "Bad Request", "a template needs a name and an image", headers);
      const refused = this.#unknownRegistry(body, headers);
      if (refused) return refused;
      const template = { ...TEMPLATE_DEFAULTS, ...body, id: this.#id("tpl") } as FakeTemplate;
      this.templates.set(template.id, template);
      return json(201, template, headers);
    }
    const template = /^\/v2\/templates\/([^/]+)$/.exec(path);
    if (template) {
      const found = this.templates.get(decodeURIComponent(template[1]!));
      if (found === undefined) return problem(404, "Not Found", "no template with this id", headers);
      if (method === "GET") return json(200, found, headers);
      if (method === "PATCH") {
        if (!isRecord(body)) return problem(400, "Bad Request", "the body must be an object", headers);
        const refused = this.#unknownRegistry(body, headers);
        if (refused) return refused;
        Object.assign(found, body, { id: found.id });
        return json(200, found, headers);
      }
      if (method === "DELETE") {
        this.templates.delete(found.id);
        return json(204, undefined, headers);
      }
    }
    return undefined;
  }

  /** The refusal of a body naming a credential that does not exist, if it does. */
  #unknownRegistry(body: Record<string, unknown>, headers: Record<string, string>): Response | undefined {
    const id = body["registry"];
    if (id === undefined || id === null || (typeof id === "string" && this.registries.has(id))) return undefined;
    return problem(400, "Bad Request", "no registry credential with this id", headers);
  }

  #id(prefix: string): string {
    return `${prefix}${String(this.#nextId++).padStart(6, "0")}`;
  }
}

function view(registry: FakeRegistry): { id: string; name: string } {
  return { id: registry.id, name: registry.name };
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}
