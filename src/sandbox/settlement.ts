/**
 * Withdrawals that settle on their own, as on the platform: each PENDING
 * withdrawal becomes COMPLETED, or for a share of them FAILED, a delay after it
 * was created (or after the sandbox started, for those already PENDING then).
 * A settlement is a change like any other: logged before its postback goes.
 */
import { ChangeSet } from './changes.js';
import { settleWithdrawal } from './handlers/withdrawals.js';
import type { PostbackDispatcher } from './postbacks.js';
import { Prng } from './random.js';
import type { Account, Company, SandboxStore } from './store.js';

export interface AutoSettlementOptions {
  /** milliseconds from a withdrawal's creation to its settlement */
  settleAfterMs: number;
  /** share of settlements, 0 to 1, that are FAILED (default 0.1) */
  failedShare?: number;
}

export const DEFAULT_FAILED_SHARE = 0.1;

const accountsOf = (company: Company): Account[] => [company.account, ...company.subaccountAccounts.values()];

export class AutoSettlement {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly outcomes: Prng;
  private readonly startedMs = Date.now();

  constructor(
    private readonly options: AutoSettlementOptions,
    seed: number,
    private readonly store: SandboxStore,
    private readonly postbacks: PostbackDispatcher,
    /** makes a settlement's changes durable, then sends its postback */
    private readonly commit: (company: Company, changes: ChangeSet) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {
    this.outcomes = new Prng(seed, 'settlements');
  }

  /** Schedules every PENDING withdrawal of the company (at start, and after a reset). */
  scheduleCompany(company: Company): void {
    for (const account of accountsOf(company)) {
      for (const withdrawal of account.withdrawals.all()) {
        if (withdrawal.status === 'PENDING') this.schedule(company.id, account.key, withdrawal.id, withdrawal.createdAt);
      }
    }
  }

  /** Settles the withdrawal settleAfterMs after `createdAt` (no sooner than that long after start). */
  schedule(companyId: string, accountKey: string, withdrawalId: string, createdAt: string): void {
    const dueMs = Math.max(Date.parse(createdAt), this.startedMs) + this.options.settleAfterMs;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.settle(companyId, accountKey, withdrawalId).catch((error: Error) => this.log(`could not settle withdrawal ${withdrawalId}: ${error.message}`));
    }, Math.max(0, dueMs - Date.now()));
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Looked up afresh: it may have been settled by hand, or its company reset, meanwhile. */
  private async settle(companyId: string, accountKey: string, withdrawalId: string): Promise<void> {
    const company = this.store.company(companyId);
    const account = company && accountsOf(company).find((candidate) => candidate.key === accountKey);
    const withdrawal = account?.withdrawals.get(withdrawalId);
    if (!company || !account || withdrawal?.status !== 'PENDING') return;
    const status = this.outcomes.chance(this.options.failedShare ?? DEFAULT_FAILED_SHARE) ? 'FAILED' : 'COMPLETED';
    const changes = new ChangeSet();
    settleWithdrawal({ company, account, withdrawal, status, now: new Date() }, this.postbacks, changes);
    await this.commit(company, changes);
  }
}
