/**
 * The model endpoints' request limits in the contract (`x-request-limits`) are the ones the service's
 * reference states, as ../shared/guide/SERVICE-NOTES.md records them: read from that file's own
 * sentence, so the contract cannot drift from it unnoticed. The one figure the notes leave out
 * (status and stream: 400 at once) is the reference's, named below.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContractDocument } from "../support/contract.ts";
import { repoRoot } from "../support/prism.ts";

const notes = fs.readFileSync(path.join(repoRoot, "../shared/guide/SERVICE-NOTES.md"), "utf8");
const document = loadContractDocument();

/** The limits the notes state, by the path segment of each operation: `run` → 1,000 requests (200 concurrent). */
function notedLimits(): Record<string, { requests: number; windowSeconds: number; concurrent?: number }> {
  const sentence = /^- Limits, per endpoint, over (\d+)-second windows: (.+)$/m.exec(notes);
  expect(sentence, "the notes' sentence on limits").not.toBeNull();
  const windowSeconds = Number(sentence![1]);
  const limits: ReturnType<typeof notedLimits> = {};
  for (const [, first, second, requests, concurrent] of sentence![2]!.matchAll(/`([a-z-]+)`(?: and `([a-z-]+)`)? ([\d,]+)(?: requests)?(?: \((\d+) concurrent\))?/g)) {
    for (const name of [first!, second].filter((n): n is string => n !== undefined)) {
      limits[name] = { requests: Number(requests!.replace(/,/g, "")), windowSeconds, ...(concurrent ? { concurrent: Number(concurrent) } : {}) };
    }
  }
  return limits;
}

describe("the model endpoints' request limits", () => {
  it("are the reference's, on the operation of each path", () => {
    const noted = notedLimits();
    expect(Object.keys(noted).sort()).toEqual(["cancel", "purge-queue", "run", "runsync", "status", "stream"]);
    const inContract: Record<string, unknown> = {};
    for (const [template, item] of Object.entries<any>(document.paths)) {
      const segment = /^\/v2\/\{model_endpoint_id\}\/([a-z-]+)/.exec(template)?.[1];
      for (const operation of [item.get, item.post].filter(Boolean)) {
        if (operation["x-request-limits"] !== undefined) inContract[segment ?? template] = operation["x-request-limits"];
      }
    }
    // The notes leave out the concurrency of status and stream; the reference's table (send-requests.mdx) gives 400.
    const fromReference = { status: { concurrent: 400 }, stream: { concurrent: 400 } };
    const expected = Object.fromEntries(Object.entries(noted).map(([name, limit]) => [name, { ...limit, ...fromReference[name as keyof typeof fromReference] }]));
    expect(inContract).toEqual(expected);
  });

  it("say a full queue answers 429 too", () => {
    expect(notes).toMatch(/a full queue also answers 429/);
    expect(document.components.responses.ModelEndpointTooManyRequests.description).toMatch(/queue is full/);
  });
});
