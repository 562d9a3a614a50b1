/**
 * What the job helper suites share: the package's stateful fake of the service, in process, on a simulated clock
 * (every pause advances it at once, so nothing depends on the machine's speed), a client of it,
 * and the answer a stub client gives. Each test gets a fresh clock; `startFake` starts the fake and
 * its client for the test, and the fake is stopped after it.
 */
import { afterEach, beforeEach } from "vitest";
import { GpuCloudClient, type GpuCloudClientOptions } from "../../generated/gpu-cloud-client/src/index.ts";
import { FakeService, type FakeOptions } from "../support/fake-service.ts";
import { simulatedTime, type SimulatedTime } from "../support/simulated-time.ts";

export const VIDEO = "wan-2-6-i2v";
export const input = (n = 0) => ({ prompt: `shot ${n}`, image: `https://images.example.org/${n}.jpg` });

export let fake: FakeService;
export let client: GpuCloudClient;
export let time: SimulatedTime;

/** A fresh clock before each test of the file, and the fake stopped after it: call once per file. */
export function useFakeSession(): void {
  beforeEach(() => {
    time = simulatedTime();
  });
  afterEach(async () => {
    await fake?.stop();
  });
}

/** Starts the fake on the test's clock, and a client of it (`clientOptions` over the defaults). */
export async function startFake(options: FakeOptions = {}, clientOptions: Partial<GpuCloudClientOptions> = {}): Promise<void> {
  fake = await new FakeService({ now: () => time.clock.now, ...options }).start();
  client = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler, ...clientOptions });
}

/** Stops the fake and starts a new clock: for a test that runs its cases in turn. */
export async function restart(): Promise<void> {
  await fake?.stop();
  time = simulatedTime();
}

/** What a stub client's call resolves to: `data`, answered 200 without headers. */
export const answer = <T>(data: T) => ({ data, status: 200, headers: new Headers(), rateLimit: undefined });
