/** The sandbox's in-memory state: companies, their accounts and resources, with id indexes. */
import type { BankAccount, Card, Customer, Subaccount, Subscription, Withdrawal } from '../api/types.js';

/** Balances in integer cents: money never goes through floats inside the sandbox. */
export interface BalanceCents {
  pix: number;
  card: number;
  billet: number;
  processing: number;
}

/**
 * Makes `target` hold exactly the fields of `source`, keeping its identity (lists
 * and indexes refer to it) and taking the key order of `source`.
 */
export function replaceContents<T extends object>(target: T, source: T): void {
  for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key];
  Object.assign(target, source);
}

/** Records in insertion order with an id index: pages are slices, lookups are O(1). */
export class IndexedList<T extends { id: string | number }> {
  private readonly items: T[];
  private readonly byId = new Map<T['id'], T>();

  constructor(items: T[] = []) {
    this.items = items;
    for (const item of items) this.byId.set(item.id, item);
  }

  get size(): number {
    return this.items.length;
  }

  get(id: T['id']): T | undefined {
    return this.byId.get(id);
  }

  add(item: T): void {
    this.items.push(item);
    this.byId.set(item.id, item);
  }

  /** Adds the record, or makes the one with its id hold exactly its fields (replaying a logged change). */
  put(record: T): void {
    const existing = this.byId.get(record.id);
    if (existing) replaceContents(existing, record);
    else this.add(record);
  }

  remove(id: T['id']): boolean {
    const item = this.byId.get(id);
    if (!item) return false;
    this.byId.delete(id);
    this.items.splice(this.items.indexOf(item), 1);
    return true;
  }

  all(): readonly T[] {
    return this.items;
  }

  /** Page `page` (from 1) of `limit` items, oldest first or newest first. */
  page(page: number, limit: number, order: 'oldestFirst' | 'newestFirst' = 'oldestFirst'): T[] {
    const start = (page - 1) * limit;
    if (order === 'oldestFirst') return this.items.slice(start, start + limit);
    const end = this.items.length - start;
    return end <= 0 ? [] : this.items.slice(Math.max(0, end - limit), end).reverse();
  }

}

export interface CustomerDirectorySnapshot {
  /** seeded customers changed at run time; the others are generated again from the seed */
  materialized: Customer[];
  /** customers created at run time (sandbox fixtures) */
  created: Customer[];
}

/**
 * A company's customers: `seededCount` seeded ones, each generated on first
 * read and kept from then on (so updates stick), then those created at run
 * time. Starting with 100,000 customers costs nothing until they are read, and
 * a snapshot carries the customers changed, not all of them.
 */
export class CustomerDirectory {
  private readonly generated: Array<Customer | undefined>;
  /** indexes of the seeded customers changed since they were generated */
  private readonly changedSeeded = new Set<number>();
  private readonly created: IndexedList<Customer>;
  /** UTF-8 JSON of each customer already serialised: customer pages are the hot read path */
  private readonly jsonCache = new WeakMap<Customer, Buffer>();

  constructor(
    private readonly seededCount: number,
    /** index of the seeded customer with this id, or undefined: ids encode their index, so no map is needed */
    private readonly seededIndexOf: (id: string) => number | undefined,
    private readonly generate: (index: number) => Customer,
    saved?: CustomerDirectorySnapshot,
  ) {
    this.generated = new Array<Customer | undefined>(seededCount);
    this.created = new IndexedList(saved?.created ?? []);
    for (const customer of saved?.materialized ?? []) this.put(customer);
  }

  get size(): number {
    return this.seededCount + this.created.size;
  }

  get(id: string): Customer | undefined {
    const index = this.seededIndexOf(id);
    return index === undefined ? this.created.get(id) : this.seeded(index);
  }

  add(customer: Customer): void {
    this.created.add(customer);
  }

  /** Adds the customer, or makes the one with its id hold exactly its fields (replaying a logged change). */
  put(customer: Customer): void {
    const index = this.seededIndexOf(customer.id);
    if (index === undefined) return this.created.put(customer);
    const current = this.generated[index];
    if (current) {
      replaceContents(current, customer);
      this.jsonCache.delete(current);
    } else {
      this.generated[index] = customer;
    }
    this.changedSeeded.add(index);
  }

  /** Page `page` (from 1) of `limit` customers, oldest first. */
  page(page: number, limit: number): Customer[] {
    const start = (page - 1) * limit;
    const end = Math.min(start + limit, this.size);
    const customers: Customer[] = [];
    for (let position = start; position < Math.min(end, this.seededCount); position++) customers.push(this.seeded(position));
    customers.push(...this.created.all().slice(Math.max(start - this.seededCount, 0), Math.max(end - this.seededCount, 0)));
    return customers;
  }

  /** The customer's UTF-8 JSON, serialised once until changed() is called for it. */
  json(customer: Customer): Buffer {
    let bytes = this.jsonCache.get(customer);
    if (bytes === undefined) this.jsonCache.set(customer, (bytes = Buffer.from(JSON.stringify(customer), 'utf8')));
    return bytes;
  }

  /** Must follow every change to a customer record, so its cached JSON is not served stale and a snapshot keeps it. */
  changed(customer: Customer): void {
    this.jsonCache.delete(customer);
    const index = this.seededIndexOf(customer.id);
    if (index !== undefined) this.changedSeeded.add(index);
  }

  toSnapshot(): CustomerDirectorySnapshot {
    return { materialized: [...this.changedSeeded].sort((a, b) => a - b).map((index) => this.seeded(index)), created: [...this.created.all()] };
  }

  private seeded(index: number): Customer {
    return (this.generated[index] ??= this.generate(index));
  }
}

/** The main account of a company or one of its sub-accounts: what x-subaccount-id switches between. */
export interface Account {
  /** MAIN_ACCOUNT_KEY, or the sub-account's id */
  key: string;
  bankAccounts: IndexedList<BankAccount>;
  withdrawals: IndexedList<Withdrawal>;
  balance: BalanceCents;
}

export interface Company {
  id: string;
  clientId: string;
  clientSecret: string;
  name: string;
  account: Account;
  subaccounts: IndexedList<Subaccount>;
  subaccountAccounts: Map<string, Account>;
  customers: CustomerDirectory;
  cards: IndexedList<Card>;
  subscriptions: IndexedList<Subscription>;
}

export interface AccountSnapshot {
  bankAccounts: BankAccount[];
  withdrawals: Withdrawal[];
  balance: BalanceCents;
}

export interface CompanySnapshot {
  id: string;
  clientId: string;
  clientSecret: string;
  name: string;
  account: AccountSnapshot;
  subaccounts: Array<{ subaccount: Subaccount; account: AccountSnapshot }>;
  customers: CustomerDirectorySnapshot;
  cards: Card[];
  subscriptions: Subscription[];
}

export const SNAPSHOT_FORMAT = 'payctl-sandbox/2';

export interface StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  /** seed parameters, kept so that POST /sandbox/reset restores the same data after a restart */
  seed: number;
  customers: number;
  /** HS256 key, kept so that tokens survive a restart with a data file */
  jwtKey: string;
  nextBankAccountId: number;
  companies: CompanySnapshot[];
}

export const MAIN_ACCOUNT_KEY = 'main';

export const emptyAccount = (key: string, balance: BalanceCents = { pix: 0, card: 0, billet: 0, processing: 0 }): Account => ({
  key,
  bankAccounts: new IndexedList(),
  withdrawals: new IndexedList(),
  balance,
});

const accountFromSnapshot = (key: string, snapshot: AccountSnapshot): Account => ({
  key,
  bankAccounts: new IndexedList(snapshot.bankAccounts),
  withdrawals: new IndexedList(snapshot.withdrawals),
  balance: snapshot.balance,
});

const accountToSnapshot = (account: Account): AccountSnapshot => ({
  bankAccounts: [...account.bankAccounts.all()],
  withdrawals: [...account.withdrawals.all()],
  balance: account.balance,
});

/** The company of a snapshot; its customer directory is built by the caller, which knows the seed. */
export function companyFromSnapshot(snapshot: CompanySnapshot, customers: CustomerDirectory): Company {
  return {
    id: snapshot.id,
    clientId: snapshot.clientId,
    clientSecret: snapshot.clientSecret,
    name: snapshot.name,
    account: accountFromSnapshot(MAIN_ACCOUNT_KEY, snapshot.account),
    subaccounts: new IndexedList(snapshot.subaccounts.map((entry) => entry.subaccount)),
    subaccountAccounts: new Map(snapshot.subaccounts.map((entry) => [entry.subaccount.id, accountFromSnapshot(entry.subaccount.id, entry.account)])),
    customers,
    cards: new IndexedList(snapshot.cards),
    subscriptions: new IndexedList(snapshot.subscriptions),
  };
}

export function companyToSnapshot(company: Company): CompanySnapshot {
  return {
    id: company.id,
    clientId: company.clientId,
    clientSecret: company.clientSecret,
    name: company.name,
    account: accountToSnapshot(company.account),
    subaccounts: company.subaccounts.all().map((subaccount) => ({
      subaccount,
      account: accountToSnapshot(company.subaccountAccounts.get(subaccount.id)!),
    })),
    customers: company.customers.toSnapshot(),
    cards: [...company.cards.all()],
    subscriptions: [...company.subscriptions.all()],
  };
}

/** Bank account ids created at run time start here, above every seeded id, so a reset never reuses one. */
export const FIRST_RUNTIME_BANK_ACCOUNT_ID = 100_000;

export class SandboxStore {
  private readonly companiesById = new Map<string, Company>();

  constructor(
    readonly seed: number,
    readonly customerCount: number,
    readonly jwtKey: Buffer,
    companies: Company[],
    private nextBankAccountId: number = FIRST_RUNTIME_BANK_ACCOUNT_ID,
  ) {
    for (const company of companies) this.companiesById.set(company.id, company);
  }

  companies(): Company[] {
    return [...this.companiesById.values()];
  }

  company(id: string): Company | undefined {
    return this.companiesById.get(id);
  }

  companyByClientId(clientId: string): Company | undefined {
    return this.companies().find((company) => company.clientId === clientId);
  }

  /** Replaces a company's state, keeping its id (and so its tokens) valid. */
  replaceCompany(company: Company): void {
    this.companiesById.set(company.id, company);
  }

  allocateBankAccountId(): number {
    return this.nextBankAccountId++;
  }

  /** Keeps ids allocated from here on above `id` (replaying a logged change). */
  noteBankAccountId(id: number): void {
    this.nextBankAccountId = Math.max(this.nextBankAccountId, id + 1);
  }

  toSnapshot(): StoreSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      seed: this.seed,
      customers: this.customerCount,
      jwtKey: this.jwtKey.toString('base64'),
      nextBankAccountId: this.nextBankAccountId,
      companies: this.companies().map(companyToSnapshot),
    };
  }

  /** The store of a snapshot; `restoreCompany` rebuilds each company (seed.ts knows how to regenerate its customers). */
  static fromSnapshot(snapshot: StoreSnapshot, restoreCompany: (company: CompanySnapshot) => Company): SandboxStore {
    if (snapshot.format !== SNAPSHOT_FORMAT) throw new Error(`unsupported sandbox data format ${String(snapshot.format)}`);
    return new SandboxStore(
      snapshot.seed,
      snapshot.customers,
      Buffer.from(snapshot.jwtKey, 'base64'),
      snapshot.companies.map(restoreCompany),
      snapshot.nextBankAccountId,
    );
  }
}
