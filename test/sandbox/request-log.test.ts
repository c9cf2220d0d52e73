import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freshFetch } from '../helpers/fresh-fetch.js';
import { startSandboxProcess } from './helpers.js';

/** `sandbox start` in the background: its request log on stderr by default, in a file with --log, nowhere with --quiet. */
async function requestLogOf(args: readonly string[]): Promise<string> {
  const sandbox = await startSandboxProcess(['--customers', '5', ...args]);
  try {
    expect((await freshFetch(`${sandbox.url}/customers/not-a-uuid`)).status).toBe(401);
  } finally {
    sandbox.kill();
  }
  expect(await sandbox.exited).toBe(0);
  return sandbox.stderr();
}

describe('sandbox start: where the request log goes', () => {
  it('to stderr by default, to a file of its own (0600) with --log, nowhere with --quiet', async () => {
    expect(await requestLogOf([])).toMatch(/GET \/customers\/not-a-uuid 401/);

    expect(await requestLogOf(['--quiet'])).not.toContain('/customers/not-a-uuid');

    const file = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-sandbox-log-')), 'sandbox.log');
    expect(await requestLogOf(['--log', file])).not.toContain('/customers/not-a-uuid');
    expect(readFileSync(file, 'utf8')).toMatch(/^GET \/customers\/not-a-uuid 401/m);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('--quiet with --log, or a --log file that cannot be written, is exit 2 naming the flags', async () => {
    const both = await runCli(['sandbox', 'start', '--port', '0', '--quiet', '--log', 'x.log']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--quiet and --log cannot be used together');
    const unwritable = await runCli(['sandbox', 'start', '--port', '0', '--log', '/nonexistent-folder/sandbox.log']);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain('--log /nonexistent-folder/sandbox.log: cannot write it (ENOENT)');
    expect(unwritable.stdout).not.toContain('listening on');
  });
});
