/**
 * A document generated into `.tmp/<name>` (inside the repository, so the package resolves
 * openapi-fetch from its node_modules), written and imported: its client class and model.
 */
import fs from "node:fs";
import path from "node:path";
import { generateFiles, type GenerateOptions } from "../../generator/generate.ts";
import type { ApiModel } from "../../generator/model/index.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "./prism.ts";

export interface GeneratedClient {
  api: ApiModel;
  warnings: string[];
  outDir: string;
  /** The generated client class: construct it with its options. */
  Client: new (options: object) => any;
}

/** `options`: the generator's, beside `spec` and `out` (`dates: "date"`…). */
export async function generateClient(spec: string, name: string, options: Omit<GenerateOptions, "spec" | "out"> = {}): Promise<GeneratedClient> {
  const outDir = path.join(repoRoot, ".tmp", name);
  // Anew each run: a test may leave files of its own beside the package.
  fs.rmSync(outDir, { recursive: true, force: true });
  const generated = await generateFiles({ ...options, spec, out: outDir });
  await writeOutput(outDir, generated.files);
  const module = await import(path.join(outDir, "src/index.ts"));
  const Client = Object.values<any>(module).find((value) => typeof value === "function" && /Client$/.test(value.name));
  return { api: generated.api, warnings: generated.warnings, outDir, Client };
}
