import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { inject, it, type TestFunction } from 'vitest';

/**
 * Programs some tests drive besides Node: shells for the completion scripts (bash, zsh, fish),
 * util-linux `script` and tmux for pseudo-terminals, D-Bus and gnome-keyring for a real
 * Secret Service, and PostgreSQL for the team ledger. A developer's machine may lack them; CI
 * must not. `npm test` on a machine with Node alone is green, and says which tests did not run.
 */
export type Tool =
  | 'bash' | 'zsh' | 'fish' | 'tmux' | 'script' | 'less'
  | 'dbus-daemon' | 'dbus-send' | 'gnome-keyring-daemon' | 'secret-tool'
  | 'postgresql';

const found = new Map<Tool, boolean>();
export function hasTool(tool: Tool): boolean {
  // PostgreSQL's programs are off PATH on Debian (test/helpers/postgres.ts finds them).
  if (!found.has(tool)) found.set(tool, tool === 'postgresql' ? postgresBin() !== undefined : spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0);
  return found.get(tool)!;
}

/** CI sets CI=true; .ci/run also sets PAYCTL_REQUIRE_TOOLS=1. Then a missing tool fails its tests. */
export const toolsRequired = (): boolean => process.env.CI === 'true' || process.env.PAYCTL_REQUIRE_TOOLS === '1';

/**
 * `it`, for a test that needs these tools. When one is missing: in CI the test fails saying
 * which; elsewhere a test named "SKIPPED: … not installed: NAME" passes, and the run's summary
 * (test/helpers/global-setup.ts) counts the tests that did not run, by tool.
 */
export function needsTools(...tools: Tool[]) {
  return (name: string, body: TestFunction, timeout?: number): void => {
    const missing = tools.filter((tool) => !hasTool(tool));
    if (missing.length === 0) return void it(name, body, timeout);
    const what = `${missing.join(' and ')} not installed`;
    if (toolsRequired()) {
      return void it(name, () => {
        throw new Error(`${what}: CI=true or PAYCTL_REQUIRE_TOOLS=1 requires every tool the tests use (${tools.join(', ')})`);
      });
    }
    it(`SKIPPED: ${what}: ${name}`, () => {
      appendFileSync(path.join(inject('suiteReportDir'), 'skipped.ndjson'), `${JSON.stringify({ missing, name })}\n`);
    });
  };
}

/** Whether every one of these tools is installed (for a suite's shared set-up, beside needsTools). */
export const hasTools = (...tools: Tool[]): boolean => tools.every(hasTool);

/** Debian's PostgreSQL keeps its programs in /usr/lib/postgresql/VERSION/bin, off PATH: the newest there. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}
