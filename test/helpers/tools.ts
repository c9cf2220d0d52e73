import { spawnSync } from 'node:child_process';

/** Whether CI (or the developer) asked for every tool a test needs to be there: then a missing one fails the test instead of skipping it. */
export const toolsRequired = (): boolean => process.env.CI === 'true' || process.env.PAYCTL_REQUIRE_TOOLS === '1';

export const hasTool = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/**
 * Whether the tools a suite needs are installed. On a developer's machine a
 * missing one skips the suite with a line saying so; in CI (CI=true or
 * PAYCTL_REQUIRE_TOOLS=1) it is an error, so that nothing is skipped unseen.
 */
export function requireTools(suite: string, names: readonly string[]): boolean {
  const missing = names.filter((name) => !hasTool(name));
  if (missing.length === 0) return true;
  const line = `${suite}: needs ${missing.join(', ')} (see .ci/run for the packages)`;
  if (toolsRequired()) throw new Error(`${line}; CI=true or PAYCTL_REQUIRE_TOOLS=1 requires them`);
  process.stderr.write(`SKIPPED ${line}\n`);
  return false;
}
