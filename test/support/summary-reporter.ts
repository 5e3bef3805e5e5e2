import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that any CI
 * can read whatever its understanding of vitest's own summary.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (testModule.state() === 'failed' && testModule.children.size === 0) failed += 1;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
