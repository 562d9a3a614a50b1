/** The smoke suite's API, for the TypeScript that drives it (test/publish/runtimes.test.ts). */
export interface SmokeCaseReport {
  name: string;
  ok: boolean;
  detail: string;
}

export declare const CASE_NAMES: readonly string[];

export declare function runSmokeCases(pkg: Record<string, unknown>, report: (result: SmokeCaseReport) => void): Promise<number>;
