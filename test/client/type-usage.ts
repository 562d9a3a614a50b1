/**
 * Compile-time tests of the generated client: every `@ts-expect-error` below must be an error, or
 * TypeScript reports the directive as unused. Checked by `test/client/types.test.ts` (and `npm run typecheck`).
 */
import { GpuCloudClient, type ModelInput, type Pod, type PodStatus } from "../../generated/gpu-cloud-client/src/index.ts";

export async function typeUsage(client: GpuCloudClient): Promise<void> {
  // Known model: input typed from its schema; defaults make the other fields optional.
  await client.runModelSync("wan-2-6-i2v", { prompt: "p", image: "https://i.example/a.png", duration: 10, size: "1920*1080" });
  // @ts-expect-error duration must be 5, 10 or 15
  await client.runModelSync("wan-2-6-i2v", { prompt: "p", image: "https://i.example/a.png", duration: 7 });
  // @ts-expect-error size is one of two resolutions
  await client.runModel("wan-2-6-i2v", { prompt: "p", image: "https://i.example/a.png", size: "640*480" });
  // @ts-expect-error image is required
  await client.runModel("wan-2-6-i2v", { prompt: "p" });
  // @ts-expect-error no such parameter (a typo)
  await client.runModel("wan-2-6-i2v", { prompt: "p", image: "https://i.example/a.png", durration: 5 });

  // Output typed per model.
  const { data: video } = await client.runModelSync("wan-2-6-i2v", { prompt: "p", image: "https://i.example/a.png" });
  const videoUrl: string | undefined = video.output?.video_url;
  const cost: number | undefined = video.output?.cost;
  // @ts-expect-error a video model has no image_url
  void video.output?.image_url;
  const { data: image } = await client.getModelJob("black-forest-labs-flux-1-dev", "job-1");
  const imageUrl: string | undefined = image.output?.image_url;

  // Unknown model: untyped input still works.
  await client.runModel("brand-new-model", { anything: [1, 2, 3] });
  const untyped: ModelInput<"brand-new-model"> = { free: "form" };

  // Operations: parameters grouped and typed.
  await client.listPods({ query: { includeClusterPods: true } });
  // @ts-expect-error includeClusterPods is a boolean
  await client.listPods({ query: { includeClusterPods: "yes" } });
  // @ts-expect-error the registry id is required
  await client.deleteRegistry({ path: {} });
  await client.deleteRegistry({ path: { id: "r1" } }, { signal: AbortSignal.timeout(1000), timeoutMs: 500, maxRetries: 0 });

  // Responses typed; open enums keep their known values and accept new ones.
  const { data } = await client.listPods();
  const pod: Pod | undefined = data.pods[0];
  const status: PodStatus | undefined = pod?.status;
  const known: PodStatus = "RUNNING";
  const future: PodStatus = "HIBERNATING";
  // @ts-expect-error status is a string, not a number
  const wrong: PodStatus = 3;
  const registry: string | null | undefined = pod?.registry;

  void [videoUrl, cost, imageUrl, untyped, status, known, future, wrong, registry];
}
