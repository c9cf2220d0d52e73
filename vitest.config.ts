import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Much of the suite waits on sockets, timers and child processes rather than computing: four
    // test files at a time keep a 2-core machine busy (vitest's default there is one).
    maxWorkers: 4,
    minWorkers: 1,
    globalSetup: ['test/helpers/global-setup.ts'],
    // every sandbox a test starts checks each of its answers against the OpenAPI document
    env: { PAYCTL_SANDBOX_CHECK_ANSWERS: '1' },
  },
});
