/** Types of scripts/size.mjs, for the TypeScript benchmarks that reuse its bundling. */
export interface BundleSizes {
  minified: number;
  gzipped: number;
  brotli: number;
  files: number;
}

export interface AppBundle extends BundleSizes {
  onDemand: BundleSizes;
  /** Bytes of each source file in the startup code. */
  inputs: Record<string, number>;
}

export function bundle(contents: string, options: { packageDir: string; name?: string; resolveDir?: string; loader?: "js" | "ts" }): Promise<AppBundle>;
