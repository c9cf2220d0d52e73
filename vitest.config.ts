import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files the whole run waits for (docs/performance.md): each mostly waits on a sandbox's
 * latency, a database or a terminal, and a run cannot end before its longest file. vitest starts
 * the files it has no timings of (a fresh clone, CI) largest first, and size says little of time:
 * the fuzz file is 38th of 82 by size, durability 47th. These start first, in this order; the rest
 * as vitest orders them.
 */
const LONGEST_FIRST = [
  'test/team/ledger.test.ts',
  'test/team/ledger-connection.test.ts',
  'test/foundation/config.test.ts',
  'test/interactive/pick-lists.test.ts',
  'test/foundation/startup.test.ts',
  'test/hardening/fuzz.test.ts',
  'test/money/twins.test.ts',
  'test/sandbox/durability.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Six worker processes, each running test files one after another (isolate: false), so vitest and
 * src/ load once per worker instead of once per file: on a 2-core machine the suite is bound by CPU,
 * and a file's own process cost about half a second of it. A file that changes its process (TZ, the
 * working folder, listeners) puts it back before it ends. Six at a time keep both cores busy to the
 * end: much of the suite waits on sockets, timers, terminals and child processes. minForks equals
 * maxForks: with fewer, vitest 3.2 can end a worker that still has a file, and the run fails with
 * "Terminating worker thread".
 */
export default defineConfig({
  test: {
    // A timeout ends a hung test, it does not time one: no test sets a shorter one of its own, and a
    // run's own deadline (RUN_DEADLINE_MS, test/helpers/cli.ts) is shorter still, so that a hung run
    // is reported with what it printed. Tests of many runs took minutes with two suites at once on
    // the 2-core machine at load 30, and the 3,040-argv fuzz passed 300 s with three suites at once at load 40.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    poolOptions: { forks: { isolate: false, maxForks: 6, minForks: 6 } },
    globalSetup: ['test/helpers/global-setup.ts'],
    // With PAYCTL_TEST_CPU=1, the CPU each test file took, printed at the end.
    setupFiles: ['test/helpers/cpu-per-file.ts'],
    // Type tests (*.test-d.ts) are type-checked by vitest itself, so a type that stops holding
    // fails `vitest run`, not only tsc.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: 'tsconfig.type-tests.json' },
    // every sandbox a test starts checks each of its answers against the OpenAPI document
    env: { PAYCTL_SANDBOX_CHECK_ANSWERS: '1' },
  },
});
