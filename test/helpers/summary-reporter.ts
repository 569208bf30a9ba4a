import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the run ends with. */
const SLOWEST_SHOWN = 10;

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI can read, then the
 * ten files that held a worker longest (where to look when the suite grows slow).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      // a file that failed with none of its tests failing: it did not load, or a hook (afterAll) failed
      const testFailed = [...module.children.allTests()].some((test) => test.result().state === 'failed');
      if (module.state() === 'failed' && !testFailed) counts.failed += 1;
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
    process.stdout.write(slowestFiles(testModules));
  }
}

/** A file's time in its worker: importing it (and its setup files), then its tests and hooks. */
function fileSeconds(module: TestModule): number {
  const { prepareDuration, environmentSetupDuration, setupDuration, collectDuration, duration } = module.diagnostic();
  return (prepareDuration + environmentSetupDuration + setupDuration + collectDuration + duration) / 1000;
}

function slowestFiles(testModules: ReadonlyArray<TestModule>): string {
  const slowest = testModules
    .map((module) => ({ file: module.relativeModuleId, seconds: fileSeconds(module) }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_SHOWN);
  if (slowest.length === 0) return '';
  const lines = slowest.map(({ file, seconds }) => `${seconds.toFixed(1).padStart(7)} s  ${file}`);
  return `\nslowest files:\n${lines.join('\n')}\n`;
}
