/**
 * The changelog beside the contract: a new version's entry goes first, an entry of the same
 * version is replaced, older entries stay.
 */
import { describe, expect, it } from "vitest";
import { updateChangelog } from "../changelog.ts";

describe("writing the changelog", () => {
  it("keeps the changelog's older entries and replaces an entry of the same version", () => {
    const first = updateChangelog(undefined, "## 1.1.0 (2026-01-01)\n\nA.\n", "1.1.0");
    const second = updateChangelog(first, "## 2.0.0 (2026-02-01)\n\nB.\n", "2.0.0");
    expect(second.indexOf("## 2.0.0")).toBeLessThan(second.indexOf("## 1.1.0"));
    const again = updateChangelog(second, "## 2.0.0 (2026-02-02)\n\nC.\n", "2.0.0");
    expect(again).toContain("C.");
    expect(again).not.toContain("B.");
    expect(again).toContain("A.");
  });
});
