/**
 * `--watch`: generates, then again whenever the contract or a file it references changes, until
 * Ctrl-C. Changes that come together (an editor's save, a checkout) make one run: the run waits
 * for DEBOUNCE_MS of quiet. A change during a run makes one more run after it. A run that fails
 * prints its error and the command keeps watching the files it watched before.
 */
import fs from "node:fs";
import path from "node:path";
import { errorText } from "./report.ts";

const DEBOUNCE_MS = 150;

export interface WatchRun {
  /** Generates once and reports it; resolves with the files the contract was read from. */
  (): Promise<readonly string[]>;
}

interface Output {
  write(text: string): unknown;
}

/** Resolves with the exit code (0) once SIGINT, or `stop`, ends the watch. */
export function watchContract(spec: string, generateOnce: WatchRun, out: Output = process.stdout, err: Output = process.stderr, stop?: AbortSignal): Promise<number> {
  const root = path.resolve(spec);
  let files = new Set([root]);
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  return new Promise((resolve) => {
    const finish = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      process.off("SIGINT", finish);
      out.write("stopped watching\n");
      // A run under way finishes its atomic write before the command ends.
      void settled.then(() => resolve(0));
    };
    let settled: Promise<void> = Promise.resolve();
    process.on("SIGINT", finish);
    stop?.addEventListener("abort", finish, { once: true });

    const watchFolders = () => {
      const folders = new Set([...files].map((file) => path.dirname(file)));
      for (const [folder, watcher] of watchers) {
        if (folders.has(folder)) continue;
        watcher.close();
        watchers.delete(folder);
      }
      for (const folder of folders) {
        if (watchers.has(folder)) continue;
        // The folder, not the file: an editor that saves by replacing the file would end a file's watch.
        try {
          const watcher = fs.watch(folder, (_event, name) => {
            if (name === null || files.has(path.join(folder, name.toString()))) changed();
          });
          watcher.on("error", () => undefined);
          watchers.set(folder, watcher);
        } catch (error) {
          err.write(`warning: cannot watch ${folder}: ${(error as Error).message}\n`);
        }
      }
    };

    const runNow = async () => {
      running = true;
      try {
        const read = await generateOnce();
        files = new Set([root, ...read]);
      } catch (error) {
        err.write(errorText(error));
      }
      running = false;
      if (stopped) return;
      watchFolders();
      out.write(`watching ${files.size} file${files.size === 1 ? "" : "s"} for changes (Ctrl-C to stop)\n`);
      if (again) {
        again = false;
        changed();
      }
    };

    function changed() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => {
        settled = runNow();
      }, DEBOUNCE_MS);
    }

    settled = runNow();
  });
}
