/** A file the emit stage produced, for the write stage. */
export interface OutputFile {
  /** Relative to the output folder, "/"-separated. */
  path: string;
  contents: string;
}
