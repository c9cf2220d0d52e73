import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { json, plain, splitReceivers } from '../commands/helpers.js';
import { needsTools } from '../helpers/tools.js';
import { bold, KEY, pick, typeAtTerminal, type Step } from './terminal.js';

/**
 * The wizards and pick lists, driven like a person would: the real binary on a
 * pseudo-terminal against a sandbox on 127.0.0.1, each answer typed once its
 * question is on the screen. The tests run one after another (they share the
 * sandbox, and a loaded machine runs a terminal at a time more steadily).
 */

let s: SandboxSession;
beforeAll(async () => {
  s = await startSandboxSession('acme');
});
afterAll(() => s?.close());

interface SubaccountRecord {
  id: string;
  name: string;
  status: 'PENDING' | 'APPROVED';
  juridicDataPartner: { cpf: string; email: string; birthdate: string; contactPhone: string; monthRevenue: number };
  addresses: Array<{ addressType: string; zipcode: number; street: string; streetNumber: number; neighborhood: string; city: string; state: string }>;
  accountBank: { holderName: string; document: string; bankCode: string; routingNumber: string; accountNumber: string; accountType: string };
}
interface SplitRecord {
  id: string;
  subaccountId: string;
  splitType: 'AMOUNT' | 'PERCENTAGE';
  splitAmount: number | null;
  splitPercentage: number | null;
}
interface SubscriptionRecord {
  id: string;
  title: string;
  splits: SplitRecord[];
}

const subaccounts = () => json<SubaccountRecord[]>(s, ['api', 'GET', '/sandbox/subaccounts']);
/** The ACTIVE subscriptions in the order the picker shows them (its first page). */
const activeSubscriptions = () => json<SubscriptionRecord[]>(s, ['subs', 'list', '--status', 'ACTIVE', '--limit', '50']);

async function ensureApproved(id: string): Promise<void> {
  const record = (await subaccounts()).find((sub) => sub.id === id);
  expect(record, `sub-account ${id} is not in /sandbox/subaccounts`).toBeDefined();
  if (record!.status === 'PENDING') {
    const approved = await s.run(['sandbox', 'approve', id]);
    expect(approved.code, approved.stderr).toBe(0);
  }
  expect((await subaccounts()).find((sub) => sub.id === id)?.status).toBe('APPROVED');
}

async function runWizard(args: string[], steps: Step[]) {
  const run = await typeAtTerminal(args, { env: s.env, steps });
  const screen = plain(run.stdout);
  expect(run.stepsTyped, screen).toBe(steps.length);
  expect(run.code, screen).toBe(0);
  return screen;
}

describe('interactive wizards', () => {
  needsTools('script')(
    'subs add-split with no flags: pick the subscription and the offered receiver, a fixed amount',
    async () => {
      const [subscription] = await activeSubscriptions();
      // The receiver the picker offers first: the first APPROVED one of the sandbox's list of sub-accounts.
      const receiver = (await subaccounts()).find((sub) => sub.status === 'APPROVED')?.id;
      expect(subscription && receiver).toBeTruthy();

      const screen = await runWizard(
        ['subs', 'add-split'],
        [
          { after: bold('Subscription to add a split to'), send: KEY.enter }, // the first ACTIVE one
          { after: bold('Receiving sub-account (must be APPROVED)'), send: KEY.enter }, // the first offered
          { after: bold('Split type'), send: KEY.enter }, // fixed amount (cents)
          { after: bold('Amount in cents (R$ 12,34 is 1234)'), send: '150\r' },
        ],
      );
      expect(screen).toContain(`Subscription to add a split to ${subscription!.title} · `);
      expect(screen).toContain('Split type fixed amount (cents)');
      // The receiver by its name, from the sandbox's list.
      const name = (await subaccounts()).find((sub) => sub.id === receiver)!.name;
      expect(screen).toMatch(new RegExp(`split [0-9a-f-]{36} added: R\\$ 1,50 to sub-account ${name} \\(${receiver}\\)`));

      const after = await json<SubscriptionRecord>(s, ['subs', 'get', subscription!.id]);
      const added = after.splits.filter((split) => split.subaccountId === receiver && split.splitType === 'AMOUNT' && split.splitAmount === 150);
      expect(added, JSON.stringify(after.splits)).toHaveLength(1);
      expect(after.splits.length).toBe(subscription!.splits.length + 1);
    },
  );

  needsTools('script')(
    'subs add-split with no flags: approve a PENDING sub-account, type its id, a percentage',
    async () => {
      const [, subscription] = await activeSubscriptions();
      const pending = (await subaccounts()).find((sub) => sub.status === 'PENDING');
      expect(pending, 'the sandbox seeds a PENDING sub-account').toBeDefined();
      // A PENDING receiver is refused by the API: approve it the way a user of the sandbox would.
      await ensureApproved(pending!.id);
      expect(await splitReceivers(s)).not.toContain(pending!.id); // so the picker does not offer it: it is typed

      const screen = await runWizard(
        ['subs', 'add-split'],
        [
          { after: bold('Subscription to add a split to'), send: pick(KEY.down, 1) }, // the second ACTIVE one
          { after: bold('Receiving sub-account (must be APPROVED)'), send: pick(KEY.up, 1) }, // wraps to the last entry: type an id
          { after: bold('Sub-account id'), send: `${pending!.id}\r` },
          { after: bold('Split type'), send: pick(KEY.down, 1) }, // percentage
          { after: bold('Percentage (up to 2 decimals)'), send: '2.5\r' },
        ],
      );
      expect(screen).toContain(`Subscription to add a split to ${subscription!.title} · `);
      expect(screen).toContain('Receiving sub-account (must be APPROVED) … type an id');
      expect(screen).toContain('Split type percentage of the subscription amount');
      expect(screen).toMatch(new RegExp(`split [0-9a-f-]{36} added: 2\\.5% to sub-account ${pending!.name} \\(${pending!.id}\\)`));

      const after = await json<SubscriptionRecord>(s, ['subs', 'get', subscription!.id]);
      const added = after.splits.filter((split) => split.subaccountId === pending!.id);
      expect(added, JSON.stringify(after.splits)).toEqual([expect.objectContaining({ splitType: 'PERCENTAGE', splitPercentage: 2.5, splitAmount: null })]);
    },
  );

  needsTools('script')(
    'subaccounts create pf with no flags: the wizard asks partner, address and bank account; the sub-account is PENDING',
    async () => {
      const name = `Wizard PF ${Date.now()}`;
      const document = '52998224725';
      const screen = await runWizard(
        ['subaccounts', 'create', 'pf'],
        [
          { after: bold('Sub-account name'), send: `${name}\r` },
          { after: bold('Partner first name'), send: 'Ana\r' },
          { after: bold('Partner last name'), send: 'Souza\r' },
          { after: bold('Partner CPF'), send: '529.982.247-25\r' },
          { after: bold('Partner e-mail'), send: 'ana.souza@example.com\r' },
          { after: bold('Partner birthdate (YYYY-MM-DD)'), send: '1990-05-17\r' },
          { after: bold('Partner phone'), send: '+55 11 91234-5678\r' },
          { after: bold('Monthly revenue in reais'), send: '15000.50\r' },
          { after: bold('CEP'), send: '01310-100\r' },
          { after: bold('Street'), send: 'Av. Paulista\r' },
          { after: bold('Number'), send: '1000\r' },
          { after: bold('Neighbourhood (bairro)'), send: 'Bela Vista\r' },
          { after: bold('City'), send: 'São Paulo\r' },
          { after: bold('State (UF)'), send: 'SP' }, // a list longer than a screen is searched by typing
          { after: /❯ SP/, send: KEY.enter },
          { after: bold('Account holder name'), send: 'Ana Souza\r' },
          { after: bold("Holder's CPF or CNPJ"), send: `${document}\r` },
          { after: bold('Bank code (3 digits)'), send: '341\r' },
          { after: bold('Branch (agência)'), send: '0001\r' },
          { after: bold('Account number'), send: '12345-6\r' },
          { after: bold('Account type'), send: pick(KEY.down, 1) }, // SAVINGS
        ],
      );
      for (const section of ['Sub-account', 'Partner (person responsible)', 'Address', 'Bank account']) expect(screen).toContain(`\n${section}\n`);
      expect(screen).toContain('State (UF) SP');
      expect(screen).toContain('Account type SAVINGS');
      expect(screen).toMatch(/status\s+PENDING/);
      const created = /created PF sub-account ([0-9a-f-]{36}) \(PENDING\)/.exec(screen);
      expect(created, screen).not.toBeNull();
      const id = created![1]!;
      expect(screen).toContain(`payctl sandbox approve ${id}`);

      const record = (await subaccounts()).find((sub) => sub.id === id);
      expect(record).toMatchObject({
        name,
        status: 'PENDING',
        juridicDataPartner: { cpf: document, email: 'ana.souza@example.com', birthdate: '1990-05-17', monthRevenue: 15000.5 },
        addresses: [
          {
            addressType: 'RESPONSIBLE',
            zipcode: 1310100,
            street: 'Av. Paulista',
            streetNumber: 1000,
            neighborhood: 'Bela Vista',
            city: 'São Paulo',
            state: 'SP',
          },
        ],
        accountBank: { holderName: 'Ana Souza', document, bankCode: '341', routingNumber: '0001', accountNumber: '12345-6', accountType: 'SAVINGS' },
      });
    },
  );

  needsTools('script')(
    'customers update at a terminal: a first address asks for every field not given',
    async () => {
      const customers = await json<Array<{ id: string; address?: unknown }>>(s, ['customers', 'list', '--limit', '30']);
      const homeless = customers.find((customer) => !('address' in customer));
      expect(homeless, 'the sandbox seeds customers without an address').toBeDefined();
      const id = homeless!.id;

      const screen = await runWizard(
        ['customers', 'update', id, '--address-city', 'Recife'],
        [
          { after: bold('CEP'), send: '50030-230\r' },
          { after: bold('Street'), send: 'Rua da Aurora\r' },
          { after: bold('Number'), send: '295\r' },
          { after: bold('Complement'), send: 'Sala 4\r' },
          { after: bold('Reference'), send: 'Perto da ponte\r' },
          { after: bold('Neighbourhood (bairro)'), send: 'Boa Vista\r' },
          { after: bold('State (UF)'), send: pick(KEY.down, 16) }, // AC … PE is the 17th
        ],
      );
      expect(screen).toContain('this customer has no address yet, so the first one needs every field');
      expect(screen).not.toMatch(/[?✔] City/); // given by its flag, so not asked
      expect(screen).toContain('State (UF) PE');
      expect(screen).toContain(`customer ${id} updated: address`);

      const after = await json<{ address?: Record<string, unknown> }>(s, ['customers', 'get', id]);
      expect(after.address).toMatchObject({
        zipcode: 50030230,
        street: 'Rua da Aurora',
        streetNumber: 295,
        complement: 'Sala 4',
        reference: 'Perto da ponte',
        neighborhood: 'Boa Vista',
        city: 'Recife',
        state: 'PE',
      });
    },
  );
});
