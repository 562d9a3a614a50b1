/**
 * A batch with a caller's signal adds one listener to it, however many jobs are in flight: no
 * `MaxListenersExceededWarning` (Node warns past ten listeners on one signal), none left behind.
 */
import { afterEach, expect, it, vi } from "vitest";
import { GpuCloudClient, runMany } from "../../generated/gpu-cloud-client/src/index.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
});

it("runs 20 jobs at concurrency 20 under one signal without a warning, and leaves no listener on it", async () => {
  let posts = 0;
  server = await startRecordingServer((request) => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(
      request.method === "POST"
        ? { id: `job-${++posts}`, status: "IN_QUEUE" }
        : { id: "job-x", status: "COMPLETED", output: { image_url: "https://files.example/x.png", cost: 0.01 } },
    ),
  }));
  const client = new GpuCloudClient({ apiKey: "k", publicEndpointBaseUrl: server.url });
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  const controller = new AbortController();
  const added = vi.spyOn(controller.signal, "addEventListener");
  const removed = vi.spyOn(controller.signal, "removeEventListener");
  try {
    const inputs = Array.from({ length: 20 }, (_, n) => ({ prompt: `p${n}` }));
    const batch = await runMany(client, "black-forest-labs-flux-1-dev", inputs, { concurrency: 20, intervalMs: 10, signal: controller.signal });
    expect(batch.succeeded).toBe(20);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", onWarning);
  }
  expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  expect(added).toHaveBeenCalledTimes(1);
  expect(removed).toHaveBeenCalledTimes(1);
});
