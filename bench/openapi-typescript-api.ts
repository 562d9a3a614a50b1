/**
 * openapi-typescript through its Node API (`openapiTS`, `astToString`), in this process: for the
 * benches that run many documents without a process each. Its command line is bench/cli-child.mjs.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type * as OpenapiTypescript from "openapi-typescript";

const require = createRequire(import.meta.url);

/** An error's first line, the document's own path left out. */
export function firstLine(error: unknown, spec: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.replaceAll(spec, "").trim().slice(0, 400);
}

/** The types openapi-typescript writes for the document, or its error's first line. */
export async function openapiTypescriptTypes(spec: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  const { default: openapiTS, astToString } = require("openapi-typescript") as typeof OpenapiTypescript & { default: typeof OpenapiTypescript.default };
  // It prints its Redocly findings before throwing them; the error itself is what is recorded.
  const { error: printError, warn } = console;
  console.error = console.warn = () => undefined;
  try {
    return { ok: true, text: astToString(await openapiTS(pathToFileURL(spec), { silent: true })) };
  } catch (error) {
    return { ok: false, error: firstLine(error, spec) };
  } finally {
    console.error = printError;
    console.warn = warn;
  }
}
