/**
 * The service fake's section of the package README: what it fakes, and a vitest example of an
 * app's test against it (type-checked and run by test/testing-kit/readme-example.test.ts).
 */
import { stringLiteral } from "../../common/escape.ts";
import { RenderedMarkdown } from "../../emit/markdown.ts";
import { renderTemplate } from "../../emit/templates.ts";
import type { ApiModel } from "../../model/types.ts";
import type { ReadmeContribution } from "../output.ts";

export function readmeContribution(api: ApiModel): ReadmeContribution {
  const client = api.names.client;
  const example = [
    `import { describe, expect, it } from "vitest";`,
    `import { ${client} } from ${stringLiteral(api.packageName)};`,
    `import { TestClock, createServiceFake } from ${stringLiteral(`${api.packageName}/testing`)};`,
    "",
    `describe("my app against the fake service", () => {`,
    `  it("sees a new pod come up, on the test's clock", async () => {`,
    "    const clock = new TestClock({ autoAdvance: false });",
    "    const fake = createServiceFake({ now: () => clock.now() });",
    `    const client = new ${client}({ apiKey: "test-key", fetch: fake.fetch, clock });`,
    "    const { data: pod } = await client.createPod({",
    `      body: { name: "trainer", image: "example/trainer:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, cloud: "COMMUNITY" },`,
    "    });",
    `    expect(pod.status).toBe("PROVISIONING");`,
    "    await clock.advance(10 * 60_000);",
    `    expect((await client.getPod({ path: { id: pod.id } })).data.status).toBe("RUNNING");`,
    "  });",
    "});",
  ].join("\n");
  return {
    contents: [{ title: "A fake of the service", anchor: "a-fake-of-the-service" }],
    sections: new RenderedMarkdown(renderTemplate("service-fake/sections.md.hbs", { example, testingEntry: `${api.packageName}/testing` }).replace(/\n$/, "")),
    errors: undefined,
    exportRows: undefined,
    exampleImports: [],
    exampleLines: [],
  };
}
