import { defineConfig } from 'vitest/config';

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
