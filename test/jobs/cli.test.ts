/**
 * The package's terminal command: once as a real process (as a user runs it), then in-process
 * through `main` for every path, against the stateful fake of the model endpoints.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, MODEL_CATALOG, validateModelInput } from "../../generated/gpu-cloud-client/src/index.ts";
import { EXIT, main } from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/cli.ts";
import { FakeServiceServer } from "../support/fake-service.ts";
import { startRecordingServer } from "../support/recording-server.ts";
import { repoRoot } from "../support/prism.ts";

const run = promisify(execFile);
let fake: FakeServiceServer;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cli-"));

beforeAll(async () => {
  fake = await new FakeServiceServer({
    plan: (input) => ({ queuedPolls: input.prompt === "long" ? 100_000 : 1, runningPolls: 1, outcome: input.prompt === "fail" ? "FAILED" : "COMPLETED" }),
  }).start();
});
afterAll(async () => {
  await fake.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function capture(isTTY = false) {
  const stream = { text: "", isTTY, write(chunk: string) { stream.text += chunk; return true; } };
  return stream;
}

async function cli(args: string[], options: { tty?: boolean; key?: string | null } = {}) {
  const stdout = capture(options.tty);
  const stderr = capture(options.tty);
  const code = await main(args, {
    name: "gpu-cloud-client",
    credentials: { apiKey: { env: "GPU_CLOUD_API_KEY", label: "API key" } },
    createClient: () =>
      new GpuCloudClient({ apiKey: options.key === null ? undefined : (options.key ?? "cli-key"), publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl }),
    catalog: MODEL_CATALOG,
    validateInput: validateModelInput,
    stdout,
    stderr,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const VIDEO_ARGS = ["--set", "prompt=a fox in the snow", "--set", "image=https://images.example.org/fox.jpg"];

describe("the gpu-cloud-client command", () => {
  it("runs as a real process: run --wait prints the URL and the cost, progress on plain lines", async () => {
    const bin = path.join(repoRoot, "generated/gpu-cloud-client/src/bin.ts");
    const { stdout, stderr } = await run(path.join(repoRoot, "node_modules/.bin/tsx"), [bin, "run", "wan-2-6-i2v", ...VIDEO_ARGS, "--set", "duration=10", "--wait", "--interval", "0.05"], {
      env: { ...process.env, GPU_CLOUD_API_KEY: "cli-key", GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL: fake.baseUrl },
    });
    expect(stdout).toMatch(/^job-\d+ COMPLETED\nurl: https:\/\/files\.fake\.test\/job-\d+\.mp4\nworks until at least: \S+\ncost: 1\.00 USD\n$/);
    expect(stderr).toMatch(/job-\d+ {2}IN_QUEUE {2}\d+\.\d s {2}1 poll\n/);
    expect(stderr).not.toContain("\r");
  });

  it("exits 0 and prints the job as JSON with --json", async () => {
    const result = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--wait", "--interval", "0.01", "--json"]);
    expect(result.code).toBe(EXIT.ok);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ status: "COMPLETED", costUsd: 0.5, url: expect.stringMatching(/\.mp4$/) });
    expect(result.stderr).toBe("");
  });

  it("shows one updating progress line on a terminal", async () => {
    const result = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--sync", "--interval", "0.01"], { tty: true });
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toContain("\r\x1b[2K");
  });

  it("reads the input from a file, submits without waiting, and answers status", async () => {
    const file = path.join(scratch, "input.json");
    fs.writeFileSync(file, JSON.stringify({ prompt: "from a file", image: "https://images.example.org/f.jpg" }));
    const submitted = await cli(["run", "wan-2-6-i2v", "--input", file]);
    expect(submitted.code).toBe(EXIT.ok);
    const id = /^(job-\d+) IN_QUEUE/.exec(submitted.stdout)![1]!;
    expect(submitted.stdout).toContain(`gpu-cloud-client wait wan-2-6-i2v ${id}`);
    const status = await cli(["status", "wan-2-6-i2v", id]);
    expect(status.stdout).toBe(`${id} IN_QUEUE\n`);
    const waited = await cli(["wait", "wan-2-6-i2v", id, "--interval", "0.01"]);
    expect(waited.stdout).toContain(`${id} COMPLETED`);
  });

  it("estimates the cost with the contract's pricing and defaults", async () => {
    expect((await cli(["estimate", "wan-2-6-i2v", "--set", "duration=10", "--set", "size=1920*1080"])).stdout).toBe("wan-2-6-i2v: 1.50 USD\n");
    expect((await cli(["estimate", "black-forest-labs-flux-1-dev", "--set", "prompt=x", "--json"])).stdout).toContain("0.020972");
    expect((await cli(["estimate", "some-unlisted-model", "--set", "prompt=x", "--any-model"])).stdout).toContain("cannot be estimated");
  });

  it("exits 4 before any request when the estimate is over --max-cost", async () => {
    const before = fake.log.length;
    const result = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--set", "duration=15", "--set", "size=1920*1080", "--wait", "--max-cost", "2"]);
    expect(result.code).toBe(EXIT.costLimit);
    expect(result.stderr).toContain("2.25 USD exceeds --max-cost 2.00 USD");
    expect(fake.log.length).toBe(before);
  });

  it("exits 1 naming the job when it fails", async () => {
    const result = await cli(["run", "wan-2-6-i2v", "--set", "prompt=fail", "--set", "image=https://images.example.org/x.jpg", "--wait", "--interval", "0.01"]);
    expect(result.code).toBe(EXIT.jobFailed);
    expect(result.stderr).toMatch(/job job-\d+ on wan-2-6-i2v ended FAILED: job ended FAILED/);
  });

  it.each([
    [["launch"], /unknown command "launch"/],
    [["run"], /run: missing <model>/],
    [["run", "wan-2-6-i2v", "--set", "novalue"], /--set novalue: expected KEY=VALUE/],
    [["run", "wan-2-6-i2v", "--input", "/nonexistent/in.json"], /--input \/nonexistent\/in\.json: no such file/],
    [["run", "wan-2-6-i2v", "--max-cost", "cheap"], /--max-cost cheap: expected a positive number/],
    [["run", "wan-2-6-i2v", "--bogus"], /^gpu-cloud-client: unknown option '--bogus'\n\nusage:/],
  ])("exits 2 with a message naming the problem: %j", async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toMatch(message);
  });

  it("exits 2 naming each bad field of the input, before any request", async () => {
    const before = fake.log.length;
    const result = await cli(["run", "wan-2-6-i2v", "--set", "prompt=p", "--set", "duration=7", "--set", "size=4k", "--wait"]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain("input.duration: must be one of 5, 10, 15");
    expect(result.stderr).toContain('input.size: must be one of "1280*720", "1920*1080"');
    expect(result.stderr).toContain('input: must have required property "image"');
    expect(fake.log.length).toBe(before);
  });

  it("exits 2 naming the environment variable when there is no key", async () => {
    const previous = process.env.GPU_CLOUD_API_KEY;
    delete process.env.GPU_CLOUD_API_KEY;
    try {
      const result = await cli(["status", "wan-2-6-i2v", "job-1"], { key: null });
      expect(result.code).toBe(EXIT.usage);
      expect(result.stderr).toBe("gpu-cloud-client: no API key: set the GPU_CLOUD_API_KEY environment variable\n");
    } finally {
      if (previous !== undefined) process.env.GPU_CLOUD_API_KEY = previous;
    }
  });

  it("exits 3 on an API error, without the key in the message", async () => {
    const result = await cli(["status", "wan-2-6-i2v", "no-such-job"], { key: "sk-secret-cli-key" });
    expect(result.code).toBe(EXIT.apiError);
    expect(result.stderr).toContain("404");
    expect(result.stderr).not.toContain("sk-secret-cli-key");
  });

  it("prints the usage for --help or -h after a command, and the version for --version", async () => {
    for (const args of [["run", "--help"], ["status", "-h"], ["wait", "wan-2-6-i2v", "job-1", "--help"]]) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(EXIT.ok);
      expect(result.stdout).toMatch(/^usage:\n/);
    }
    const stdout = capture();
    const code = await main(["--version"], { name: "gpu-cloud-client", version: "2.0.0", credentials: { apiKey: { env: "K", label: "API key" } }, createClient: () => { throw new Error("no client needed"); }, catalog: MODEL_CATALOG, stdout, stderr: capture() });
    expect([code, stdout.text]).toEqual([EXIT.ok, "2.0.0\n"]);
  });

  it("with --cancel-on-abort, Ctrl-C cancels the job and says so (a real process, a real SIGINT)", async () => {
    const bin = path.join(repoRoot, "generated/gpu-cloud-client/src/bin.ts");
    // Node runs the command itself, tsx only as its loader: tsx's own launcher relays Ctrl-C to the command and kills it
    // unless it acknowledges within 30 ms, which a loaded machine can miss (the exit code is then 130 without a cancel).
    const child = spawn(process.execPath, ["--import", "tsx", bin, "run", "wan-2-6-i2v", "--set", "prompt=long", "--set", "image=https://images.example.org/fox.jpg", "--wait", "--cancel-on-abort", "--interval", "0.05"], {
      cwd: repoRoot,
      env: { ...process.env, GPU_CLOUD_API_KEY: "cli-key", GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL: fake.baseUrl },
    });
    let stderr = "";
    const polled = new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/2 polls/.test(stderr)) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // A command that exits before polling fails below, with what it printed.
    await Promise.race([polled, exited]);
    child.kill("SIGINT");
    expect(await exited, stderr).toBe(EXIT.interrupted);
    const jobId = /(job-\d+)/.exec(stderr)![1]!;
    expect(fake.jobs.get(jobId)?.cancelled).toBe(true);
    expect(stderr).toContain(`cancelled ${jobId}`);
    expect(stderr).toContain("the job was cancelled: it stops billing");
    expect(stderr).not.toContain("follow it with");
  });

  it("refuses --cancel-on-abort without a wait, before any request", async () => {
    const before = fake.log.length;
    const { code, stderr } = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--cancel-on-abort"]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain("--cancel-on-abort: only with --wait or --sync of run");
    expect(fake.log.length).toBe(before);
    // Refused before the key is looked for, and on the commands that do not cancel.
    expect((await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--cancel-on-abort"], { key: null })).stderr).toContain("--cancel-on-abort: only");
    expect((await cli(["wait", "wan-2-6-i2v", "job-1", "--cancel-on-abort"])).code).toBe(EXIT.usage);
  });

  it("cancels, retries and streams a job by its id", async () => {
    const queued = await cli(["run", "wan-2-6-i2v", "--set", "prompt=long", "--set", "image=https://images.example.org/fox.jpg"]);
    const longId = /^(job-\d+) IN_QUEUE/.exec(queued.stdout)![1]!;
    const cancelled = await cli(["cancel", "wan-2-6-i2v", longId]);
    expect(cancelled).toMatchObject({ code: EXIT.ok, stdout: `${longId} CANCELLED\n` });
    expect(fake.jobs.get(longId)?.cancelled).toBe(true);

    const failed = await cli(["run", "wan-2-6-i2v", "--set", "prompt=fail", "--set", "image=https://images.example.org/fox.jpg", "--wait", "--interval", "0.01"]);
    expect(failed.code).toBe(EXIT.jobFailed);
    const failedId = /job (job-\d+)/.exec(failed.stderr)![1]!;
    const retried = await cli(["retry", "wan-2-6-i2v", failedId, "--wait", "--interval", "0.01"]);
    expect(retried.code).toBe(EXIT.ok);
    expect(retried.stdout).toMatch(new RegExp(`^${failedId} COMPLETED\n`));
    expect(fake.jobs.get(failedId)?.retries).toBe(1);

    const running = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS]);
    const runningId = /^(job-\d+) IN_QUEUE/.exec(running.stdout)![1]!;
    const streamed = await cli(["stream", "wan-2-6-i2v", runningId, "--interval", "0.01"]);
    expect(streamed).toMatchObject({ code: EXIT.ok, stdout: '{"chunk":1}\n', stderr: `gpu-cloud-client: ${runningId} COMPLETED\n` });

    const failing = await cli(["run", "wan-2-6-i2v", "--set", "prompt=fail", "--set", "image=https://images.example.org/fox.jpg"]);
    const failingId = /^(job-\d+) IN_QUEUE/.exec(failing.stdout)![1]!;
    expect(await cli(["stream", "wan-2-6-i2v", failingId, "--interval", "0.01"])).toMatchObject({ code: EXIT.jobFailed, stderr: `gpu-cloud-client: ${failingId} FAILED\n` });
  });

  it("sends --job-option members with the job, and refuses them where nothing is submitted", async () => {
    const before = fake.submittedBodies.length;
    const result = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--job-option", "webhook=https://hooks.example.org/x", "--job-option", "policy.ttl=60000", "--wait", "--interval", "0.01"]);
    expect(result.code).toBe(EXIT.ok);
    expect(fake.submittedBodies.slice(before)).toEqual([{ webhook: "https://hooks.example.org/x", policy: { ttl: 60000 }, input: expect.objectContaining({ prompt: "a fox in the snow" }) }]);
    const low = await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--job-option", "policy.ttl=5"]);
    expect(low.code).toBe(EXIT.usage);
    expect(low.stderr).toContain("body.policy.ttl: must be >= 10000");
    expect(await cli(["status", "wan-2-6-i2v", "job-1", "--job-option", "webhook=x"])).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("--job-option: only with run") });
    expect(await cli(["run", "wan-2-6-i2v", ...VIDEO_ARGS, "--job-option", "noequals"])).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("--job-option noequals: expected KEY=VALUE") });
    expect(fake.submittedBodies.length).toBe(before + 1);
  });

  it("shows the endpoint's health and purges its queue only when told --yes", async () => {
    const model = "black-forest-labs-flux-1-dev";
    const args = ["--set", "prompt=long", "--set", "width=512", "--set", "height=512"];
    for (let i = 0; i < 2; i++) expect((await cli(["run", model, ...args])).code).toBe(EXIT.ok);
    const health = await cli(["health", model]);
    expect(health.stderr).toBe("");
    expect(health.code).toBe(EXIT.ok);
    expect(health.stdout).toMatch(/^jobs: completed 0, failed 0, inProgress 0, inQueue 2, retried 0\nworkers: idle 1, /);
    expect(JSON.parse((await cli(["health", model, "--json"])).stdout).jobs.inQueue).toBe(2);

    const before = fake.log.length;
    const unconfirmed = await cli(["purge-queue", model]);
    expect(unconfirmed.code).toBe(EXIT.usage);
    expect(unconfirmed.stderr).toContain(`purge-queue: removes every queued job of ${model}'s endpoint; add --yes to do it`);
    expect(unconfirmed.stderr).not.toContain("usage:");
    expect(fake.log.length).toBe(before);

    expect(await cli(["purge-queue", model, "--yes"])).toMatchObject({ code: EXIT.ok, stdout: `${model}: removed 2 queued jobs\n` });
    expect(JSON.parse((await cli(["health", model, "--json"])).stdout).jobs.inQueue).toBe(0);
    expect((await cli(["health", model, "job-1"])).stderr).toContain("health: unexpected argument job-1");
  });

  it("names what is missing for cancel, retry and stream, and what the service no longer keeps", async () => {
    for (const command of ["cancel", "retry", "stream"]) {
      const { code, stderr } = await cli([command, "wan-2-6-i2v"]);
      expect(code).toBe(EXIT.usage);
      expect(stderr).toContain(`${command}: expected <model> <job-id>`);
    }
    const gone = await cli(["stream", "wan-2-6-i2v", "job-999999", "--interval", "0.01"]);
    expect(gone.code).toBe(EXIT.apiError);
    expect(gone.stderr).toContain("is no longer kept by the service");
  });

  it("names the model in the command that resumes an interrupted wait", async () => {
    const stderr = capture();
    const controller = new AbortController();
    controller.abort();
    const code = await main(["wait", "wan-2-6-i2v", "job-77"], {
      name: "gpu-cloud-client",
      credentials: { apiKey: { env: "GPU_CLOUD_API_KEY", label: "API key" } },
      createClient: () => new GpuCloudClient({ apiKey: "cli-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl }),
      catalog: MODEL_CATALOG,
      stdout: capture(),
      stderr,
      signal: controller.signal,
    });
    expect(code).toBe(EXIT.interrupted);
    expect(stderr.text).toContain("follow it with: gpu-cloud-client wait wan-2-6-i2v job-77");
  });

  it("exits 3 when status gets a body that is not a job, instead of printing undefined", async () => {
    const stderr = capture();
    const notJob = { runModel: async () => { throw new Error("unused"); }, runModelSync: async () => { throw new Error("unused"); }, getModelJob: async () => ({ data: { unexpected: true }, status: 200, headers: new Headers(), rateLimit: undefined }) };
    const code = await main(["status", "wan-2-6-i2v", "job-1"], { name: "gpu-cloud-client", credentials: { apiKey: { env: "K", label: "API key" } }, createClient: () => notJob as never, catalog: MODEL_CATALOG, stdout: capture(), stderr });
    expect(code).toBe(EXIT.apiError);
    expect(stderr.text).toContain("not a job");
    expect(stderr.text).not.toContain("undefined");
  });
});

describe("the command explains itself", () => {
  const bin = path.join(repoRoot, "generated/gpu-cloud-client/src/bin.ts");
  const tsx = path.join(repoRoot, "node_modules/.bin/tsx");

  it("--help lists commands, options, environment variables, known models with their pricing, and exit codes", async () => {
    const { stdout } = await run(tsx, [bin, "--help"]);
    for (const command of ["run", "status", "wait", "cancel", "retry", "stream", "health", "purge-queue", "estimate"]) expect(stdout).toContain(`gpu-cloud-client ${command} <model>`);
    for (const option of ["--input", "--set", "--job-option", "--wait", "--sync", "--cancel-on-abort", "--max-cost", "--timeout", "--interval", "--json", "--yes", "--any-model"]) expect(stdout).toContain(option);
    for (const variable of ["GPU_CLOUD_API_KEY", "GPU_CLOUD_BASE_URL", "GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL", "GPU_CLOUD_LOG"]) expect(stdout).toMatch(new RegExp(`^  ${variable} +\\S`, "m"));
    for (const [id, info] of Object.entries(MODEL_CATALOG.endpoints)) {
      expect(stdout).toMatch(new RegExp(`^  ${id} +${info.kind} +${info.pricing === undefined ? "no published price" : info.pricing.unitsUnknown === undefined ? "priced" : "priced, not estimable"}$`, "m"));
    }
    expect(stdout).toContain("Exit codes: 0 done, 1 job failed, 2 bad usage or input, 3 API or network error, 4 over --max-cost, 5 wait timed out, 130 interrupted.");
  });

  it("refuses an unknown model id with the known ones, before any request, unless --any-model", async () => {
    const before = fake.log.length;
    const refused = await cli(["run", "wan-2-6-v2v", ...VIDEO_ARGS, "--wait"]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toBe(`gpu-cloud-client: unknown model "wan-2-6-v2v"; known models: ${Object.keys(MODEL_CATALOG.endpoints).join(", ")} (add --any-model to send it anyway)\n`);
    expect(fake.log.length).toBe(before);
    expect((await cli(["status", "wan-2-6-v2v", "job-1"])).code).toBe(EXIT.usage);
    const sent = await cli(["run", "my-own-endpoint", "--set", "prompt=x", "--any-model"]);
    expect(sent.code).toBe(EXIT.ok);
    expect(sent.stdout).toMatch(/^job-\d+ IN_QUEUE\n/);
    expect((await cli(["estimate", "my-own-endpoint", "--set", "prompt=x", "--any-model"])).stdout).toBe("my-own-endpoint: cost cannot be estimated (no published price)\n");
  });

  it("starts every message the same way, and shows the usage only for a usage mistake", async () => {
    const file = path.join(scratch, "broken.json");
    fs.writeFileSync(file, "{ not json");
    const broken = await cli(["run", "wan-2-6-i2v", "--input", file]);
    expect(broken.code).toBe(EXIT.usage);
    expect(broken.stderr).toMatch(/^gpu-cloud-client: --input \S+broken\.json: not valid JSON \([^\n]*\)\n$/);
    const invalid = await cli(["run", "wan-2-6-i2v", "--set", "prompt=p", "--set", "duration=7"]);
    expect(invalid.stderr.split("\n").filter(Boolean).every((line) => line.startsWith("gpu-cloud-client: ")), invalid.stderr).toBe(true);
    const failing = await cli(["run", "wan-2-6-i2v", "--set", "prompt=fail", "--set", "image=https://images.example.org/fox.jpg"]);
    const failingId = /^(job-\d+)/.exec(failing.stdout)![1]!;
    expect((await cli(["stream", "wan-2-6-i2v", failingId, "--interval", "0.01"])).stderr).toBe(`gpu-cloud-client: ${failingId} FAILED\n`);
    expect((await cli(["launch"])).stderr).toMatch(/^gpu-cloud-client: unknown command "launch"\n\nusage:/);
  });

  it("gives the service's request id with an API error, for its support", async () => {
    const server = await startRecordingServer(() => ({ status: 404, headers: { "content-type": "application/json", "x-request-id": "req-cli-404" }, body: '{"error":"no such job"}' }));
    try {
      const stderr = capture();
      const code = await main(["status", "wan-2-6-i2v", "job-1"], {
        name: "gpu-cloud-client",
        createClient: () => new GpuCloudClient({ apiKey: "k", publicEndpointBaseUrl: server.url, maxRetries: 0 }),
        catalog: MODEL_CATALOG,
        stdout: capture(),
        stderr,
      });
      expect(code).toBe(EXIT.apiError);
      expect(stderr.text).toMatch(/^gpu-cloud-client: GET \S+ failed with 404.* \(request id req-cli-404\)\n$/);
    } finally {
      await server.close();
    }
  });

  it("names the environment variable that holds a bad base URL (a real process)", async () => {
    const failed = await run(tsx, [bin, "status", "wan-2-6-i2v", "job-1"], {
      env: { ...process.env, GPU_CLOUD_API_KEY: "cli-key", GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL: "api.runpod.ai" },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failed as { code: number }).code).toBe(EXIT.usage);
    expect((failed as { stderr: string }).stderr).toBe('gpu-cloud-client: GPU_CLOUD_PUBLIC_ENDPOINT_BASE_URL must be an absolute http(s) URL, got "api.runpod.ai"\n');
  });
});
