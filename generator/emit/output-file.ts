/** A file the emit stage produced, for the write stage. */
export interface OutputFile {
  /** Relative to the output folder, "/"-separated. */
  path: string;
  contents: string;
}

/** A JavaScript module as emitted, and the declaration file (`.d.ts`) of its exports. */
export interface EmittedModule {
  js: string;
  dts: string;
}

/** `<stem>.js` and `<stem>.d.ts`, for a path given without its extension. */
export function moduleFiles(pathWithoutExtension: string, module: EmittedModule): OutputFile[] {
  return [
    { path: `${pathWithoutExtension}.js`, contents: module.js },
    { path: `${pathWithoutExtension}.d.ts`, contents: module.dts },
  ];
}
