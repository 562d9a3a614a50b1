/**
 * The package README's Runtimes section: Deno's flags name every environment variable the client
 * reads and the hosts of the contract's servers (the plain flag where a server has no host of its
 * own), and an extension adds its own items (the model endpoints' file download, the command).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { environmentVariables } from "../../generator/emit/environment-variables.ts";
import { generateFiles } from "../../generator/generate.ts";
import { contractPath, repoRoot } from "../support/prism.ts";

const examples = path.join(repoRoot, "node_modules", "@readme", "oas-examples", "3.0", "json");

async function runtimesSection(spec: string) {
  const generated = await generateFiles({ spec });
  const readme = generated.files.find((file) => file.path === "README.md")!.contents;
  const section = /\n## Runtimes\n([\s\S]*?)\n## /.exec(readme)?.[1];
  return { generated, readme, section: section ?? "" };
}

describe("the README's Runtimes section", () => {
  it("for this contract: every variable and both servers' hosts for Deno, the command and the file download", async () => {
    const { generated, readme, section } = await runtimesSection(contractPath);
    expect(readme).toContain("- [Runtimes](#runtimes)");
    const variables = environmentVariables(generated.api).map((variable) => variable.name);
    expect(variables).toContain("GPU_CLOUD_API_KEY");
    expect(section).toContain(`\`--allow-env=${variables.join(",")}\``);
    const hosts = generated.api.servers.map((server) => new URL(server.defaultUrl).host);
    expect(hosts).toHaveLength(2);
    expect(section).toContain(`\`--allow-net=${hosts.join(",")}\``);
    expect(section).toContain("- The terminal command (`gpu-cloud-client`) is for Node.js.");
    expect(section).toMatch(/^- `download` to a file path needs Node\.js 20\.16 or later, Bun, or Deno with `--allow-write`/m);
  });

  it("for a document with one absolute server and no model endpoints (petstore): its host, no command, no download", async () => {
    const { section } = await runtimesSection(path.join(examples, "petstore.json"));
    expect(section).toContain("`--allow-net=petstore.swagger.io`");
    expect(section).not.toContain("terminal command");
    expect(section).not.toContain("`download`");
  });

  it("for a document without servers (callbacks): the plain --allow-net, since the URL is the caller's", async () => {
    const { section } = await runtimesSection(path.join(examples, "callbacks.json"));
    expect(section).toContain("Calls need `--allow-net`.");
    expect(section).not.toContain("--allow-net=");
  });
});
