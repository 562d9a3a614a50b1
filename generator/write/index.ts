/**
 * Stage 4, write: the emitted files with their headers, put on disk all at once (a temporary
 * sibling folder swapped in), or compared with what is there (`--check`).
 */
export { GENERATED_MARK, header, withHeaders } from "./header.ts";
export type { HeaderOptions } from "./header.ts";
export { checkOutput, normaliseText, writeOutput } from "./output.ts";
export type { CheckResult } from "./output.ts";
export type { OutputFile } from "../emit/output-file.ts";
