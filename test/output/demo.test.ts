import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cleanEnv } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';

/**
 * `npm run demo` shows a newcomer what a person sees at a terminal (tables, R$ and
 * CPF formats, a confirmation, footers) when util-linux `script` is there, the
 * piped form with a note when not, and exits 0 either way, as in CI.
 */

function demo(env: Record<string, string | undefined>): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/demo.mjs')], { env: cleanEnv({ CI: 'true', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

// The two demos share nothing but the build: they run side by side.
describe.concurrent('npm run demo', () => {
  needsTools('script')('runs every step at a pseudo-terminal: tables 80 columns wide, formats, the confirmation, footers; exit 0', async () => {
    const { code, output } = await demo({});
    expect(code, output).toBe(0);
    expect(output).toMatch(/^\$ payctl customers list --limit 5\nID {2,}NAME {2,}EMAIL {2,}DOCUMENT$/m);
    expect(output).toContain('showing 5 of 250 customers; next page (or --all):\npayctl customers list --limit 5 --page 2\n');
    expect(output).toMatch(/^document +\d{3}\.\d{3}\.\d{3}-\d{2}$/m);
    expect(output).toMatch(/^phone number +\+55 \(\d\d\) \d{4,5}-\d{4}$/m);
    expect(output).toMatch(/^address zipcode +\d{5}-\d{3}$/m);
    expect(output).toMatch(/^pix available +R\$ [\d.]+,\d\d$/m);
    expect(output).toContain('About to withdraw by PIX:\n  amount:       R$ 25,00 (2500 cents)');
    expect(output).toMatch(/^created at +\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    // The tables fit: the lines of the lists (ids by their first 8 characters) are within 80 columns.
    const listLines = output.split('\n').filter((line) => /^[0-9a-f]{8} {2}/.test(line));
    expect(listLines.length).toBeGreaterThan(10);
    expect(listLines.filter((line) => line.length > 80)).toEqual([]);
    expect(output).not.toContain('\r');
    expect(output).not.toContain('\u001b');
  });

  it('without util-linux script, shows the piped form with a note, and exits 0', async () => {
    const { code, output } = await demo({ PATH: path.join(ROOT, 'no-such-folder') });
    expect(code, output).toBe(0);
    expect(output).toContain("(util-linux `script` is not installed, so each command's output goes into a pipe");
    expect(output).toMatch(/^\$ payctl customers list --limit 5\n[0-9a-f-]{36}\t[^\t]+\t[^\t]+\t\S+@\S+\t\d+\tAPPROVED$/m);
    expect(output).toContain('That was payctl.');
  });
});
