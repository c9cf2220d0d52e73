import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { cpf, createSubaccount, json, parsed, plain, splitReceivers, subaccountFlags } from './helpers.js';

/** subs and subaccounts create against a started sandbox. */
let s: SandboxSession;
type Sub = {
  id: string;
  title: string;
  amount: number;
  frequency: number;
  status: string;
  duration?: number;
  splits: Array<{ id?: string; subaccountId: string }>;
};
let active: Sub[];
let receiver: string;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  active = await json<Sub[]>(s, ['subs', 'list', '--status', 'active', '--limit', '100']);
  receiver = (await splitReceivers(s))[0]!;
});
afterAll(() => s?.close());

/** Each test takes ACTIVE subscriptions of its own. */
let nextActive = 0;
const takeActive = () => active[nextActive++]!;

describe.concurrent('subs list and get', () => {
  needsTools('script')('list: table with BRL and coloured status', async () => {
    const table = await runCliInTerminal(['subs', 'list', '--limit', '5'], { env: s.env });
    expect(table.code).toBe(0);
    expect(plain(table.stdout)).toMatch(/^ID\s+TITLE\s+AMOUNT\s+(EVERY\s+)?STATUS\s+CREATED AT$/m);
    expect(table.stdout).toMatch(/R\$ \d+,\d\d/);
    expect(table.stdout).toMatch(/\u001b\[\d+m(ACTIVE|SUSPENDED|EXPIRED|DELETED)\u001b/);
  });

  it('list: filters per the contract', async () => {
    expect(active.length).toBeGreaterThan(3);
    expect(active.every((sub) => sub.status === 'ACTIVE')).toBe(true);
    const word = active[0]!.title.split(' ')[0]!.toLowerCase();
    const byTitle = await json<Sub[]>(s, ['subs', 'list', '--title', word, '--limit', '100']);
    expect(byTitle.length).toBeGreaterThan(0);
    expect(byTitle.every((sub) => sub.title.toLowerCase().includes(word))).toBe(true);
    const bySplit = await json<Sub[]>(s, ['subs', 'list', '--split-subaccount', receiver, '--limit', '100']);
    expect(bySplit.length).toBeGreaterThan(0);
    expect(bySplit.every((sub) => sub.splits.some((split) => split.subaccountId === receiver))).toBe(true);
    const byAmount = await json<Sub[]>(s, ['subs', 'list', '--amount', String(active[0]!.amount), '--limit', '100']);
    expect(byAmount.map((sub) => sub.id)).toContain(active[0]!.id);
    expect(byAmount.every((sub) => sub.amount === active[0]!.amount)).toBe(true);
    const recent = await json<Array<{ createdAt: string }>>(s, ['subs', 'list', '--start-date', '2024-03-01', '--limit', '100']);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((sub) => sub.createdAt >= '2024-03-01')).toBe(true);
    const paged = await json<Sub[]>(s, ['subs', 'list', '--limit', '3', '--page', '2']);
    expect(paged).toHaveLength(3);
  });

  it('list: --title matches without regard to accents or case', async () => {
    const withAccents = await json<Sub[]>(s, ['subs', 'list', '--title', 'Café', '--all']);
    expect(withAccents.length, 'the seed has "Clube do Café" plans').toBeGreaterThan(0);
    for (const spelling of ['cafe', 'CAFE', 'cafÉ', 'Cafe\u0301']) {
      const ids = (await json<Sub[]>(s, ['subs', 'list', '--title', spelling, '--all'])).map((sub) => sub.id);
      expect(ids, spelling).toEqual(withAccents.map((sub) => sub.id));
    }
  });

  needsTools('script')('get: JSON, and a table that lists the split ids', async () => {
    const withSplit = active.find((sub) => sub.splits.length > 0)!;
    const got = await json<Sub>(s, ['subs', 'get', withSplit.id]);
    expect(got.id).toBe(withSplit.id);
    expect(got.splits[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    const table = await runCliInTerminal(['subs', 'get', withSplit.id], { env: s.env });
    expect(plain(table.stdout)).toMatch(/^amount\s+R\$ /m);
    expect(table.stdout).toContain(got.splits[0]!.id!);
  });

  it('get: an unknown subscription is an API refusal with its hint', async () => {
    const result = await s.run(['subs', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('returnCode -7601');
    expect(result.stderr).toContain('hint: check the subscription id: payctl subs list');
  });
});

describe('subs update', () => {
  needsTools('script')('changes only what is given; --duration, --lifetime; --dry-run changes nothing', async () => {
    const sub = takeActive();
    const updated = await json<Sub>(s, ['subs', 'update', sub.id, '--title', 'Plano Ouro', '--amount', '4990', '--duration', '12']);
    expect(updated).toMatchObject({ id: sub.id, title: 'Plano Ouro', amount: 4990, duration: 12 });
    // the API reads an omitted duration as lifetime: payctl sends the current one again
    expect(await json<Sub>(s, ['subs', 'update', sub.id, '--frequency', '7'])).toMatchObject({ frequency: 7, duration: 12 });
    const table = await runCliInTerminal(['subs', 'update', sub.id, '--lifetime'], { env: s.env });
    expect(table.code, table.stderr).toBe(0);
    expect(plain(table.stdout)).toMatch(/^amount\s+R\$ 49,90/m);
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).duration).toBeUndefined();
    const dry = await s.run(['subs', 'update', sub.id, '--title', 'Never', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`PUT ${s.sandbox.url}/subscriptions/${sub.id}`);
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).title).toBe('Plano Ouro');
  });
});

describe('subs cancel', () => {
  it('refused without a terminal, nothing with --dry-run, DELETED with --yes, and then final', async () => {
    const sub = takeActive();
    const refused = await s.run(['subs', 'cancel', sub.id]);
    expect(refused.code).toBe(2);
    const dry = await s.run(['subs', 'cancel', sub.id, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`DELETE ${s.sandbox.url}/subscriptions/${sub.id}`);
    expect(dry.stderr).toContain('cannot be undone');
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).status).toBe('ACTIVE');
    const cancelled = await json(s, ['subs', 'cancel', sub.id, '--yes']);
    expect(cancelled).toMatchObject({ id: sub.id, status: 'DELETED' });
    // Cancelled for good: payctl refuses before sending (exit 2), as the API would (-7602).
    const again = await s.run(['subs', 'update', sub.id, '--title', 'back']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('can never change again, so payctl did not update it: nothing was sent');
  });
});

describe('splits', () => {
  needsTools('script')('add-split: refused for a PENDING sub-account, then amount and percentage once approved, and the sum is capped', async () => {
    const sub = takeActive();
    const fresh = await createSubaccount(s, 'Loja Split');
    const pending = await s.run(['subs', 'add-split', '--subscription', sub.id, '--receiver', fresh, '--amount', '100']);
    expect(pending.code).toBe(1);
    expect(pending.stderr).toContain('returnCode -7702');
    expect(pending.stderr).toContain('payctl sandbox approve');
    parsed(await s.run(['sandbox', 'approve', fresh, '--json']));
    const dry = await s.run(['subs', 'add-split', '--subscription', sub.id, '--receiver', fresh, '--amount', '100', '--dry-run']);
    expect(dry.stdout).toContain('"splitType": "amount"');
    const before = (await json<Sub>(s, ['subs', 'get', sub.id])).splits.length;
    const amountSplit = await json(s, ['subs', 'add-split', '--subscription', sub.id, '--receiver', fresh, '--amount', '100', '--chargeback-liable']);
    expect(amountSplit).toMatchObject({ subaccountId: fresh, splitType: 'AMOUNT', splitAmount: 100, chargebackLiable: true });
    const table = await runCliInTerminal(['subs', 'add-split', '--subscription', sub.id, '--receiver', fresh, '--percentage', '1.25'], { env: s.env });
    expect(table.code, table.stderr).toBe(0);
    expect(plain(table.stdout)).toMatch(/^type\s+PERCENTAGE$/m);
    expect(plain(table.stdout)).toMatch(/^percent\s+1\.25$/m);
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).splits.length).toBe(before + 2);
    const tooMuch = await s.run(['subs', 'add-split', '--subscription', sub.id, '--receiver', fresh, '--percentage', '100']);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toContain('returnCode -7604');
  });

  it('remove-split: refused without a terminal, nothing with --dry-run, removed with --yes; an unknown split is refused', async () => {
    const sub = active.find((candidate, i) => i >= 10 && candidate.splits.length > 0)!;
    const splits = (await json<Sub>(s, ['subs', 'get', sub.id])).splits;
    const splitId = splits[0]!.id!;
    const refused = await s.run(['subs', 'remove-split', sub.id, splitId]);
    expect(refused.code).toBe(2);
    const dry = await s.run(['subs', 'remove-split', sub.id, splitId, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('This cannot be undone');
    expect(dry.stderr).toMatch(new RegExp(`receiver: +sub-account .*${splits[0]!.subaccountId}`));
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).splits).toHaveLength(splits.length);
    parsed(await s.run(['subs', 'remove-split', sub.id, splitId, '--yes', '--json']));
    expect((await json<Sub>(s, ['subs', 'get', sub.id])).splits.map((split) => split.id)).not.toContain(splitId);
    // A split that is not the subscription's is refused before asking (exit 2, nothing sent).
    const unknown = await s.run(['subs', 'remove-split', sub.id, splitId, '--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`split ${splitId} is not one of the splits of subscription ${sub.id}`);
    expect(unknown.stderr).toContain(`hint: see its splits: payctl subs get ${sub.id}`);
  });
});

describe('subaccounts create', () => {
  needsTools('script')('pf from flags: a PENDING sub-account, shown as a table', async () => {
    const table = await runCliInTerminal(['subaccounts', 'create', 'pf', ...subaccountFlags('Loja Tabela')], { env: s.env });
    expect(table.code, table.stderr).toBe(0);
    expect(plain(table.stdout)).toMatch(/^name\s+Loja Tabela/m);
    expect(table.stdout).toContain('PENDING');
    expect(table.stderr).toContain('payctl sandbox approve');
  });

  it('pj from a file in the API shape, flags overriding it, values normalised', async () => {
    const dir = tempConfigDir();
    const file = path.join(dir, 'loja.json');
    const body = {
      name: 'Loja do Arquivo',
      juridicDataPartner: {
        name: 'Bia',
        lastName: 'Lima',
        cpf: cpf('111444777'),
        email: 'bia@example.com',
        birthdate: '1985-01-31',
        contactPhone: '+5521998765432',
        monthRevenue: 20000,
      },
      juridicLegalData: { cnpj: '11222333000181', contactPhone: '+5521998765432', fantasyName: 'Loja', socialReason: 'Loja Ltda', avgAnualBilling: 1200000.5 },
      addresses: [
        {
          addressType: 'COMMERCIAL',
          zipcode: 1310100,
          street: 'Av. Paulista',
          streetNumber: 1000,
          neighborhood: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
        },
      ],
      accountBank: {
        holderName: 'Loja Ltda',
        bankCode: '001',
        accountType: 'CHECKING',
        accountNumber: '123456-7',
        routingNumber: '0001',
        document: '11222333000181',
      },
    };
    writeFileSync(file, JSON.stringify(body));
    const created = await json<{ addresses: unknown[] }>(s, [
      'subaccounts',
      'create',
      'pj',
      '--from-file',
      file,
      '--name',
      'Loja Sobrescrita',
      '--legal-cnpj',
      '11.444.777/0001-61',
    ]);
    expect(created).toMatchObject({ name: 'Loja Sobrescrita', status: 'PENDING', juridicLegalData: { cnpj: '11444777000161', avgAnualBilling: 1200000.5 } });
    expect(created.addresses[0]).toMatchObject({ zipcode: 1310100, addressType: 'COMMERCIAL' });
    const fromStdin = await s.run(['subaccounts', 'create', 'pj', '--from-file', '-', '--json'], { input: JSON.stringify(body) });
    expect(parsed<{ name: string }>(fromStdin).name).toBe('Loja do Arquivo');
  });

  it('--dry-run prints the body in the API shape and creates nothing', async () => {
    const dry = await s.run(['subaccounts', 'create', 'pf', ...subaccountFlags('Loja Seca'), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const body = JSON.parse(dry.stdout.slice(dry.stdout.indexOf('{')));
    expect(body).toMatchObject({
      name: 'Loja Seca',
      juridicDataPartner: { contactPhone: '+5511912345678', monthRevenue: 15000.5 },
      addresses: [{ addressType: 'RESPONSIBLE', zipcode: 1310100, streetNumber: 1000, state: 'SP' }],
      accountBank: { accountType: 'CHECKING', bankCode: '341' },
    });
  });
});
