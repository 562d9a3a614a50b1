import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends every run with one line `N passed, N failed` (`, N skipped` when any), the line CI reads,
 * after one line per skipped test naming it (its name says why: see the browser test).
 * Counts tests, not files; a file that fails to load counts as one failure so it cannot vanish.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    const skipped: string[] = [];
    for (const module of testModules) {
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped.push(`skipped: ${module.moduleId.replace(`${process.cwd()}/`, "")} > ${test.fullName}`);
      }
    }
    const listed = skipped.length === 0 ? "" : `\n${skipped.join("\n")}`;
    process.stdout.write(`${listed}\n${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ""}\n`);
  }
}
