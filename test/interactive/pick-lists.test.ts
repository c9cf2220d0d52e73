import { cpSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankAccount, Card, Customer, Split, Subaccount, Subscription, SubscriptionListItem, Withdrawal } from '../../src/api/types.js';
import { tempConfigDir } from '../helpers/cli.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { runCliOnScreen, type ScreenStep } from '../helpers/screen.js';
import { needsTools } from '../helpers/tools.js';
import { plain, sandboxReader, type SandboxReader } from '../commands/helpers.js';

/**
 * Every command whose id (or picked flag) is left out, on a terminal (tmux) against a
 * sandbox: the list is offered, labelled for people (docs/decisions.md, "Support at a
 * terminal"), and the entry chosen is the one the command acts on, as its output or the
 * sandbox read through its own API shows. Without a terminal the same command exits 2
 * naming what is missing. What each list should show is worked out here from the
 * sandbox's own answers, spelt out independently of payctl's formatters.
 */
/** Entries a list shows at once (src/prompt.ts): a longer one shows its first page. */
const PAGE_SIZE = 12;
const TYPE_AN_ID = '… type an id';
const SEARCH_AGAIN = '… search again';

let s: SandboxSession;
let api: SandboxReader;
beforeAll(async () => {
  s = await startSandboxSession('acme');
  api = await sandboxReader(s);
});
afterAll(() => s?.close());

// ---- how people read the sandbox's data in a list ----

/** `R$ 1.234,56`. */
const brl = (cents: number) => {
  const [reais, centavos] = (cents / 100).toFixed(2).split('.') as [string, string];
  return `R$ ${reais.replace(/\B(?=(\d{3})+$)/g, '.')},${centavos}`;
};
const documentShown = (digits: string) =>
  digits.length === 11
    ? digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4')
    : digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const fullName = (customer: Customer) => `${customer.firstName} ${customer.lastName}`;

const customerEntry = (customer: Customer) => `${fullName(customer)} <${customer.email}> · ${documentShown(customer.document)}`;
const subscriptionEntry = (subscription: SubscriptionListItem, names: ReadonlyMap<string, string>) =>
  [
    subscription.title,
    names.get(subscription.customerId),
    `${brl(subscription.amount)} ${subscription.frequency === 1 ? 'every day' : `every ${subscription.frequency} days`}`,
    subscription.status,
  ].join(' · ');
const subaccountEntry = (subaccount: Subaccount) => `${subaccount.name} · ${subaccount.status}`;
const bankAccountEntry = (account: BankAccount) =>
  `${account.holderName} · bank ${account.bankCode} · branch ${account.routingNumber} · account ${account.accountNumber} (${account.accountType})`;
/** Times in UTC: the runs set TZ=UTC. */
const withdrawalEntry = (withdrawal: Withdrawal) =>
  [
    brl(withdrawal.amount),
    withdrawal.withdrawalPaymentType,
    withdrawal.status,
    withdrawal.createdAt.slice(0, 16).replace('T', ' '),
    ...(withdrawal.pixKey ? [`PIX ${withdrawal.pixKey}`] : []),
  ].join(' · ');
const cardEntry = (card: Card) =>
  [
    `${card.cardBrand} ${card.first4Digits}…${card.last4Digits}`,
    card.holderName,
    `expires ${card.expirationMonth}/${card.expirationYear}`,
    ...(card.isActive ? [] : ['inactive']),
  ].join(' · ');
const splitEntry = (split: Split, subaccounts: readonly Subaccount[]) =>
  [
    `${split.splitType === 'AMOUNT' ? brl(split.splitAmount ?? 0) : `${split.splitPercentage}% of the amount`} to ` +
      `${subaccounts.find((subaccount) => subaccount.id === split.subaccountId)?.name} (${split.subaccountId})`,
    ...(split.chargebackLiable ? ['chargeback liable'] : []),
  ].join(' · ');

// ---- the sandbox's data, read through its API ----

const customers = () => api.all<Customer>('/customers');
const subscriptions = () => api.all<SubscriptionListItem>('/subscriptions');
const subscription = (id: string) => api.get<Subscription>(`/subscriptions/${id}`);
const bankAccounts = () => api.all<BankAccount>('/bank_accounts');
const sandboxSubaccounts = () => api.all<Subaccount>('/sandbox/subaccounts');

async function customerNames(): Promise<Map<string, string>> {
  return new Map((await customers()).map((customer) => [customer.id, fullName(customer)]));
}

/** Subscriptions a picker offers (`keep`), as its entries, with "type an id" after them. */
async function subscriptionList(keep: (subscription: SubscriptionListItem) => boolean) {
  const [names, kept] = await Promise.all([customerNames(), subscriptions().then((all) => all.filter(keep))]);
  return { kept, entries: [...kept.map((item) => subscriptionEntry(item, names)), TYPE_AN_ID] };
}
const notCancelled = (item: SubscriptionListItem) => item.status !== 'DELETED';
const withSplits = (item: SubscriptionListItem) => notCancelled(item) && item.splits.length > 0;

// ---- driving the terminal ----

interface ListPick {
  /** The question above the list. */
  message: string;
  /** What the list should offer, in order, as people read it. */
  entries: readonly string[];
  /** The entry to choose. */
  choose: number;
  /** Typed into the list to bring the chosen entry first (a searchable list); otherwise ↓ is pressed `choose` times. */
  search?: string;
}
type Step = ListPick | ScreenStep;

interface Plan {
  /** The command at the terminal, its id left out. */
  args: readonly string[];
  steps: readonly Step[];
  /** What the run did, on the screen and in the sandbox. */
  verify(screen: string): Promise<void>;
  env?: Record<string, string>;
}

interface PickCase {
  name: string;
  /** Whether it changes the sandbox: those run one after another, after the others. */
  changes: boolean;
  /** The same command without a terminal, and what its refusal names. */
  script: { args: readonly string[]; input?: string; names: string };
  plan(): Promise<Plan>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A list drawn whole: its question, the entry under the cursor, the help line inquirer draws last. */
const listShown = (message: string) => new RegExp(`^\\? ${escapeRegExp(message)}.*\\n❯ [\\s\\S]*navigate`, 'm');
/** The entries drawn under a question, without the cursor's column. */
function listedEntries(screen: string, message: string): string[] {
  const lines = screen.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`? ${message}`));
  const entries: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!/^(❯ | {2})\S/.test(line)) break;
    entries.push(line.slice(2));
  }
  return entries;
}
/** A question answered by typing: a search, a secret. */
const answer = (question: string, typed: string): ScreenStep => ({ after: `? ${question}`, keys: [typed, 'Enter'] });
const confirmYes: ScreenStep = { after: '(y/N)', keys: ['y', 'Enter'] };

function keysFor(pick: ListPick): ScreenStep[] {
  const shown = listShown(pick.message);
  if (pick.search === undefined) return [{ after: shown, keys: [...Array<string>(pick.choose).fill('Down'), 'Enter'] }];
  // Enter only once the search has brought the chosen entry under the cursor.
  return [
    { after: shown, keys: [pick.search] },
    { after: `❯ ${pick.entries[pick.choose]}`, keys: ['Enter'] },
  ];
}

async function runPicked({ args, steps, verify, env }: Plan): Promise<void> {
  const screenSteps: ScreenStep[] = [];
  const lists: Array<{ pick: ListPick; seenAt: number }> = [];
  for (const step of steps) {
    if ('keys' in step) {
      screenSteps.push(step);
      continue;
    }
    const chosen = step.entries[step.choose];
    expect(chosen, `${step.message}: entry ${step.choose} of ${step.entries.length}`).toBeDefined();
    // Otherwise the test could not tell the chosen entry from another drawn the same.
    expect(step.entries.filter((entry) => entry === chosen), `${step.message}: "${chosen}" is offered once`).toHaveLength(1);
    lists.push({ pick: step, seenAt: screenSteps.length });
    screenSteps.push(...keysFor(step));
  }
  const run = await runCliOnScreen(args, {
    env: { ...s.env, PAYCTL_PAGER: 'cat', TZ: 'UTC', ...env },
    steps: screenSteps,
    width: 160,
    height: 50,
  });
  expect(run.seen, run.screen).toHaveLength(screenSteps.length);
  expect(run.code, run.screen).toBe(0);
  for (const { pick, seenAt } of lists) {
    const seen = run.seen[seenAt]!;
    expect(listedEntries(seen, pick.message), seen).toEqual(pick.entries.slice(0, PAGE_SIZE));
    // The answer as drawn (the screen's top line may have scrolled away by the time payctl ends).
    expect(plain(run.bytes)).toContain(`✔ ${pick.message} ${pick.entries[pick.choose]}`);
  }
  await verify(run.screen);
}

/** The single resource printed as a table: its `id` row. */
const printsId = (screen: string, id: string | number) => expect(screen).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
/** A searchable list's search that brings one entry first: the start of its id, shown under the list. */
const idStart = (id: string) => id.slice(0, 8);

/**
 * The customer search: a first name several customers share, typed at the question, then the
 * `choose`th of its matches picked (every word in the name or e-mail, as src/commands/shared/pickers.ts).
 */
async function customerSearch(choose: number): Promise<{ customer: Customer; steps: Step[] }> {
  const all = await customers();
  const word = all.map((customer) => customer.firstName).find((name) => all.filter((c) => fold(`${fullName(c)} ${c.email}`).includes(fold(name))).length > choose)!;
  expect(word, `some first name is shared by more than ${choose} customers`).toBeDefined();
  const matches = all.filter((customer) => fold(`${fullName(customer)} ${customer.email}`).includes(fold(word)));
  return {
    customer: matches[choose]!,
    steps: [
      answer('Customer: part of the name, the e-mail or the document (or the id)', word),
      { message: `Customer matching "${word}"`, entries: [...matches.map(customerEntry), SEARCH_AGAIN], choose },
    ],
  };
}

/** A withdrawal with its bank account picked (the second offered) and the confirmation answered. */
function withdrawCase(method: 'pix' | 'card' | 'boleto', flags: readonly string[]): PickCase {
  const amount = 1000;
  const args = ['withdraw', method, '--amount', String(amount), ...flags];
  return {
    name: `withdraw ${method}: the bank account`,
    changes: true,
    script: { args: [...args, '--yes'], names: 'missing required flag: --bank-account' },
    plan: async () => {
      const accounts = await bankAccounts();
      const target = accounts[1]!;
      const before = new Set((await sandboxWithdrawals(s)).map((withdrawal) => withdrawal.id));
      return {
        args,
        steps: [{ message: 'Bank account (main account)', entries: accounts.map(bankAccountEntry), choose: 1 }, confirmYes],
        verify: async (screen) => {
          expect(screen).toContain(`to:           bank account ${target.id}: ${bankAccountEntry(target)}`);
          const made = (await sandboxWithdrawals(s)).filter((withdrawal) => !before.has(withdrawal.id));
          expect(made).toEqual([expect.objectContaining({ amount, bankAccountId: target.id, withdrawalPaymentType: method.toUpperCase() })]);
        },
      };
    },
  };
}

const cases: PickCase[] = [
  {
    name: 'customers get: a customer searched for by name',
    changes: false,
    script: { args: ['customers', 'get'], names: 'missing required argument ID' },
    plan: async () => {
      const { customer, steps } = await customerSearch(1);
      return { args: ['customers', 'get'], steps, verify: async (screen) => printsId(screen, customer.id) };
    },
  },
  {
    name: 'cards get: the customer searched for, then one of the cards their subscriptions charge',
    changes: false,
    script: { args: ['cards', 'get'], names: 'missing required argument ID' },
    plan: async () => {
      const [all, charged] = await Promise.all([customers(), subscriptions()]);
      const cardsOf = (customer: Customer) => [...new Set(charged.filter((item) => item.customerId === customer.id).map((item) => item.cardId))];
      const customer = [...all].sort((a, b) => cardsOf(b).length - cardsOf(a).length)[0]!;
      const cards = await Promise.all(cardsOf(customer).map((id) => api.get<Card>(`/cards/${id}`)));
      expect(cards.length, 'some customer has a subscription').toBeGreaterThan(0);
      const choose = cards.length - 1;
      return {
        args: ['cards', 'get'],
        steps: [
          answer('Customer: part of the name, the e-mail or the document (or the id)', customer.email),
          { message: `Customer matching "${customer.email}"`, entries: [customerEntry(customer), SEARCH_AGAIN], choose: 0 },
          { message: "Card (those the customer's subscriptions charge)", entries: [...cards.map(cardEntry), TYPE_AN_ID], choose },
        ],
        verify: async (screen) => printsId(screen, cards[choose]!.id),
      };
    },
  },
  {
    name: 'subs get: a subscription by title, customer, amount and status',
    changes: false,
    script: { args: ['subs', 'get'], names: 'missing required argument ID' },
    plan: async () => {
      const { kept, entries } = await subscriptionList(() => true);
      const choose = 5;
      return {
        args: ['subs', 'get'],
        steps: [{ message: 'Subscription', entries, choose, search: idStart(kept[choose]!.id) }],
        verify: async (screen) => printsId(screen, kept[choose]!.id),
      };
    },
  },
  {
    name: 'subaccounts use: a sub-account by name and status',
    changes: false,
    script: { args: ['subaccounts', 'use'], names: 'missing required argument ID' },
    plan: async () => {
      const subaccounts = await sandboxSubaccounts();
      const target = subaccounts[1]!;
      // The choice changes the profile: a copy of the session's config, so the other tests keep the main account.
      const configDir = tempConfigDir();
      cpSync(s.configDir, configDir, { recursive: true });
      return {
        args: ['subaccounts', 'use'],
        env: { PAYCTL_CONFIG_DIR: configDir },
        steps: [{ message: 'Sub-account', entries: [...subaccounts.map(subaccountEntry), TYPE_AN_ID], choose: 1 }],
        verify: async (screen) => {
          expect(screen).toContain(`now runs in sub-account ${target.name} (${target.id})`);
          const status = await s.run(['auth', 'status', '--json'], { env: { PAYCTL_CONFIG_DIR: configDir } });
          expect(status.code, status.stderr).toBe(0);
          expect(JSON.parse(status.stdout)).toMatchObject({ subaccount: target.id });
        },
      };
    },
  },
  {
    name: 'bank-accounts get: a bank account by holder, bank, branch and account',
    changes: false,
    script: { args: ['bank-accounts', 'get'], names: 'missing required argument ID' },
    plan: async () => {
      const accounts = await bankAccounts();
      return {
        args: ['bank-accounts', 'get'],
        steps: [{ message: 'Bank account (main account)', entries: accounts.map(bankAccountEntry), choose: 1 }],
        verify: async (screen) => printsId(screen, accounts[1]!.id),
      };
    },
  },
  {
    name: 'withdrawals get: a withdrawal by amount, method, status and time',
    changes: false,
    script: { args: ['withdrawals', 'get'], names: 'missing required argument ID' },
    plan: async () => {
      const withdrawals = await api.all<Withdrawal>('/withdrawals');
      const choose = 3;
      return {
        args: ['withdrawals', 'get'],
        steps: [
          { message: 'Withdrawal (main account)', entries: [...withdrawals.map(withdrawalEntry), TYPE_AN_ID], choose, search: idStart(withdrawals[choose]!.id) },
        ],
        verify: async (screen) => printsId(screen, withdrawals[choose]!.id),
      };
    },
  },
  {
    name: 'customers update: the customer searched for is the one changed',
    changes: true,
    script: { args: ['customers', 'update', '--last-name', 'Picked'], names: 'missing required argument ID' },
    plan: async () => {
      const { customer, steps } = await customerSearch(2);
      const lastName = `Escolhida${idStart(customer.id).replace(/\d/g, '')}`;
      return {
        args: ['customers', 'update', '--last-name', lastName],
        steps,
        verify: async () => {
          const renamed = (await customers()).filter((c) => c.lastName === lastName);
          expect(renamed.map((c) => c.id)).toEqual([customer.id]);
        },
      };
    },
  },
  {
    name: 'subs update: the subscription picked among those not cancelled is the one changed',
    changes: true,
    script: { args: ['subs', 'update', '--title', 'Picked'], names: 'missing required argument ID' },
    plan: async () => {
      const { kept, entries } = await subscriptionList(notCancelled);
      const choose = 3;
      const title = `Plano Escolhido ${Date.now()}`;
      return {
        args: ['subs', 'update', '--title', title],
        steps: [{ message: 'Subscription to change', entries, choose, search: idStart(kept[choose]!.id) }],
        verify: async () => {
          const retitled = (await subscriptions()).filter((item) => item.title === title);
          expect(retitled.map((item) => item.id)).toEqual([kept[choose]!.id]);
        },
      };
    },
  },
  {
    name: 'subs cancel: the subscription picked among those not cancelled is the one cancelled',
    changes: true,
    script: { args: ['subs', 'cancel', '--yes'], names: 'missing required argument ID' },
    plan: async () => {
      const { kept, entries } = await subscriptionList(notCancelled);
      const choose = 4;
      const cancelledBefore = (await subscriptions()).filter((item) => !notCancelled(item)).map((item) => item.id);
      return {
        args: ['subs', 'cancel'],
        steps: [{ message: 'Subscription to cancel', entries, choose, search: idStart(kept[choose]!.id) }, confirmYes],
        verify: async () => {
          const cancelled = (await subscriptions()).filter((item) => !notCancelled(item)).map((item) => item.id);
          expect(cancelled.sort()).toEqual([...cancelledBefore, kept[choose]!.id].sort());
        },
      };
    },
  },
  {
    name: 'subs remove-split with no ids: a subscription with splits, then its split',
    changes: true,
    script: { args: ['subs', 'remove-split', '--yes'], names: 'missing required arguments SUBSCRIPTION_ID, SPLIT_ID' },
    plan: async () => {
      const [{ kept, entries }, subaccounts] = await Promise.all([subscriptionList(withSplits), sandboxSubaccounts()]);
      const chosen = await subscription(kept[1]!.id);
      const split = chosen.splits.at(-1)!;
      return {
        args: ['subs', 'remove-split'],
        steps: [
          { message: 'Subscription to remove a split from', entries, choose: 1, search: idStart(chosen.id) },
          { message: `Split of "${chosen.title}"`, entries: chosen.splits.map((item) => splitEntry(item, subaccounts)), choose: chosen.splits.length - 1 },
          confirmYes,
        ],
        verify: async () => {
          const left = (await subscription(chosen.id)).splits.map((item) => item.id);
          expect(left).toEqual(chosen.splits.filter((item) => item.id !== split.id).map((item) => item.id));
        },
      };
    },
  },
  {
    name: 'subs remove-split SUBSCRIPTION_ID: its split',
    changes: true,
    script: { args: ['subs', 'remove-split', '--yes', '00000000-0000-4000-8000-000000000000'], names: 'missing required argument SPLIT_ID' },
    plan: async () => {
      const [{ kept }, subaccounts] = await Promise.all([subscriptionList(withSplits), sandboxSubaccounts()]);
      // The one with the most splits, so that the split chosen is not merely the only one.
      const most = kept.reduce((best, item) => (item.splits.length > best.splits.length ? item : best));
      const chosen = await subscription(most.id);
      const choose = chosen.splits.length > 1 ? 1 : 0;
      const split = chosen.splits[choose]!;
      return {
        args: ['subs', 'remove-split', chosen.id],
        steps: [{ message: `Split of "${chosen.title}"`, entries: chosen.splits.map((item) => splitEntry(item, subaccounts)), choose }, confirmYes],
        verify: async () => {
          const left = (await subscription(chosen.id)).splits.map((item) => item.id);
          expect(left).toEqual(chosen.splits.filter((item) => item.id !== split.id).map((item) => item.id));
        },
      };
    },
  },
  {
    name: 'subs add-split: the ACTIVE subscription and the APPROVED receiver picked',
    changes: true,
    script: { args: ['subs', 'add-split', '--amount', '100'], names: 'missing required flags: --subscription, --receiver' },
    plan: async () => {
      const [{ kept, entries }, subaccounts] = await Promise.all([subscriptionList((item) => item.status === 'ACTIVE'), sandboxSubaccounts()]);
      const approved = subaccounts.filter((subaccount) => subaccount.status === 'APPROVED');
      expect(approved.length, 'the sandbox seeds two APPROVED sub-accounts').toBeGreaterThan(1);
      const target = kept[2]!;
      const splitsBefore = (await subscription(target.id)).splits.map((split) => split.id);
      return {
        args: ['subs', 'add-split', '--amount', '100'],
        steps: [
          { message: 'Subscription to add a split to', entries, choose: 2, search: idStart(target.id) },
          { message: 'Receiving sub-account (must be APPROVED)', entries: [...approved.map(subaccountEntry), TYPE_AN_ID], choose: 1 },
        ],
        verify: async () => {
          const added = (await subscription(target.id)).splits.filter((split) => !splitsBefore.includes(split.id));
          expect(added).toEqual([expect.objectContaining({ subaccountId: approved[1]!.id, splitType: 'AMOUNT', splitAmount: 100 })]);
        },
      };
    },
  },
  {
    name: 'cards tokenize: the customer searched for owns the card',
    changes: true,
    script: {
      args: ['cards', 'tokenize', '--holder-name', 'ANA SOUZA', '--exp-month', '12', '--exp-year', '2031', '--card-stdin'],
      input: '4111111111111111\n123\n',
      names: 'missing required flag: --customer',
    },
    plan: async () => {
      const { customer, steps } = await customerSearch(1);
      return {
        args: ['cards', 'tokenize', '--holder-name', 'ANA SOUZA', '--exp-month', '12', '--exp-year', '2031'],
        steps: [...steps, answer('Card number', '4111111111111111'), answer('Security code', '123')],
        verify: async (screen) => {
          expect(screen).not.toContain('4111111111111111');
          const tokenized = /tokenized as ([0-9a-f-]{36}) for customer/.exec(screen);
          expect(tokenized, screen).not.toBeNull();
          expect(await api.get<Card>(`/cards/${tokenized![1]}`)).toMatchObject({ customerId: customer.id, last4Digits: '1111' });
        },
      };
    },
  },
  withdrawCase('pix', ['--pix-key-type', 'EMAIL', '--pix-key', 'escolhida@example.com']),
  withdrawCase('card', []),
  withdrawCase('boleto', []),
  {
    name: 'bank-accounts delete: the bank account picked is the one deleted',
    changes: true,
    script: { args: ['bank-accounts', 'delete', '--yes'], names: 'missing required argument ID' },
    plan: async () => {
      const [accounts, withdrawals] = await Promise.all([bankAccounts(), api.all<Withdrawal>('/withdrawals')]);
      // The sandbox refuses to delete a bank account with PENDING withdrawals (-7106).
      const pending = new Set(withdrawals.filter((withdrawal) => withdrawal.status === 'PENDING').map((withdrawal) => withdrawal.bankAccountId));
      const choose = accounts.map((account) => !pending.has(account.id)).lastIndexOf(true);
      expect(choose, 'some bank account has no PENDING withdrawal').toBeGreaterThanOrEqual(0);
      return {
        args: ['bank-accounts', 'delete'],
        steps: [{ message: 'Bank account (main account)', entries: accounts.map(bankAccountEntry), choose }, confirmYes],
        verify: async () => {
          const left = (await bankAccounts()).map((account) => account.id);
          expect(left).toEqual(accounts.filter((_, index) => index !== choose).map((account) => account.id));
        },
      };
    },
  },
];

describe('pick lists without a terminal', () => {
  it('each command whose id is left out exits 2 naming it, printing nothing and changing nothing', async () => {
    const sandboxState = async () => JSON.stringify(await Promise.all([subscriptions(), bankAccounts(), sandboxWithdrawals(s), customers()]));
    const before = await sandboxState();
    for (const { script } of cases) {
      const run = await s.run(script.args, { input: script.input });
      expect(run.code, `${script.args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(script.names);
      expect(run.stdout).toBe('');
    }
    expect(await sandboxState()).toBe(before);
  });
});

describe.concurrent('pick lists at a terminal: reads', () => {
  for (const pickCase of cases.filter((c) => !c.changes)) {
    needsTools('tmux')(pickCase.name, async () => runPicked(await pickCase.plan()));
  }
});

describe('pick lists at a terminal: changes, one at a time', () => {
  for (const pickCase of cases.filter((c) => c.changes)) {
    needsTools('tmux')(pickCase.name, async () => runPicked(await pickCase.plan()));
  }
});
