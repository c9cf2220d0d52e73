import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/hardening/global-setup.ts'],
    // every sandbox a test starts checks each of its answers against the OpenAPI document
    env: { PAYCTL_SANDBOX_CHECK_ANSWERS: '1' },
  },
});
