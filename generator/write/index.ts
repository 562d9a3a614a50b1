/**
 * Stage 4, write: the emitted files with their headers, put on disk all at once (staged in a
 * sibling folder, then moved in), or compared with what is there (`--check`). The generator owns
 * the files its manifest (`.generated-files.json`) lists and leaves every other file alone.
 */
export { carriesHeader, GENERATED_MARK, header, HEADER_PATTERN, withHeaders } from "./header.ts";
export { MANIFEST_PATH } from "./manifest.ts";
export { mergePackageJson } from "./package-json.ts";
export type { HeaderOptions } from "./header.ts";
export { checkOutput, normaliseText, writeOutput } from "./output.ts";
export type { CheckResult, WriteResult } from "./output.ts";
export type { OutputFile } from "../emit/output-file.ts";
