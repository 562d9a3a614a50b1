/**
 * Pods as the real service sends them: test/fixtures/service/pods holds answers written from the
 * facts of the service's reference (../shared/guide/SERVICE-NOTES.md): a pod being provisioned, a
 * CPU pod, a pod with a network volume, a cluster member and a stopped pod. Each must validate
 * against the contract (ajv) and the generated validators, and the generated types must make the
 * fields that are null on such pods nullable, so that code reading them has to check first.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { isPod, validatePod } from "../../generated/gpu-cloud-client/src/validators.js";
import { contractValidator, loadContractDocument } from "../support/contract.ts";
import { repoRoot } from "../support/prism.ts";

const fixtures = path.join(repoRoot, "test/fixtures/service/pods");
const pods = fs
  .readdirSync(fixtures)
  .sort()
  .map((file) => ({ file, pod: JSON.parse(fs.readFileSync(path.join(fixtures, file), "utf8")) as Record<string, unknown> }));
const ajvPod = contractValidator()("#/components/schemas/Pod");

describe("real-shaped pods", () => {
  it("are the five kinds the reference describes", () => {
    expect(pods.map((p) => p.file)).toEqual(["cluster-member.json", "cpu.json", "network-volume.json", "provisioning.json", "stopped.json"]);
  });

  it.each(pods)("$file validates against the contract and the generated validators", ({ pod }) => {
    expect(ajvPod(pod), JSON.stringify(ajvPod.errors)).toBe(true);
    expect(validatePod(pod)).toEqual([]);
    expect(isPod(pod)).toBe(true);
  });

  it("takes a GPU pod's gpu without count (the reference's GpuConfig: 1 by default)", () => {
    const gpuPod = pods.find((p) => p.pod.gpu !== undefined)!.pod;
    const withoutCount = { ...gpuPod, gpu: { id: (gpuPod.gpu as { id: string }).id } };
    expect(ajvPod(withoutCount), JSON.stringify(ajvPod.errors)).toBe(true);
    expect(validatePod(withoutCount)).toEqual([]);
    expect(ajvPod({ ...gpuPod, gpu: { count: 1 } })).toBe(false);
  });

  it("types a pod's gpu as the reference's GpuConfig: an id and a count, nothing more", () => {
    const gpu = loadContractDocument().components.schemas.PodGpu;
    expect(Object.keys(gpu.properties).sort()).toEqual(["count", "id"]);
  });

  it.each(pods)("$file still fails where it breaks the contract", ({ pod }) => {
    for (const broken of [{ ...pod, runtime: "up" }, { ...pod, cudaVersion: 12.8 }, { ...pod, ssh: { proxy: null } }]) {
      expect(ajvPod(broken)).toBe(false);
      expect(validatePod(broken).length).toBeGreaterThan(0);
    }
  });

  it("are typed so that what a starting pod lacks must be checked before use", () => {
    const file = path.join(repoRoot, ".tmp/real-pods-types.ts");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        'import type { Pod } from "../generated/gpu-cloud-client/src/index.js";',
        "export function read(pod: Pod) {",
        "  const uptime: number = pod.runtime.uptime;",
        "  const direct: string = pod.ssh.direct.host;",
        "  const started: string = pod.startedAt;",
        "  const gpus: number = pod.gpu.count;",
        "  const checked: number | undefined = pod.runtime?.uptime;",
        "  return { uptime, direct, started, gpus, checked };",
        "}",
        "",
      ].join("\n"),
    );
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] });
    const found = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === file)
      .map((d) => `${d.file!.getLineAndCharacterOfPosition(d.start!).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    // Lines 3 and 6 get two each: runtime may be null and uptime absent (a provisioning pod's `{}`);
    // gpu may be absent (a CPU pod) and its count too (1 by default).
    expect(found).toHaveLength(6);
    expect(found).toEqual(
      expect.arrayContaining([
        "3: 'pod.runtime' is possibly 'null'.",
        expect.stringMatching(/^3: Type 'number \| undefined' is not assignable to type 'number'/),
        "4: 'pod.ssh.direct' is possibly 'null'.",
        expect.stringMatching(/^5: Type 'string \| null' is not assignable to type 'string'/),
        "6: 'pod.gpu' is possibly 'undefined'.",
        expect.stringMatching(/^6: Type 'number \| undefined' is not assignable to type 'number'/),
      ]),
    );
  }, 60_000);
});
