/**
 * A clock the job helpers and the fake model server share: `sleep` advances it at once instead of
 * waiting, and records each pause, so what a test proves about waits does not depend on the
 * machine's speed.
 */
import { AbortedError } from "../../generated/gpu-cloud-client/src/index.ts";

export interface SimulatedTime {
  clock: { now: number; pauses: number[] };
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function simulatedTime(start = Date.parse("2026-11-22T12:00:00Z")): SimulatedTime {
  const clock = { now: start, pauses: [] as number[] };
  return {
    clock,
    now: () => clock.now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw new AbortedError({ reason: "aborted" });
      clock.pauses.push(ms);
      // What is already under way (a request on its way to an in-process fake) happens before the clock moves, as it would in real time.
      await new Promise((resolve) => setImmediate(resolve));
      clock.now += ms;
    },
  };
}
