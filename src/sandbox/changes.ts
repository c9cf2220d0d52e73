/**
 * What a request changed, record by record. Handlers note each record they
 * create, change or remove; with --data the server appends the notes to the log
 * before answering, and a restart replays them onto the last snapshot. Each
 * change carries the whole record as it is after the request, so replaying one
 * twice, or onto a state that already has it, gives the same result.
 */
import type { BankAccount, Card, Customer, Subaccount, Subscription, Withdrawal } from '../api/types.js';
import { emptyAccount, replaceContents, type Account, type BalanceCents, type Company, type SandboxStore } from './store.js';

export type Change =
  | { kind: 'customer'; record: Customer }
  | { kind: 'card'; record: Card }
  | { kind: 'subscription'; record: Subscription }
  | { kind: 'subaccount'; record: Subaccount }
  | { kind: 'bankAccount'; account: string; record: BankAccount }
  | { kind: 'bankAccountRemoved'; account: string; id: number }
  | { kind: 'withdrawal'; account: string; record: Withdrawal }
  | { kind: 'balance'; account: string; record: BalanceCents }
  /** the company went back to its seed */
  | { kind: 'reset' };

/** The changes of one request (or one automatic settlement), and what must wait until they are durable. */
export class ChangeSet {
  readonly changes: Change[] = [];
  /** actions that announce a change outside (postbacks): run only once the change is on disk */
  readonly afterDurable: Array<() => void> = [];

  customer(record: Customer): void {
    this.changes.push({ kind: 'customer', record });
  }

  card(record: Card): void {
    this.changes.push({ kind: 'card', record });
  }

  subscription(record: Subscription): void {
    this.changes.push({ kind: 'subscription', record });
  }

  subaccount(record: Subaccount): void {
    this.changes.push({ kind: 'subaccount', record });
  }

  bankAccount(account: Account, record: BankAccount): void {
    this.changes.push({ kind: 'bankAccount', account: account.key, record });
  }

  bankAccountRemoved(account: Account, id: number): void {
    this.changes.push({ kind: 'bankAccountRemoved', account: account.key, id });
  }

  withdrawal(account: Account, record: Withdrawal): void {
    this.changes.push({ kind: 'withdrawal', account: account.key, record });
  }

  balance(account: Account): void {
    this.changes.push({ kind: 'balance', account: account.key, record: account.balance });
  }

  reset(): void {
    this.changes.push({ kind: 'reset' });
  }
}

/** The account a change names: the main account, or a sub-account's (created with it when replaying its creation). */
function accountOf(company: Company, key: string): Account {
  if (key === company.account.key) return company.account;
  let account = company.subaccountAccounts.get(key);
  if (!account) company.subaccountAccounts.set(key, (account = emptyAccount(key)));
  return account;
}

/** Replays one logged change of `companyId` onto the store; `reseed` gives a company back its seeded state. */
export function applyChange(store: SandboxStore, companyId: string, change: Change, reseed: (company: Company) => Company): void {
  const company = store.company(companyId);
  if (!company) throw new Error(`the data log names an unknown company ${companyId}`);
  switch (change.kind) {
    case 'customer':
      return company.customers.put(change.record);
    case 'card':
      return company.cards.put(change.record);
    case 'subscription':
      return company.subscriptions.put(change.record);
    case 'subaccount':
      company.subaccounts.put(change.record);
      accountOf(company, change.record.id);
      return;
    case 'bankAccount':
      accountOf(company, change.account).bankAccounts.put(change.record);
      return store.noteBankAccountId(change.record.id);
    case 'bankAccountRemoved':
      accountOf(company, change.account).bankAccounts.remove(change.id);
      return store.noteBankAccountId(change.id);
    case 'withdrawal':
      return accountOf(company, change.account).withdrawals.put(change.record);
    case 'balance':
      return replaceContents(accountOf(company, change.account).balance, change.record);
    case 'reset':
      return store.replaceCompany(reseed(company));
  }
}
