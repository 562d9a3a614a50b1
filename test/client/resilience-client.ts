/**
 * What the resilience suites share: the key they look for, the client they drive against the
 * scripted loopback server (retry delays of milliseconds), and a video job's input.
 */
import { GpuCloudClient } from "../../generated/gpu-cloud-client/src/index.ts";
import type { ScriptedServer } from "../support/scripted-server.ts";

export const KEY = "sk-live-resilience-0123456789";
export const video = { prompt: "p", image: "https://i.example/a.png" } as const;

/** A client factory on `server`: `options` over the defaults. */
export function clientOn(server: ScriptedServer): (options?: ConstructorParameters<typeof GpuCloudClient>[0]) => GpuCloudClient {
  return (options = {}) => new GpuCloudClient({ apiKey: KEY, baseUrl: server.url, publicEndpointBaseUrl: server.url, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });
}
