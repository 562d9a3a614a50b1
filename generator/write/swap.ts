/**
 * Carries out a plan so that a failure leaves the folder as it was: every new text is written to a
 * sibling staging folder first (a failure there touches nothing), then the files replaced or
 * removed are set aside in a sibling backup folder and the staged ones renamed in. Each step is
 * undone in reverse order if a later one fails. Siblings keep every rename on one file system.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { Plan } from "./plan.ts";

export interface SwapOptions {
  /** How a file moves (`rename`); tests put a failing one here. */
  move?: (from: string, to: string) => Promise<void>;
}

/** Applies `plan` to `target`, which exists, or is created whole by one rename when it does not. */
export async function applyPlan(target: string, plan: Plan, targetExists: boolean, { move = rename }: SwapOptions = {}): Promise<void> {
  if (plan.write.length === 0 && plan.remove.length === 0) return;
  const suffix = randomBytes(6).toString("hex");
  const staging = `${target}.tmp-${suffix}`;
  const at = (root: string, filePath: string) => path.join(root, ...filePath.split("/"));
  await mkdir(staging);
  try {
    for (const file of plan.write) {
      await mkdir(path.dirname(at(staging, file.path)), { recursive: true });
      await writeFile(at(staging, file.path), file.contents);
    }
    if (!targetExists) {
      await move(staging, target);
      return;
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }

  const backup = `${target}.old-${suffix}`;
  const undo: Array<() => Promise<unknown>> = [];
  try {
    for (const filePath of [...plan.remove, ...plan.write.filter((file) => file.replaces).map((file) => file.path)]) {
      await mkdir(path.dirname(at(backup, filePath)), { recursive: true });
      await move(at(target, filePath), at(backup, filePath));
      undo.push(() => move(at(backup, filePath), at(target, filePath)));
    }
    for (const folder of emptiedFolders(plan.remove)) {
      const removed = await rmdir(at(target, folder)).then(
        () => true,
        () => false, // Not empty: it holds files the generator does not own.
      );
      if (removed) undo.push(() => mkdir(at(target, folder)));
    }
    for (const file of plan.write) {
      const created = await mkdir(path.dirname(at(target, file.path)), { recursive: true });
      if (created !== undefined) undo.push(() => rm(created, { recursive: true, force: true }));
      await move(at(staging, file.path), at(target, file.path));
      undo.push(() => move(at(target, file.path), at(staging, file.path)));
    }
  } catch (error) {
    let restored = true;
    for (const step of undo.reverse()) await step().catch(() => (restored = false));
    await rm(staging, { recursive: true, force: true });
    if (!restored) throw new Error(`writing ${target} failed and not every file could be put back; the previous ones are in ${backup}`, { cause: error });
    await rm(backup, { recursive: true, force: true });
    throw error;
  }
  await rm(staging, { recursive: true, force: true });
  await rm(backup, { recursive: true, force: true });
}

/** The folders of removed files, deepest first, that may be left empty (never the package folder itself). */
function emptiedFolders(removed: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const filePath of removed) {
    const segments = filePath.split("/");
    for (let depth = segments.length - 1; depth > 0; depth--) folders.add(segments.slice(0, depth).join("/"));
  }
  return [...folders].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : a > b ? 1 : 0));
}
