/**
 * The diff and its classification: pairs of contracts in ./fixtures (base.yaml, and one file per
 * kind of change) classify as major, minor, patch or none, each change named by its JSON pointer.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadContract } from "../../../generator/load/contract.ts";
import { remove, scratch } from "../../../test/publish/support.ts";
import { compareContracts } from "../report.ts";
import { bumpVersion, classify } from "../semver.ts";

const fixtures = path.join(import.meta.dirname, "fixtures");
const scratchDirs: string[] = [];
afterAll(() => scratchDirs.forEach(remove));

async function compare(baseFile: string, headFile: string) {
  return compareContracts(await loadContract(path.join(fixtures, baseFile)), await loadContract(path.join(fixtures, headFile)));
}

/** Each pair: the kind, and the one change it must report (pointer and words of its message). */
const PAIRS: Array<[file: string, bump: "major" | "minor" | "patch", pointer: string, message: RegExp]> = [
  ["major-removed-operation", "major", "#/paths/~1pets/post", /removed operation `createPet`/],
  ["major-removed-property", "major", "#/components/schemas/Pet/properties/status", /removed property `status` \(output\)/],
  ["major-removed-enum-value", "major", "#/components/schemas/Pet/properties/status/enum", /removed enum value "sold"/],
  ["major-new-required-parameter", "major", "#/paths/~1pets/get/parameters/1", /new required query parameter `owner`/],
  ["major-new-required-property", "major", "#/components/schemas/NewPet/properties/birthDate", /new required property `birthDate` \(input\)/],
  ["major-narrowed-type", "major", "#/components/schemas/NewPet/properties/tag", /restricted to the values "dog", "cat", "bird" \(input\)/],
  ["major-narrowed-bounds", "major", "#/paths/~1pets/get/parameters/0/schema/maximum", /maximum changed: 100 → 50, narrower \(input\)/],
  ["major-type-changed", "major", "#/components/schemas/Pet/properties/id", /type changed from string to integer/],
  ["minor-new-operation", "minor", "#/paths/~1pets~1{id}/get", /new operation `getPet`/],
  ["minor-new-optional-property", "minor", "#/components/schemas/NewPet/properties/colour", /new optional property `colour` \(input\)/],
  ["minor-new-optional-parameter", "minor", "#/paths/~1pets/get/parameters/1", /new optional query parameter `tag`/],
  ["minor-new-enum-value-in-response", "minor", "#/components/schemas/Pet/properties/status/enum", /new enum value "pending" \(output\)/],
  ["minor-new-model-role", "minor", "#/paths/~1pets/get/x-model-endpoint-role", /`listPets` now has the model endpoint role health/],
  ["minor-new-response-field", "minor", "#/components/schemas/Pet/properties/createdAt", /new optional property `createdAt` \(output\)/],
  ["patch-documentation", "patch", "#/paths/~1pets/get/summary", /summary of `listPets` changed/],
];

describe("classifying a contract change", () => {
  it("finds nothing between a contract and itself", async () => {
    const report = await compare("base.yaml", "base.yaml");
    expect(report).toEqual({ classification: "none", changes: [], previousVersion: "1.4.2", nextVersion: "1.4.2" });
  });

  it("covers every fixture pair", () => {
    const files = fs.readdirSync(fixtures).filter((f) => f.endsWith(".yaml") && f !== "base.yaml").map((f) => f.replace(/\.yaml$/, "")).sort();
    expect(files).toEqual(PAIRS.map(([file]) => file).sort());
  });

  it.each(PAIRS)("%s is %s", async (file, bump, pointer, message) => {
    const report = await compare("base.yaml", `${file}.yaml`);
    expect(report.classification).toBe(bump);
    expect(report.nextVersion).toBe(bumpVersion("1.4.2", bump));
    const change = report.changes.find((c) => c.pointer === pointer);
    expect(change, JSON.stringify(report.changes, null, 2)).toBeDefined();
    expect(change!.message).toMatch(message);
    expect(change!.bump).toBe(bump);
    // One change of that kind, nothing hiding beside it.
    if (bump !== "patch") expect(report.changes.filter((c) => c.bump === bump)).toHaveLength(1);
  });

  it("takes the most severe of several changes, and names each", async () => {
    // From "createPet removed" to "getPet added": createPet comes back (minor), getPet is new (minor)...
    const back = await compare("major-removed-operation.yaml", "minor-new-operation.yaml");
    expect(back.classification).toBe("minor");
    expect(back.changes.map((c) => c.message)).toEqual(expect.arrayContaining([expect.stringMatching(/new operation `createPet`/), expect.stringMatching(/new operation `getPet`/)]));
    // ...and the other way round both are removed: major.
    const forth = await compare("minor-new-operation.yaml", "major-removed-operation.yaml");
    expect(forth.classification).toBe("major");
    expect(forth.changes.filter((c) => c.bump === "major").map((c) => c.pointer).sort()).toEqual(["#/paths/~1pets/post", "#/paths/~1pets~1{id}/get"]);
    expect(classify([{ bump: "patch", pointer: "#", message: "" }, { bump: "minor", pointer: "#", message: "" }])).toBe("minor");
  });

  it("reads direction: what is minor in a response is major in a request, and the reverse", async () => {
    // Removing an enum value of a request (NewPet.size) is major too; adding one there is minor.
    const dir = scratch("versions-", false);
    scratchDirs.push(dir);
    const base = fs.readFileSync(path.join(fixtures, "base.yaml"), "utf8");
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const b = await loadContract(write("base.yaml", base));
    const wider = await loadContract(write("wider.yaml", base.replace("enum: [small, large]", "enum: [small, large, huge]").replace("maximum: 100", "maximum: 500")));
    expect(compareContracts(b, wider).classification).toBe("minor");
    const optionalOutput = await loadContract(write("optional.yaml", base.replace("required: [id, name, status]", "required: [id, name]")));
    const report = compareContracts(b, optionalOutput);
    expect(report.classification).toBe("major");
    expect(report.changes[0]!.message).toMatch(/property `status` is now optional: it may be absent \(output\)/);
  });
});
