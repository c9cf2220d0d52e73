import { describe, expect, it } from 'vitest';
import type { RowState } from '../../src/batch/journal.js';
import type { JournalRecord } from '../../src/batch/journal.js';
import { parseBatch, type BatchRow } from '../../src/batch/rows.js';
import { settleUnknownRows } from '../../src/batch/settle.js';
import { CachedRunConfig } from '../../src/config/run.js';
import { parseFlags } from '../../src/flags.js';
import { createApiClient } from '../../src/http/client.js';
import type { LedgerRun } from '../../src/ledger/ledger.js';
import { SecretScrubber } from '../../src/redact.js';
import { tempConfigDir } from '../helpers/cli.js';
import { sandboxToken, sandboxWithdrawals, startSandboxSession } from '../helpers/sandbox.js';
import { fundedMainAccount } from '../money/helpers.js';

/**
 * `--reconcile` in-process, against a real sandbox over HTTP: rows of unknown
 * outcome are looked for in the withdrawals list, and what was decided is
 * appended to the journal and set in the row states. Nothing is sent: the
 * sandbox's own count of withdrawals is the same before and after.
 */
function cardRows(bank: string, amounts: readonly number[]): BatchRow[] {
  const { rows, problems } = parseBatch(['amount,bank_account_id', ...amounts.map((amount) => `${amount},${bank}`)].join('\n'), 'card', null, {
    separator: ',',
    allowDuplicateRows: false,
  });
  expect(problems).toEqual([]);
  return rows;
}

/** A row whose intent was written at `at` (and on the API's clock at `apiAt`, when the run knew it) with no outcome after. */
const unknownWithIntent = (row: BatchRow, at: string, apiAt?: string): RowState => ({
  state: 'unknown',
  intent: { type: 'intent', key: row.key, line: row.line, account: null, amount: row.request.amount, bankAccountId: row.request.bankAccountId, occurrence: 1, at, ...(apiAt ? { apiAt } : {}) },
});

describe('settling rows of unknown outcome', () => {
  it('a row whose withdrawal is listed is done, one not listed is to send again, one without the API time stays unknown; nothing is sent', async () => {
    const s = await startSandboxSession('acme');
    try {
      const bank = await fundedMainAccount(s);
      const [paid, absent, undecided] = cardRows(bank, [24_680, 24_681, 24_682]);
      const before = new Date(Date.now() - 1000).toISOString();
      const sent = await s.run(['withdraw', 'card', '--main-account', '--amount', '24680', '--bank-account', bank, '--yes', '--json']);
      expect(sent.code, sent.stderr).toBe(0);
      const withdrawalId = (JSON.parse(sent.stdout) as { id: string }).id;
      const count = (await sandboxWithdrawals(s)).length;

      const orphan = 'f'.repeat(32);
      const states = new Map<string, RowState>([
        [paid!.key, unknownWithIntent(paid!, before, before)],
        [absent!.key, unknownWithIntent(absent!, before, before)],
        [undecided!.key, unknownWithIntent(undecided!, before)],
        // A first intent cut by a crash, of a row no longer in the file: it never left.
        [orphan, { state: 'unknown' }],
      ]);
      const records: JournalRecord[] = [];
      const notes: string[] = [];
      const token = await sandboxToken(s);
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: s.sandbox.url, PAYCTL_TOKEN: token };
      const config = new CachedRunConfig(env, parseFlags({}), new SecretScrubber());
      const run: LedgerRun = Object.assign(config, { warn: () => undefined, debug: () => undefined, onEnd: [] });
      const client = createApiClient({ baseUrl: s.sandbox.url, token, timeoutMs: 30_000 });

      const reconciled = await settleUnknownRows(run, {
        method: 'card',
        rows: [paid!, absent!, undecided!],
        states,
        journal: { append: (record) => void records.push(record), flush: () => Promise.resolve() },
        clientFor: () => client,
        by: 'withdraw batch --reconcile',
        note: (text) => Promise.resolve(void notes.push(text)),
      });

      expect([...reconciled]).toEqual([paid!.key]);
      expect(states.get(paid!.key)).toEqual({ state: 'done', withdrawalId, status: expect.any(String), intent: expect.objectContaining({ key: paid!.key }) });
      expect(states.get(absent!.key)).toEqual({ state: 'new' });
      expect(states.get(orphan)).toEqual({ state: 'new' });
      expect(states.get(undecided!.key)).toMatchObject({ state: 'unknown', error: expect.stringMatching(/^cannot be settled: its intent did not record the API's time/) });
      expect(records.map((record) => [record.type, 'key' in record ? record.key : undefined]).sort()).toEqual(
        [
          ['absent', absent!.key],
          ['absent', orphan],
          ['done', paid!.key],
        ].sort(),
      );
      expect(records.find((record) => record.type === 'done')).toMatchObject({ withdrawalId, reconciled: true });
      expect(notes.at(-1)).toBe('reconcile: 1 of 4 unknown rows were paid (found in withdrawals list); 2 were not, and those still in the file are sent; 1 cannot be decided and stay unknown');
      expect((await sandboxWithdrawals(s)).length).toBe(count);
    } finally {
      await s.close();
    }
  });
});
