import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInTerminal } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { json, parsed, plain } from './helpers.js';

/** customers and cards against a started sandbox. */
let s: SandboxSession;
type Customer = { id: string; email: string; firstName: string; address?: Record<string, unknown> };
let customers: Customer[];

beforeAll(async () => {
  s = await startSandboxSession('acme');
  customers = await json<Customer[]>(s, ['customers', 'list', '--limit', '100']);
});
afterAll(() => s?.close());

const VISA = '4111111111111111';
const tokenize = (customer: string, extra: string[] = [], stdin = `${VISA}\n123\n`) =>
  s.run(['cards', 'tokenize', '--customer', customer, '--holder-name', 'ANA SOUZA', '--exp-month', '8', '--exp-year', '2031', '--card-stdin', ...extra], {
    input: stdin,
  });

describe.concurrent('customers', () => {
  needsTools('script')('list: table, JSON pages, --fields', async () => {
    const table = await runCliInTerminal(['customers', 'list', '--limit', '3'], { env: s.env });
    // STATUS is shown when the rows leave room for it at 80 columns: a test beside this one may shorten an e-mail.
    expect(plain(table.stdout)).toMatch(/^ID\s+NAME\s+EMAIL\s+DOCUMENT(\s+STATUS)?$/m);
    expect(plain(table.stdout).trim().split('\n')).toHaveLength(4);
    for (const line of plain(table.stdout).trim().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    const page2 = await json<Customer[]>(s, ['customers', 'list', '--limit', '100', '--page', '2']);
    expect(page2[0]!.id).not.toBe(customers[0]!.id);
    const picked = await json<object[]>(s, ['customers', 'list', '--limit', '2', '--fields', 'id,address.city']);
    expect(Object.keys(picked[0]!)).toEqual(['id', 'address']);
  });

  needsTools('script')('get: JSON and table', async () => {
    const one = customers[0]!;
    expect(await json(s, ['customers', 'get', one.id])).toMatchObject({ id: one.id, email: one.email });
    const table = await runCliInTerminal(['customers', 'get', one.id], { env: s.env });
    expect(plain(table.stdout)).toMatch(new RegExp(`^email\\s+${one.email.replace(/\./g, '\\.')}`, 'm'));
  });

  it('get: an unknown customer is an API refusal', async () => {
    const result = await s.run(['customers', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('returnCode -7501');
  });

  needsTools('script')('update: only the fields given change; --dry-run changes nothing', async () => {
    const one = customers[1]!;
    const updated = await json(s, [
      'customers',
      'update',
      one.id,
      '--email',
      'nova@example.com',
      '--phone-number',
      '(11) 98888-7777',
      '--document',
      '529.982.247-25',
    ]);
    expect(updated).toMatchObject({ id: one.id, email: 'nova@example.com', phoneNumber: '+5511988887777', document: '52998224725', firstName: one.firstName });
    const table = await runCliInTerminal(['customers', 'update', one.id, '--first-name', 'Joana'], { env: s.env });
    expect(plain(table.stdout)).toMatch(/^first name\s+Joana/m);
    const dry = await s.run(['customers', 'update', one.id, '--email', 'never@example.com', '--dry-run']);
    expect(dry.stdout).toContain(`PUT ${s.sandbox.url}/customers/${one.id}`);
    expect((await json<Customer>(s, ['customers', 'get', one.id])).email).toBe('nova@example.com');
  });

  it('update: a first address needs every field, checked before sending', async () => {
    const bare = customers.find((c) => !('address' in c));
    expect(bare, 'the seed has customers without an address').toBeDefined();
    const partial = await s.run(['customers', 'update', bare!.id, '--address-city', 'Recife']);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(
      /first one needs every field: missing required flags: --address-zipcode, --address-street, --address-street-number, --address-complement, --address-reference, --address-neighborhood, --address-state/,
    );
    expect(await json<Customer>(s, ['customers', 'get', bare!.id])).not.toHaveProperty('address');
    const full = await json<Customer>(s, [
      'customers',
      'update',
      bare!.id,
      '--address-zipcode',
      '50030-230',
      '--address-street',
      'Rua da Aurora',
      '--address-street-number',
      '100',
      '--address-complement',
      'sala 2',
      '--address-reference',
      'beira-rio',
      '--address-neighborhood',
      'Boa Vista',
      '--address-city',
      'Recife',
      '--address-state',
      'PE',
    ]);
    expect(full.address).toMatchObject({ zipcode: 50030230, city: 'Recife', state: 'PE' });
  });

  it('update: a first address may have an empty complement and reference, as the API takes them', async () => {
    const bare = customers.filter((c) => !('address' in c))[1];
    expect(bare, 'the seed has two customers without an address').toBeDefined();
    const address = ['--address-zipcode', '01310-100', '--address-street', 'Av. Paulista', '--address-street-number', '1000'];
    const place = ['--address-neighborhood', 'Bela Vista', '--address-city', 'São Paulo', '--address-state', 'SP'];
    const updated = await json<Customer>(s, ['customers', 'update', bare!.id, ...address, '--address-complement', '', '--address-reference', ' ', ...place]);
    expect(updated.address).toMatchObject({ zipcode: 1310100, complement: '', reference: '', city: 'São Paulo' });
  });
});

describe.concurrent('cards', () => {
  needsTools('script')('tokenize from stdin: JSON, then get shows it; the number never appears', async () => {
    const result = await tokenize(customers[2]!.id, ['--json']);
    const card = parsed<{ id: string }>(result);
    expect(card).toMatchObject({
      customerId: customers[2]!.id,
      first4Digits: '4111',
      last4Digits: '1111',
      expirationMonth: '08',
      expirationYear: '2031',
      cardBrand: 'Visa',
      isActive: true,
    });
    expect(result.stdout + result.stderr).not.toContain(VISA);
    expect(await json(s, ['cards', 'get', card.id])).toMatchObject({ id: card.id, customerId: customers[2]!.id });
    const table = await runCliInTerminal(['cards', 'get', card.id], { env: s.env });
    expect(plain(table.stdout)).toMatch(/^brand\s+Visa/m);
  });

  it('tokenize: --dry-run masks the card data and sends nothing', async () => {
    const dry = await tokenize(customers[3]!.id, ['--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const body = JSON.parse(dry.stdout.slice(dry.stdout.indexOf('{')));
    expect(body).toMatchObject({ cardNumber: '***', securityCode: '***', expirationMonth: '08' });
    expect(dry.stdout).not.toContain(VISA);
  });

  it('API refusals: an expired card, an unknown customer, an unknown card', async () => {
    const expired = await s.run(
      ['cards', 'tokenize', '--customer', customers[4]!.id, '--holder-name', 'ANA', '--exp-month', '01', '--exp-year', '2020', '--card-stdin'],
      { input: `${VISA}\n123\n` },
    );
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('returnCode -7510');
    expect(expired.stderr).not.toContain(VISA);
    const stranger = await tokenize('00000000-0000-4000-8000-000000000000');
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('returnCode -7501');
    const unknown = await s.run(['cards', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/returnCode -7508, HTTP 400/);
  });
});
