import { describe, expect, it } from 'vitest';
import { runCliInTerminal } from '../helpers/cli.js';
import { parsed } from '../commands/helpers.js';
import { csvFile, expectPaidOnce, PIX_HEADER, pixBatchThrough, pixKeys, pixRows, sandboxBehindProxy, sandboxWithdrawals } from './helpers.js';

/**
 * `withdraw batch --wait` follows every row it sent to COMPLETED or FAILED. The
 * sandbox settles nothing on its own here: each withdrawal is settled by hand
 * when payctl's first read of it reaches the proxy, so what payctl reads is
 * decided by the test, never by a clock.
 */
const world = sandboxBehindProxy();

interface Row {
  line: number;
  outcome: string;
  withdrawalId: string;
  status: string;
}

/** Settles each withdrawal of the prefix, when payctl first reads it, as `statusOf` its PIX key says. */
function settleOnFirstRead(statusOf: (pixKey: string) => 'COMPLETED' | 'FAILED') {
  const settled = new Map<string, Promise<void>>();
  world.proxy.holdGets((request) => {
    const id = /^\/withdrawals\/([0-9a-f-]{36})$/.exec(request.url)?.[1];
    if (!id) return undefined;
    if (!settled.has(id)) {
      settled.set(id, (async () => {
        const made = (await sandboxWithdrawals(world.session)).find((w) => w.id === id)!;
        parsed(await world.session.run(['sandbox', 'settle', id, '--status', statusOf(made.pixKey!), '--json']));
      })());
    }
    return settled.get(id);
  });
}

describe('withdraw batch --wait', () => {
  it('every row COMPLETED: exit 0, the report shows each one COMPLETED, each paid once', async () => {
    const file = csvFile('done.csv', [PIX_HEADER, ...pixRows('waitdone', 3, world.bank)]);
    settleOnFirstRead(() => 'COMPLETED');
    const result = await pixBatchThrough(world.session, world.proxy, file, ['--wait', '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Row[];
    expect(report.map((row) => [row.line, row.outcome, row.status])).toEqual([2, 3, 4].map((line) => [line, 'sent', 'COMPLETED']));
    expect(result.stderr).toContain('waited: 3 COMPLETED, 0 FAILED, 0 still PENDING');
    await expectPaidOnce(world.session, 'waitdone', pixKeys('waitdone', 3));
  });

  it('one row FAILED: exit 1 naming it, the others COMPLETED, nothing sent again', async () => {
    const file = csvFile('mixed.csv', [PIX_HEADER, ...pixRows('waitmixed', 3, world.bank)]);
    settleOnFirstRead((key) => (key === 'waitmixed-1@example.com' ? 'FAILED' : 'COMPLETED'));
    const result = await pixBatchThrough(world.session, world.proxy, file, ['--wait', '-o', 'json']);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Row[];
    expect(report.map((row) => row.status)).toEqual(['COMPLETED', 'FAILED', 'COMPLETED']);
    // In json modes stderr is the JSON error alone: it names the line.
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { message: expect.stringContaining('1 withdrawal FAILED (line 3): the platform did not pay'), exitCode: 1 } });
    await expectPaidOnce(world.session, 'waitmixed', pixKeys('waitmixed', 3));
  });

  it('past --wait-timeout: exit 5, the rows still PENDING and paid once', async () => {
    world.proxy.holdGets(() => undefined);
    const file = csvFile('slow.csv', [PIX_HEADER, ...pixRows('waitslow', 2, world.bank)]);
    const result = await world.session.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--wait', '--wait-timeout', '1', '-o', 'json']);
    expect(result.code, result.stderr).toBe(5);
    expect((JSON.parse(result.stdout) as Row[]).map((row) => row.status)).toEqual(['PENDING', 'PENDING']);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { message: '2 withdrawals made and still PENDING after 1 s (lines 2, 3)', exitCode: 5 } });
    await expectPaidOnce(world.session, 'waitslow', pixKeys('waitslow', 2));
  });

  it('at a terminal, one progress line on stderr while it waits', async () => {
    const file = csvFile('tty.csv', [PIX_HEADER, ...pixRows('waittty', 2, world.bank)]);
    const args = ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--wait', '--wait-timeout', '1'];
    const result = await runCliInTerminal(args, { env: world.session.env, stderrOnTerminal: true });
    expect(result.code, result.stdout).toBe(5);
    expect(result.stdout).toMatch(/waiting for 2 withdrawals: 0 COMPLETED, 0 FAILED, 2 not yet \(\d+ s\)/);
    expect(result.stdout).toContain('waited: 0 COMPLETED, 0 FAILED, 2 still PENDING');
    expect(result.stdout).toMatch(/PENDING  line 2: withdrawal [0-9a-f-]{36}/);
    expect(result.stdout).toContain('hint: do not send them again; follow each with: payctl withdrawals get ID');
    await expectPaidOnce(world.session, 'waittty', pixKeys('waittty', 2));
  });
});
