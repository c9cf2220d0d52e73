import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BalancesResponse, BankAccountListResponse, CardResponse, CustomerListResponse, CustomerResponse, SubaccountListResponse, SubaccountResponse,
  TokenizedCardResponse,
} from '../../src/api/types.js';
import { expectError, startSession, useSandbox, VALID, type Fixtures, type Session } from './helpers.js';

const FULL_ADDRESS = {
  zipcode: 1310100, street: 'Avenida Paulista', streetNumber: 1000, complement: 'Sala 1', reference: 'Perto do MASP',
  neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP',
};
const nextYear = String(new Date().getUTCFullYear() + 1);
const card = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  customerId,
  holderName: 'ANA SILVA',
  cardNumber: VALID.visa,
  expirationMonth: '12',
  expirationYear: nextYear,
  securityCode: '123',
  ...overrides,
});

describe('sandbox: customers', () => {
  let session: Session;
  let acme: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
  });

  it('lists 20 per page by default, oldest first, with full meta', async () => {
    const response = await session.acme.get<CustomerListResponse>('/customers');
    expect(response.body.data).toHaveLength(20);
    expect(response.body.meta).toEqual({ total: 250, page: 1, limit: 20, totalPages: 13 });
    const createdAt = response.body.data.map((customer: { createdAt: string }) => customer.createdAt);
    expect([...createdAt].sort()).toEqual(createdAt);
  });

  it('pages through every customer with limit 100, and past the last page gives an empty page', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => session.acme.get<CustomerListResponse>(`/customers?page=${page}&limit=100`)));
    expect(pages.map((page) => page.body.data.length)).toEqual([100, 100, 50]);
    expect(new Set(pages.flatMap((page) => page.body.data.map((customer: { id: string }) => customer.id))).size).toBe(250);
    expect((await session.acme.get('/customers?page=4&limit=100')).body).toMatchObject({ data: [], meta: { total: 250, page: 4, totalPages: 3 } });
  });

  it.each(['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=', 'limit=0', 'limit=101', 'limit=1e2', 'page=1&page=2', 'limit=10&limit=10', 'sort=name'])(
    'refuses ?%s with 400 -7404',
    async (query) => {
      expectError(await session.acme.get(`/customers?${query}`), 400, -7404);
    },
  );

  it('reads one customer, and each company sees only its own', async () => {
    const customer = acme.customers[0];
    expect((await session.acme.get<CustomerResponse>(`/customers/${customer.id}`)).body.data).toEqual(customer);
    expectError(await session.globex.get(`/customers/${customer.id}`), 404, -7501);
    expectError(await session.acme.get('/customers/00000000-0000-4000-8000-000000000000'), 404, -7501);
    expectError(await session.acme.get('/customers/not-a-uuid'), 400, -7006);
  });

  it('updates the given fields only', async () => {
    const customer = acme.customers[1]!;
    const response = await session.acme.put<CustomerResponse>(`/customers/${customer.id}`, {
      firstName: 'Renata',
      email: 'renata@example.com',
      address: { city: 'Campinas' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ ...customer, firstName: 'Renata', email: 'renata@example.com', address: { ...customer.address, city: 'Campinas' } });
    expect((await session.acme.get<CustomerResponse>(`/customers/${customer.id}`)).body.data.firstName).toBe('Renata');
  });

  it.each([
    ['an empty body', {}],
    ['a bad e-mail', { email: 'not-an-email' }],
    ['a CPF with wrong check digits', { document: '52998224726' }],
    ['a document of the wrong length', { document: '123' }],
    ['a birthdate in the future', { birthdate: '2999-01-01' }],
    ['an impossible birthdate', { birthdate: '2001-02-30' }],
    ['an unknown state', { address: { state: 'XX' } }],
    ['a zipcode as a string', { address: { zipcode: '01310100' } }],
    ['an unknown field', { nickname: 'Ana' }],
    ['a number for a name', { firstName: 42 }],
    ['a phone with letters', { phoneNumber: '+55 11 abc' }],
  ])('refuses %s with 400 -7001 and changes nothing', async (_, body) => {
    const customer = acme.customers[2]!;
    expectError(await session.acme.put(`/customers/${customer.id}`, body), 400, -7001);
    expect((await session.acme.get<CustomerResponse>(`/customers/${customer.id}`)).body.data).toEqual(customer);
  });

  it('needs every field for a first address (-7502), then accepts partial changes', async () => {
    const customer = acme.customerWithoutAddress;
    const partial = await session.acme.put(`/customers/${customer.id}`, { firstName: 'Zé', address: { city: 'Recife' } });
    expectError(partial, 400, -7502);
    expect(partial.body.data.message).toContain('street');
    expect((await session.acme.get<CustomerResponse>(`/customers/${customer.id}`)).body.data.firstName).toBe(customer.firstName);
    const complete = await session.acme.put<CustomerResponse>(`/customers/${customer.id}`, { address: FULL_ADDRESS });
    expect(complete.body.data.address).toEqual({ statusId: 'APPROVED', ...FULL_ADDRESS });
    const renumbered = await session.acme.put<CustomerResponse>(`/customers/${customer.id}`, { address: { streetNumber: 7 } });
    expect(renumbered.body.data.address?.streetNumber).toBe(7);
  });

  it("cannot update another company's customer", async () => {
    expectError(await session.globex.put(`/customers/${acme.customers[3]!.id}`, { firstName: 'X' }), 404, -7501);
  });

  it('creates fixture customers (POST /sandbox/customers) at the end of the list', async () => {
    const nova = { firstName: 'Nova', lastName: 'Cliente', email: 'nova@example.com', phoneNumber: VALID.phone, document: VALID.cpf, birthdate: '1990-05-01' };
    const created = await session.globex.post<CustomerResponse>('/sandbox/customers', nova);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ statusId: 'APPROVED' });
    expect(created.body.data).not.toHaveProperty('address');
    const list = await session.globex.get<CustomerListResponse>('/customers?limit=1&page=121');
    expect(list.body.data[0]!.id).toBe(created.body.data.id);
    const withAddress = { ...nova, lastName: 'C', email: 'n@example.com', address: { city: 'X' } };
    expectError(await session.globex.post('/sandbox/customers', withAddress), 400, -7502);
  });
});

describe('sandbox: cards', () => {
  let session: Session;
  let acme: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
  });

  it('tokenizes a card: first and last 4 digits, brand, fresh flags, no createdAt, no number or CVV', async () => {
    const customerId = acme.customers[5]!.id;
    const response = await session.acme.post<TokenizedCardResponse>('/cards/tokenize', card(customerId));
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      customerId,
      first4Digits: '4111',
      last4Digits: '1111',
      cardBrand: 'Visa',
      isActive: true,
      isVerified: false,
      postalCodeCheck: false,
      securityCodeCheck: false,
      addressCheck: false,
    });
    expect(response.body.data).not.toHaveProperty('createdAt');
    const read = await session.acme.get<CardResponse>(`/cards/${response.body.data.id}`);
    expect(read.body.data).toEqual({ ...response.body.data, createdAt: expect.any(String) });
    expect(JSON.stringify(read.body)).not.toContain(VALID.visa);
  });

  it.each([
    ['12 digits', { cardNumber: '411111111111' }, -7001],
    ['17 digits', { cardNumber: '41111111111111111' }, -7001],
    ['spaces', { cardNumber: '4111 1111 1111 1111' }, -7001],
    ['a bad Luhn digit', { cardNumber: '4111111111111112' }, -7509],
    ['month 13', { expirationMonth: '13' }, -7001],
    ['month 1 without its zero', { expirationMonth: '1' }, -7001],
    ['a 2-digit year', { expirationYear: '29' }, -7001],
    ['a past year', { expirationYear: '2020' }, -7510],
    ['a 2-digit CVV', { securityCode: '12' }, -7001],
    ['a 5-digit CVV', { securityCode: '12345' }, -7001],
    ['an empty holder', { holderName: '' }, -7001],
    ['a missing field', { securityCode: undefined }, -7001],
  ])('refuses %s', async (_, overrides, returnCode) => {
    expectError(await session.acme.post('/cards/tokenize', card(acme.customers[5]!.id, overrides)), 400, returnCode);
  });

  it('accepts 13-digit numbers and 4-digit CVVs', async () => {
    const response = await session.acme.post('/cards/tokenize', card(acme.customers[5]!.id, { cardNumber: '4222222222222', securityCode: '1234' }));
    expect(response.status).toBe(201);
  });

  it("refuses another company's customer (404 -7501), and answers -7508 for absent or foreign cards", async () => {
    expectError(await session.globex.post('/cards/tokenize', card(acme.customers[5]!.id)), 404, -7501);
    const acmeCardId = acme.subscriptions[0].cardId;
    expect((await session.acme.get(`/cards/${acmeCardId}`)).status).toBe(200);
    expectError(await session.globex.get(`/cards/${acmeCardId}`), 400, -7508);
    expectError(await session.acme.get('/cards/00000000-0000-4000-8000-000000000000'), 400, -7508);
  });
});

describe('sandbox: sub-accounts', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession();
  });
  afterAll(() => session.sandbox.close());

  const partner = {
    name: 'Ana', lastName: 'Souza', cpf: VALID.cpf, email: 'ana@example.com', birthdate: '1985-03-04',
    contactPhone: VALID.phone, monthRevenue: 15000, jobOccupation: 'Lojista', fullnameMom: 'Maria Souza',
  };
  const address = { addressType: 'RESPONSIBLE', zipcode: 1310100, street: 'Rua A', streetNumber: 10, neighborhood: 'Centro', city: 'São Paulo', state: 'SP' };
  const accountBank = {
    holderName: 'Ana Souza', bankCode: '341', accountType: 'CHECKING', accountNumber: '12345-6', routingNumber: '1234', document: VALID.cpf,
  };
  const legal = { cnpj: VALID.cnpj, contactPhone: VALID.phone, fantasyName: 'Souza Store', socialReason: 'Souza Comércio Ltda', avgAnualBilling: 120000.5 };

  it('creates PF and PJ sub-accounts as PENDING, with a bank account in their own context', async () => {
    const pf = await session.acme.post<SubaccountResponse>('/subaccounts/pf', {
      name: 'Loja da Ana',
      juridicDataPartner: partner,
      addresses: [address],
      accountBank,
    });
    expect(pf.status).toBe(201);
    expect(pf.body.data).toMatchObject({ name: 'Loja da Ana', status: 'PENDING', accountBank });
    expect(pf.body.data).not.toHaveProperty('juridicLegalData');
    const pj = await session.acme.post<SubaccountResponse>('/subaccounts/pj', {
      name: 'Souza Ltda',
      juridicDataPartner: partner,
      juridicLegalData: legal,
      addresses: [{ ...address, addressType: 'COMMERCIAL' }],
      accountBank: { ...accountBank, document: VALID.cnpj },
    });
    expect(pj.body.data).toMatchObject({ status: 'PENDING', juridicLegalData: legal });
    const bankAccounts = await session.acme.get<BankAccountListResponse>('/bank_accounts', { subaccount: pj.body.data.id });
    expect(bankAccounts.body.data).toHaveLength(1);
    expect((await session.acme.get<BalancesResponse>('/withdrawals/balance', { subaccount: pj.body.data.id })).body.data).toEqual({
      disponiblePixBalance: 0,
      disponibleCardBalance: 0,
      disponibleBilletBalance: 0,
      withdrawalsInProcessingBalance: 0,
    });
    expectError(await session.globex.get('/bank_accounts', { subaccount: pj.body.data.id }), 403, -7403);
  });

  it.each([
    ['a bad partner CPF', { juridicDataPartner: { ...partner, cpf: '11111111111' } }],
    ['no addresses', { addresses: [] }],
    ['an unknown address type', { addresses: [{ ...address, addressType: 'HOME' }] }],
    ['a bad bank code', { accountBank: { ...accountBank, bankCode: '34' } }],
    ['an unknown account type', { accountBank: { ...accountBank, accountType: 'GOLD' } }],
    ['legal data on a PF', { juridicLegalData: legal }],
    ['a missing partner', { juridicDataPartner: undefined }],
  ])('refuses a PF with %s', async (_, overrides) => {
    const body = { name: 'X', juridicDataPartner: partner, addresses: [address], accountBank, ...overrides };
    expectError(await session.acme.post('/subaccounts/pf', body), 400, -7001);
  });

  it('refuses a PJ without legal data or with a bad CNPJ', async () => {
    const body = { name: 'X', juridicDataPartner: partner, addresses: [address], accountBank };
    expectError(await session.acme.post('/subaccounts/pj', body), 400, -7001);
    expectError(await session.acme.post('/subaccounts/pj', { ...body, juridicLegalData: { ...legal, cnpj: '11222333000182' } }), 400, -7001);
  });

  it("approves only the company's own sub-accounts", async () => {
    const list = await session.acme.get<SubaccountListResponse>('/sandbox/subaccounts');
    const pending = list.body.data.find((subaccount) => subaccount.status === 'PENDING')!;
    expectError(await session.globex.post(`/sandbox/subaccounts/${pending.id}/approve`), 404, -7701);
    const approved = await session.acme.post<SubaccountResponse>(`/sandbox/subaccounts/${pending.id}/approve`);
    expect(approved.body.data.status).toBe('APPROVED');
    expect((await session.acme.post(`/sandbox/subaccounts/${pending.id}/approve`)).status).toBe(200);
  });
});
