/**
 * The canned responses of the loopback server, built from the contract's own examples so every
 * body is valid against the contract (response validation passes, as it would in production).
 */
import fs from "node:fs";
import { parse } from "yaml";
import { CONTRACT } from "./lib.ts";

export const RATE_LIMIT = '"minute";r=57;t=12, "hour";r=2800;t=1812, "day";r=49500;t=45012';
export const RATE_LIMIT_POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400';

export const JOB_MODEL = "wan-2-6-i2v";
export const JOB_ID = "6c1b3a9e-2d4f-4e8a-b7c5-91f0d2e3a4b5-u1";

export interface Payloads {
  /** `GET /v2/pods`: 100 pods. */
  pods: string;
  /** `GET /v2/{model}/status/{job}`: a finished video job. */
  job: string;
  /** `POST /v2/{model}/run`: a queued job. */
  queued: string;
}

export function buildPayloads(podCount = 100): Payloads {
  const contract = parse(fs.readFileSync(CONTRACT, "utf8"), { maxAliasCount: -1 }) as any;
  const examples = contract.components.examples;
  const template = examples.PodListWithClusterPods.value.pods[0];
  const pods = [];
  for (let i = 0; i < podCount; i++) {
    const pod = structuredClone(template);
    const id = `pod${i.toString(36).padStart(7, "0")}`;
    pod.id = id;
    pod.name = `${template.name}-${i}`;
    pod.ssh.proxy.username = `${id}-64411eb2`;
    pod.ssh.proxy.command = `ssh ${id}-64411eb2@${pod.ssh.proxy.host}`;
    pod.runtime.uptime = 3600 + i;
    pod.cost = Math.round((0.69 + i / 100) * 100) / 100;
    pods.push(pod);
  }
  const job = structuredClone(examples.CompletedVideoJob.value);
  job.id = JOB_ID;
  return {
    pods: JSON.stringify({ pods }),
    job: JSON.stringify(job),
    queued: JSON.stringify({ id: JOB_ID, status: "IN_QUEUE" }),
  };
}
