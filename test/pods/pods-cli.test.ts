/**
 * The terminal command's `pods` and `gpus`: in-process through the command registry with the pod
 * calls bound as the generated `bin.ts` binds them, against the stateful fake on a simulated clock
 * (waits take no real time), then once as a real process through the generated `bin.ts`.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, POD_COST, POD_READINESS, createPodWithinBudget, waitForPod } from "../../generated/gpu-cloud-client/src/index.ts";
import * as operations from "../../generated/gpu-cloud-client/src/operations.ts";
import type { CreatePodParams } from "../../generated/gpu-cloud-client/src/client.ts";
import { EXIT, runCommands } from "../../generated/gpu-cloud-client/src/runtime/cli/commands.ts";
import { podCommands } from "../../generated/gpu-cloud-client/src/runtime/pod-budget/cli.ts";
import { contractValidator } from "../support/contract.ts";
import { FakeServiceServer } from "../support/fake-service.ts";
import { repoRoot } from "../support/prism.ts";
import { simulatedTime } from "../support/simulated-time.ts";

const KEY = "sk-pods-cli-secret-7f3a";
const time = simulatedTime();
const schema = contractValidator();
let fake: FakeServiceServer;

beforeAll(async () => {
  fake = await new FakeServiceServer({ now: time.now, pods: { provisioningMs: 20_000, startingMs: 10_000 } }).start();
});
afterAll(() => fake.stop());

function capture(isTTY = false) {
  const stream = { text: "", isTTY, write(chunk: string) { stream.text += chunk; return true; } };
  return stream;
}

/** Every output of the run, to prove the key reaches none. */
const outputs: string[] = [];

async function cli(args: string[], options: { key?: string | null; signal?: AbortSignal; tty?: boolean } = {}) {
  const stdout = capture(options.tty);
  const stderr = capture(options.tty);
  const environment = { name: "gpu-cloud-client", credentials: { apiKey: { env: "GPU_CLOUD_API_KEY", label: "API key" } }, stdout, stderr, signal: options.signal };
  const createClient = () => new GpuCloudClient({ apiKey: options.key === null ? undefined : (options.key ?? KEY), baseUrl: fake.baseUrl, publicEndpointBaseUrl: fake.baseUrl });
  const code = await runCommands(args, environment, [
    podCommands({
      ...environment,
      createClient,
      cost: POD_COST,
      readiness: POD_READINESS,
      now: time.now,
      sleep: time.sleep,
      // As the generated bin.ts binds them.
      calls: {
        listPods: (client, requestOptions) => operations.listPods(client, {}, requestOptions),
        getPod: (client, id, requestOptions) => operations.getPod(client, { path: { id } }, requestOptions),
        createPodWithinBudget: (client, body, requestOptions) => createPodWithinBudget(client, { body: body as CreatePodParams["body"] }, requestOptions),
        waitForPod: (client, id, waitOptions) => waitForPod(client, id, waitOptions),
        podAction: (client, id, action, requestOptions) => operations.podAction(client, { path: { id }, body: { action } }, requestOptions),
        listGpuTypes: (client, requestOptions) => operations.listGpuTypes(client, { query: { include: ["AVAILABILITY"], product: ["POD"] } }, requestOptions),
      },
    }),
  ]);
  outputs.push(stdout.text, stderr.text);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const POD = ["--set", "name=cli-pod", "--set", "image=example/app:2", "--set", "gpu.id=NVIDIA GeForce RTX 4090", "--set", "ports=[\"22/tcp\"]"];

/** Requests the fake saw since `from` that create a pod. */
function creates(from: number): number {
  return fake.log.slice(from).filter((entry) => entry.method === "POST" && entry.path === "/v2/pods").length;
}

function valid(pointer: string, value: unknown): void {
  const validate = schema(pointer);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
}

async function createdPod(name = "cli-pod"): Promise<string> {
  const result = await cli(["pods", "create", ...POD, "--set", `name=${name}`, "--max-cost-per-hour", "1"]);
  expect(result.code, result.stderr).toBe(EXIT.ok);
  return /^(\S+) PROVISIONING/.exec(result.stdout)![1]!;
}

describe("gpus", () => {
  it("lists every GPU type with its price per hour on each cloud and its stock, in aligned columns", async () => {
    const { code, stdout } = await cli(["gpus"]);
    expect(code).toBe(EXIT.ok);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^GPU TYPE +MEMORY +SECURE USD\/h +COMMUNITY USD\/h +STOCK$/);
    expect(lines[1]).toMatch(/^NVIDIA GeForce RTX 4090 +24 GB +0\.72 +0\.40 +HIGH$/);
    expect(lines[2]).toMatch(/^NVIDIA A40 +48 GB +0\.50 +0\.45 +LOW$/);
    expect(lines[3]).toMatch(/^NVIDIA H100 80GB HBM3 +80 GB +3\.10 +0\.00 +NONE$/);
    // Aligned: every column starts where its header does.
    for (const header of ["MEMORY", "SECURE USD/h", "COMMUNITY USD/h", "STOCK"]) {
      const at = lines[0]!.indexOf(header);
      for (const line of lines.slice(1)) expect(line[at - 1], `${header} in ${line}`).toBe(" ");
      for (const line of lines.slice(1)) expect(line[at], `${header} in ${line}`).not.toBe(" ");
    }
  });

  it("prints the catalog's answer with --json, which validates against the contract", async () => {
    const { code, stdout } = await cli(["gpus", "--json"]);
    expect(code).toBe(EXIT.ok);
    const parsed = JSON.parse(stdout);
    valid("#/components/schemas/GpuTypeList", parsed);
    expect(parsed.gpus[0]).toMatchObject({ id: "NVIDIA GeForce RTX 4090", price: { secure: 0.72 }, availability: "HIGH" });
  });
});

describe("pods create", () => {
  it("refuses without --max-cost-per-hour, before any request", async () => {
    const before = fake.log.length;
    const { code, stderr } = await cli(["pods", "create", ...POD]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/^gpu-cloud-client: pods create: --max-cost-per-hour USD is required/);
    expect(fake.log.length).toBe(before);
  });

  it("exits 4 over the cap, having read only the price: the fake sees no create", async () => {
    const before = fake.log.length;
    const { code, stderr } = await cli(["pods", "create", ...POD, "--set", "gpu.count=2", "--max-cost-per-hour", "1.2"]);
    expect(code).toBe(EXIT.costLimit);
    expect(stderr).toBe("gpu-cloud-client: estimated 1.44 USD per hour (2 × 0.72 for NVIDIA GeForce RTX 4090 on SECURE) exceeds --max-cost-per-hour 1.2; nothing was created\n");
    expect(creates(before)).toBe(0);
    expect(fake.log.slice(before).map((entry) => `${entry.method} ${entry.path}`)).toEqual(["GET /v2/catalog/gpus/NVIDIA%20GeForce%20RTX%204090"]);
  });

  it("exits 4 when the pod cannot be estimated (a CPU pod), and creates nothing", async () => {
    const before = fake.log.length;
    const { code, stderr } = await cli(["pods", "create", "--set", "name=cpu", "--set", "image=x", "--set", "cpu.flavor=cpu3c", "--max-cost-per-hour", "5"]);
    expect(code).toBe(EXIT.costLimit);
    expect(stderr).toContain("cannot be estimated (the pod names no GPU type)");
    expect(creates(before)).toBe(0);
  });

  it("creates a pod under the cap and says its estimate and how to wait for it", async () => {
    const before = fake.log.length;
    const { code, stdout } = await cli(["pods", "create", ...POD, "--set", "cloud=COMMUNITY", "--max-cost-per-hour", "0.5"]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^(pod\d+) PROVISIONING\nname: cli-pod\ngpus: 1 × NVIDIA GeForce RTX 4090\ncost: 0\.4 USD per hour\nestimated: 0\.4 USD per hour \(1 × NVIDIA GeForce RTX 4090 on COMMUNITY at 0\.4\)\nwait for it with: gpu-cloud-client pods wait \1\n$/);
    expect(creates(before)).toBe(1);
  });

  it("prints the pod and the estimate with --json; the pod validates", async () => {
    const { code, stdout } = await cli(["pods", "create", ...POD, "--max-cost-per-hour", "1", "--json"]);
    expect(code).toBe(EXIT.ok);
    const { pod, estimate } = JSON.parse(stdout);
    valid("#/components/schemas/Pod", pod);
    expect(estimate).toEqual({ gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 1, cloud: "SECURE", usdPerGpuHour: 0.72, usdPerHour: 0.72 });
  });

  it("waits for the pod with --wait", async () => {
    const { code, stdout } = await cli(["pods", "create", ...POD, "--max-cost-per-hour", "1", "--wait", "--interval", "10"]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/\n(pod\d+) RUNNING\nname: cli-pod\ngpus: 1 × NVIDIA GeForce RTX 4090\ncost: 0\.72 USD per hour\nports: 203\.0\.113\.7:\d+ -> 22\n$/);
  });

  it("refuses a body the contract does not accept, before sending it", async () => {
    const before = fake.log.length;
    const { code, stderr } = await cli(["pods", "create", ...POD, "--set", "disk=0", "--max-cost-per-hour", "1"]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe("gpu-cloud-client: createPod: 1 invalid field, nothing was sent:\n  body.disk: must be >= 1\n");
    expect(creates(before)).toBe(0);
  });
});

describe("pods wait", () => {
  it("waits on the simulated clock until the pod runs, progress on stderr", async () => {
    const id = await createdPod();
    const started = time.clock.now;
    const { code, stdout, stderr } = await cli(["pods", "wait", id, "--interval", "5"]);
    expect(code).toBe(EXIT.ok);
    expect(time.clock.now - started).toBe(30_000);
    expect(stdout).toMatch(new RegExp(`^${id} RUNNING\\n`));
    expect(stderr.split("\n")[0]).toBe(`${id}  PROVISIONING  1 read`);
    expect(stderr).toContain(`${id}  STARTING  `);
    expect(stderr).toContain(`${id}  RUNNING  ready  7 reads`);
  });

  it("prints the running pod with --json, which validates", async () => {
    const id = await createdPod();
    const { code, stdout, stderr } = await cli(["pods", "wait", id, "--json"]);
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe("");
    const pod = JSON.parse(stdout);
    valid("#/components/schemas/Pod", pod);
    expect(pod.status).toBe("RUNNING");
  });

  it("exits 5 when --timeout passes first, saying how to wait again", async () => {
    const id = await createdPod();
    const { code, stderr } = await cli(["pods", "wait", id, "--timeout", "12", "--interval", "5"]);
    expect(code).toBe(EXIT.waitTimeout);
    expect(stderr).toMatch(new RegExp(`gpu-cloud-client: timed out waiting for the pod after 12000 ms \\(last seen PROVISIONING\\)\\nthe pod goes on; wait again with: gpu-cloud-client pods wait ${id}\\n$`));
  });

  it("exits 130 when interrupted (Ctrl-C), saying how to wait again", async () => {
    const id = await createdPod();
    const controller = new AbortController();
    controller.abort();
    const { code, stderr } = await cli(["pods", "wait", id], { signal: controller.signal });
    expect(code).toBe(EXIT.interrupted);
    expect(stderr).toContain(`wait again with: gpu-cloud-client pods wait ${id}`);
  });

  it("shows one updating progress line on a terminal", async () => {
    const id = await createdPod();
    const { code, stderr } = await cli(["pods", "wait", id, "--interval", "10"], { tty: true });
    expect(code).toBe(EXIT.ok);
    expect(stderr.split("\r\x1b[2K").filter(Boolean)).toEqual([`${id}  PROVISIONING  1 read`, `${id}  PROVISIONING  2 reads`, `${id}  STARTING  3 reads`, `${id}  RUNNING  ready  4 reads\n`]);
  });

  it("exits 1 when the pod ends in a status it will not run from", async () => {
    const id = await createdPod("doomed");
    const { code, stderr } = await cli(["pods", "wait", id, "--interval", "5"]);
    expect(code).toBe(EXIT.jobFailed);
    expect(stderr).toContain("gpu-cloud-client: the pod is ERROR and will not run without an action");
  });
});

describe("pods list, get, start, stop, terminate", () => {
  it("lists pods in columns; --json validates", async () => {
    const id = await createdPod("listed");
    const { code, stdout } = await cli(["pods", "list"]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(new RegExp(`^${id} +listed +PROVISIONING +1 × NVIDIA GeForce RTX 4090 +0\\.72 USD/h$`, "m"));
    const json = await cli(["pods", "list", "--json"]);
    const parsed = JSON.parse(json.stdout);
    valid("#/components/schemas/PodList", parsed);
    expect(parsed.pods.map((pod: { id: string }) => pod.id)).toContain(id);
  });

  it("gets one pod; an unknown id is an API error (exit 3)", async () => {
    const id = await createdPod("got");
    const { code, stdout } = await cli(["pods", "get", id]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toBe(`${id} PROVISIONING\nname: got\ngpus: 1 × NVIDIA GeForce RTX 4090\ncost: 0.72 USD per hour\n`);
    valid("#/components/schemas/Pod", JSON.parse((await cli(["pods", "get", id, "--json"])).stdout));
    const missing = await cli(["pods", "get", "pod-none"]);
    expect(missing.code).toBe(EXIT.apiError);
    expect(missing.stderr).toMatch(/^gpu-cloud-client: .*404/);
  });

  it("stops and starts a pod; an action the pod does not take now exits 3", async () => {
    const id = await createdPod("cycled");
    const stopped = await cli(["pods", "stop", id]);
    expect(stopped.code).toBe(EXIT.ok);
    expect(stopped.stdout).toMatch(new RegExp(`^${id} EXITED\\n`));
    const again = await cli(["pods", "stop", id]);
    expect(again.code).toBe(EXIT.apiError);
    expect(again.stderr).toContain("409");
    const started = await cli(["pods", "start", id, "--json"]);
    expect(started.code).toBe(EXIT.ok);
    valid("#/components/schemas/Pod", JSON.parse(started.stdout));
    expect(JSON.parse(started.stdout).status).toBe("PROVISIONING");
  });

  it("terminates only with --yes: without it nothing is sent", async () => {
    const id = await createdPod("ended");
    const before = fake.log.length;
    const refused = await cli(["pods", "terminate", id]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toBe(`gpu-cloud-client: pods terminate: deletes pod ${id} and its disk; add --yes to do it\n`);
    expect(fake.log.length).toBe(before);
    const done = await cli(["pods", "terminate", id, "--yes"]);
    expect(done.code).toBe(EXIT.ok);
    expect(done.stdout).toBe(`${id} terminated\n`);
    expect(fake.log.slice(before).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([`POST /v2/pods/${id}/action 204`]);
    expect((await cli(["pods", "get", id])).code).toBe(EXIT.apiError);
  });
});

describe("mistakes and secrets", () => {
  it.each([
    [["pods"], /^gpu-cloud-client: pods: missing a subcommand/],
    [["pods", "launch"], /^gpu-cloud-client: pods: unknown subcommand "launch"/],
    [["pods", "get"], /^gpu-cloud-client: pods get: expected <pod-id>/],
    [["pods", "get", "a", "b"], /^gpu-cloud-client: pods get: expected <pod-id>/],
    [["pods", "create", ...POD, "--max-cost-per-hour", "cheap"], /^gpu-cloud-client: --max-cost-per-hour cheap: expected a positive number/],
    [["pods", "create", ...POD, "--max-cost-per-hour=-1"], /^gpu-cloud-client: --max-cost-per-hour -1: expected a positive number/],
    [["pods", "wait", "p", "--timeout", "0"], /^gpu-cloud-client: --timeout 0: expected a positive number/],
    [["pods", "list", "--yes"], /^gpu-cloud-client: --yes: not an option of pods list/],
    [["pods", "stop", "p", "--max-cost-per-hour", "1"], /^gpu-cloud-client: --max-cost-per-hour: not an option of pods stop/],
    [["pods", "get", "p", "--timeout", "5"], /^gpu-cloud-client: --timeout: not an option of pods get/],
    [["gpus", "--bogus"], /^gpu-cloud-client: unknown option '--bogus'/],
    [["gpus", "extra"], /^gpu-cloud-client: gpus: unexpected argument extra/],
  ])("exits 2 naming the problem, with the usage, before any request: %j", async (args, message) => {
    const before = fake.log.length;
    const { code, stderr } = await cli(args);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("\n\nusage:\n");
    expect(fake.log.length).toBe(before);
  });

  it("names the environment variable when there is no key", async () => {
    const { code, stderr } = await cli(["pods", "list"], { key: null });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe("gpu-cloud-client: no API key: set the GPU_CLOUD_API_KEY environment variable\n");
  });

  it("--help lists the pod commands, their options and exit codes", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(EXIT.ok);
    for (const command of ["pods list", "pods create", "pods get <pod-id>", "pods start <pod-id>", "pods stop <pod-id>", "pods terminate <pod-id> --yes", "pods wait <pod-id>", "gpus"]) {
      expect(stdout).toContain(`gpu-cloud-client ${command}`);
    }
    for (const option of ["--max-cost-per-hour USD", "--timeout SECONDS", "--interval SECONDS", "--json", "--input FILE.json", "--set KEY=VALUE"]) expect(stdout).toContain(option);
    expect(stdout).toContain("4 over --max-cost-per-hour, 5 wait timed out");
    // After a command too, the whole help.
    for (const args of [["pods", "--help"], ["pods", "create", "-h"], ["gpus", "--help"]]) {
      const help = await cli(args);
      expect(help.code).toBe(EXIT.ok);
      expect(help.stdout).toMatch(/^usage:\n {2}gpu-cloud-client --help \| --version\n {2}gpu-cloud-client pods list/);
    }
  });

  it("never prints the key", () => {
    expect(outputs.length).toBeGreaterThan(20);
    for (const text of outputs) expect(text).not.toContain(KEY);
  });
});

describe("the generated bin", () => {
  const bin = path.join(repoRoot, "generated/gpu-cloud-client/src/bin.ts");
  const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
  const run = promisify(execFile);

  it("runs gpus and pods as a real process, with the calls bound by the generator", async () => {
    const env = { ...process.env, GPU_CLOUD_API_KEY: KEY, GPU_CLOUD_BASE_URL: fake.baseUrl };
    const gpus = await run(tsx, [bin, "gpus", "--json"], { env });
    valid("#/components/schemas/GpuTypeList", JSON.parse(gpus.stdout));
    expect(JSON.parse(gpus.stdout).gpus[1].availability).toBe("LOW");
    const before = fake.log.length;
    const refused = await run(tsx, [bin, "pods", "create", ...POD, "--set", "gpu.count=8", "--max-cost-per-hour", "2"], { env }).catch((error: { code: number; stderr: string }) => error);
    expect((refused as { code: number }).code).toBe(EXIT.costLimit);
    expect(creates(before)).toBe(0);
    const help = await run(tsx, [bin, "--help"], { env });
    expect(help.stdout).toContain("gpu-cloud-client run <model>");
    expect(help.stdout).toContain("gpu-cloud-client pods create");
    for (const text of [gpus.stdout, gpus.stderr, (refused as { stderr: string }).stderr, help.stdout]) expect(text).not.toContain(KEY);
  });
});
