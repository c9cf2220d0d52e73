import { defineConfig } from 'vitest/config';

/**
 * Test files that need a process of their own: they change the process (TZ), drive terminals,
 * signals, shells, the keychain or processes racing each other, or run so many payctl processes
 * that sharing a worker saves nothing. Every other file runs payctl in-process against servers
 * of its own and shares a worker thread with other such files, so vitest and src/ load once per
 * worker instead of once per file.
 */
const OWN_PROCESS = [
  'test/commands/find.test.ts',
  'test/foundation/config.test.ts',
  'test/foundation/config-fuzz.test.ts',
  'test/foundation/startup.test.ts',
  'test/foundation/typed-commands.test.ts',
  'test/hardening/faults.test.ts',
  'test/hardening/fuzz.test.ts',
  'test/hardening/secrets.test.ts',
  'test/hardening/terminal-escapes.test.ts',
  'test/interactive/**/*.test.ts',
  'test/money/concurrency.test.ts',
  'test/money/lock.test.ts',
  'test/network/**/*.test.ts',
  'test/output/demo.test.ts',
  'test/output/formats.test.ts',
  'test/safeguards/**/*.test.ts',
  'test/sandbox/durability.test.ts',
  'test/sandbox/faults.test.ts',
  'test/scripting/completion.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    poolOptions: {
      // Much of the suite waits on sockets, timers, terminals and child processes rather than computing:
      // six own-process files and two shared threads at a time keep a 2-core machine busy to the end.
      forks: { maxForks: 6, minForks: 1 },
      threads: { isolate: false, maxThreads: 2, minThreads: 1 },
    },
    globalSetup: ['test/helpers/global-setup.ts'],
    // every sandbox a test starts checks each of its answers against the OpenAPI document
    env: { PAYCTL_SANDBOX_CHECK_ANSWERS: '1' },
    projects: [
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, pool: 'forks' } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: OWN_PROCESS, pool: 'threads' } },
    ],
  },
});
