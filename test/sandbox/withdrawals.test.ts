import { describe, expect, it } from 'vitest';
import type {
  BalancesResponse, BankAccountListResponse, BankAccountResponse, MessageResponse, SubaccountListResponse, WithdrawalListResponse, WithdrawalResponse,
} from '../../src/api/types.js';
import { MAX_BALANCE_CENTS } from '../../src/sandbox/handlers/withdrawals.js';
import { expectError, startSession, useSandbox, VALID, type Fixtures, type Session } from './helpers.js';

const cents = (reais: number) => Math.round(reais * 100);

describe('sandbox: bank accounts, withdrawals and balances', () => {
  let session: Session;
  let acme: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
  });

  const balance = async (subaccount?: string) => (await session.acme.get<BalancesResponse>('/withdrawals/balance', { subaccount })).body.data;
  const pix = (amount: number, overrides: Record<string, unknown> = {}) => ({ withdrawalMethod: 'pix', amount, bankAccountId: acme.mainBankAccounts[0].id, pixKeyType: 'EMAIL', pixKey: VALID.email, ...overrides });

  it('lists, reads and deletes bank accounts of the account context only', async () => {
    const [main, subaccount] = [acme.mainBankAccounts, acme.subaccountBankAccounts];
    expect(main.length).toBeGreaterThan(0);
    expect(subaccount.length).toBeGreaterThan(0);
    expect((await session.acme.get<BankAccountListResponse>('/bank_accounts?limit=1&page=2')).body.meta).toEqual({ total: main.length, page: 2, limit: 1, totalPages: main.length });
    expect((await session.acme.get<BankAccountResponse>(`/bank_accounts/${main[0].id}`)).body.data).toEqual(main[0]);
    expectError(await session.acme.get(`/bank_accounts/${subaccount[0].id}`), 404, -7100);
    expectError(await session.acme.get(`/bank_accounts/${main[0].id}`, { subaccount: acme.subaccounts.approved[0] }), 404, -7100);
    expectError(await session.globex.get(`/bank_accounts/${main[0].id}`), 404, -7100);
    expectError(await session.globex.delete(`/bank_accounts/${main[0].id}`), 404, -7100);
    expectError(await session.acme.get('/bank_accounts/abc'), 400, -7006);
    expectError(await session.acme.get('/bank_accounts/0'), 400, -7006);

    const created = await session.acme.post<BankAccountResponse>('/sandbox/bank_accounts', { holderName: 'Acme', bankCode: '001', routingNumber: '1234', accountNumber: '99999-1', document: VALID.cnpj, accountType: 'SAVINGS' }, { subaccount: acme.subaccounts.approved[0] });
    expect(created.status).toBe(201);
    const removed = await session.acme.delete<MessageResponse>(`/bank_accounts/${created.body.data.id}`, { subaccount: acme.subaccounts.approved[0] });
    expect(removed.body.data).toEqual({ message: expect.any(String) });
    expectError(await session.acme.get(`/bank_accounts/${created.body.data.id}`, { subaccount: acme.subaccounts.approved[0] }), 404, -7100);
    expectError(await session.acme.delete(`/bank_accounts/${created.body.data.id}`, { subaccount: acme.subaccounts.approved[0] }), 404, -7100);
  });

  it('refuses a foreign x-subaccount-id with 403 and a malformed one with 400, on every route', async () => {
    const globexSubaccount = (await session.globex.get<SubaccountListResponse>('/sandbox/subaccounts')).body.data[0]!.id;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/bank_accounts'],
      ['GET', `/bank_accounts/${acme.mainBankAccounts[0].id}`],
      ['DELETE', `/bank_accounts/${acme.mainBankAccounts[0].id}`],
      ['POST', '/withdrawals/withdraw', pix(100)],
      ['GET', '/withdrawals'],
      ['GET', `/withdrawals/${acme.withdrawals[0].id}`],
      ['GET', '/withdrawals/balance'],
      ['POST', '/sandbox/balance', { pix: 1 }],
      ['POST', `/sandbox/withdrawals/${acme.withdrawals[0].id}/settle`, { status: 'FAILED' }],
      ['GET', '/customers'],
      ['GET', '/subscriptions'],
    ];
    for (const [method, path, body] of routes) {
      expectError(await session.acme.call(method, path, { body, subaccount: globexSubaccount }), 403, -7403);
      expectError(await session.acme.call(method, path, { body, subaccount: 'not-a-uuid' }), 400, -7007);
    }
    expect((await session.acme.get(`/bank_accounts/${acme.mainBankAccounts[0].id}`)).status).toBe(200);
  });

  it('moves a PIX withdrawal from the pix balance to processing, PENDING, newest first in the list', async () => {
    const before = await balance();
    const created = await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', pix(10_000, { postbackUrl: 'https://example.com/hook' }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ amount: 10_000, liquidAmount: 10_000 - 49, status: 'PENDING', withdrawalPaymentType: 'PIX', pixKeyType: 'EMAIL', pixKey: VALID.email, postbackUrl: 'https://example.com/hook' });
    const after = await balance();
    expect(cents(before.disponiblePixBalance - after.disponiblePixBalance)).toBe(10_000);
    expect(cents(after.withdrawalsInProcessingBalance - before.withdrawalsInProcessingBalance)).toBe(10_000);
    const list = await session.acme.get<WithdrawalListResponse>('/withdrawals?limit=2');
    expect(list.body.data[0]).toEqual(created.body.data);
    expect(Object.keys(list.body.meta)).toEqual(['total']);
    expect((await session.acme.get<WithdrawalResponse>(`/withdrawals/${created.body.data.id}`)).body.data).toEqual(created.body.data);
    expectError(await session.globex.get(`/withdrawals/${created.body.data.id}`), 404, -7101);
  });

  it('rounds the card fee (2%) to the nearest cent, not down', async () => {
    // 2% of 2345 is 46.9: a fee of 47; 2% of 2320 is 46.4: 46.
    for (const [amount, liquidAmount] of [[2345, 2298], [2320, 2274]] as const) {
      const card = await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'card', amount, bankAccountId: acme.mainBankAccounts[1]!.id });
      expect(card.status).toBe(201);
      expect(card.body.data).toMatchObject({ amount, liquidAmount });
    }
  });

  it('debits card and boleto withdrawals from their own balances, with their fees', async () => {
    const before = await balance();
    const card = await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'card', amount: 5_000, bankAccountId: acme.mainBankAccounts[1]!.id });
    expect(card.body.data).toMatchObject({ withdrawalPaymentType: 'CARD', liquidAmount: 4_900 });
    for (const absent of ['pixKeyType', 'pixKey', 'postbackUrl']) expect(card.body.data).not.toHaveProperty(absent);
    const boleto = await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'boleto', amount: 3_000, bankAccountId: acme.mainBankAccounts[1]!.id });
    expect(boleto.body.data).toMatchObject({ withdrawalPaymentType: 'BOLETO', liquidAmount: 2_901 });
    const after = await balance();
    expect(cents(before.disponibleCardBalance - after.disponibleCardBalance)).toBe(5_000);
    expect(cents(before.disponibleBilletBalance - after.disponibleBilletBalance)).toBe(3_000);
    expect(cents(before.disponiblePixBalance - after.disponiblePixBalance)).toBe(0);
    expect(cents(after.withdrawalsInProcessingBalance - before.withdrawalsInProcessingBalance)).toBe(8_000);
  });

  it.each([
    ['99 cents', { amount: 99 }, 400, -7103],
    ['a decimal amount', { amount: 100.5 }, 400, -7001],
    ['an amount as a string', { amount: '100' }, 400, -7001],
    ['an unknown method', { withdrawalMethod: 'ted' }, 400, -7001],
    ['the sample pixKeyType CPF', { pixKeyType: 'CPF', pixKey: VALID.cpf }, 400, -7001],
    ['a PIX without its key', { pixKey: undefined }, 400, -7001],
    ['PIX fields on a card withdrawal', { withdrawalMethod: 'card' }, 400, -7001],
    ['an ftp postbackUrl', { postbackUrl: 'ftp://example.com/x' }, 400, -7001],
    ['a relative postbackUrl', { postbackUrl: '/hook' }, 400, -7001],
    ['an absent bank account', { bankAccountId: 999_999 }, 404, -7100],
    ['a bank account id as a string', { bankAccountId: '1001' }, 400, -7001],
    ['an invalid CPF key', { pixKeyType: 'DOCUMENT_CPF', pixKey: '52998224724' }, 400, -7105],
    ['a CPF given as CNPJ', { pixKeyType: 'DOCUMENT_CNPJ', pixKey: VALID.cpf }, 400, -7105],
    ['an invalid CNPJ key', { pixKeyType: 'DOCUMENT_CNPJ', pixKey: '11222333000180' }, 400, -7105],
    ['an invalid e-mail key', { pixKeyType: 'EMAIL', pixKey: 'no-at-sign' }, 400, -7105],
    ['a phone without +55', { pixKeyType: 'PHONE', pixKey: '11987654321' }, 400, -7105],
    ['a phone with an unused DDD', { pixKeyType: 'PHONE', pixKey: '+5520987654321' }, 400, -7105],
    ['a random key that is not a UUID', { pixKeyType: 'RANDOM', pixKey: 'abc' }, 400, -7105],
  ])('refuses %s and leaves the balances alone', async (_, overrides, status, returnCode) => {
    const before = await balance();
    expectError(await session.acme.post('/withdrawals/withdraw', { ...pix(100), ...overrides }), status, returnCode);
    expect(await balance()).toEqual(before);
  });

  it.each([
    ['DOCUMENT_CPF', VALID.cpf],
    ['DOCUMENT_CNPJ', VALID.cnpj],
    ['EMAIL', VALID.email],
    ['PHONE', VALID.phone],
    ['RANDOM', VALID.randomKey],
  ])('accepts a valid %s key', async (pixKeyType, pixKey) => {
    expect((await session.acme.post('/withdrawals/withdraw', pix(100, { pixKeyType, pixKey }))).status).toBe(201);
  });

  it('refuses a withdrawal over the available balance with 422 -7102', async () => {
    const available = cents((await balance()).disponibleBilletBalance);
    expectError(await session.acme.post('/withdrawals/withdraw', { withdrawalMethod: 'boleto', amount: available + 1, bankAccountId: acme.mainBankAccounts[0].id }), 422, -7102);
  });

  it('works in a sub-account context: its bank accounts, its balance, its withdrawals', async () => {
    const subaccount = acme.subaccounts.approved[0];
    const before = await balance(subaccount);
    const mainBefore = await balance();
    const created = await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', pix(1_000, { bankAccountId: acme.subaccountBankAccounts[0].id }), { subaccount });
    expect(created.status).toBe(201);
    expect(cents(before.disponiblePixBalance - (await balance(subaccount)).disponiblePixBalance)).toBe(1_000);
    expect(await balance()).toEqual(mainBefore);
    expect((await session.acme.get<WithdrawalListResponse>('/withdrawals?limit=1', { subaccount })).body.data[0]!.id).toBe(created.body.data.id);
    expectError(await session.acme.get(`/withdrawals/${created.body.data.id}`), 404, -7101);
    expectError(await session.acme.post('/withdrawals/withdraw', pix(1_000), { subaccount }), 404, -7100);
  });

  it('settles COMPLETED (out of processing) and FAILED (back to the balance), once (409 -7104)', async () => {
    const first = (await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', pix(2_000))).body.data;
    const second = (await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'card', amount: 3_000, bankAccountId: acme.mainBankAccounts[0].id })).body.data;
    const before = await balance();
    const completed = await session.acme.post<WithdrawalResponse>(`/sandbox/withdrawals/${first.id}/settle`, { status: 'COMPLETED' });
    expect(completed.body.data.status).toBe('COMPLETED');
    const failed = await session.acme.post<WithdrawalResponse>(`/sandbox/withdrawals/${second.id}/settle`, { status: 'FAILED' });
    expect(failed.body.data.status).toBe('FAILED');
    const after = await balance();
    expect(cents(before.withdrawalsInProcessingBalance - after.withdrawalsInProcessingBalance)).toBe(5_000);
    expect(cents(after.disponibleCardBalance - before.disponibleCardBalance)).toBe(3_000);
    expect(after.disponiblePixBalance).toBe(before.disponiblePixBalance);
    expectError(await session.acme.post(`/sandbox/withdrawals/${first.id}/settle`, { status: 'FAILED' }), 409, -7104);
    expectError(await session.acme.post(`/sandbox/withdrawals/${first.id}/settle`, { status: 'PENDING' }), 400, -7001);
    expectError(await session.globex.post(`/sandbox/withdrawals/${second.id}/settle`, { status: 'COMPLETED' }), 404, -7101);
    expect(await balance()).toEqual(after);
  });

  it('refuses deleting a bank account with PENDING withdrawals (409 -7106)', async () => {
    const bankAccount = (await session.acme.post<BankAccountResponse>('/sandbox/bank_accounts', { holderName: 'Acme', bankCode: '001', routingNumber: '1', accountNumber: '1', document: VALID.cnpj, accountType: 'CHECKING' })).body.data;
    const withdrawal = (await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', pix(100, { bankAccountId: bankAccount.id }))).body.data;
    expectError(await session.acme.delete(`/bank_accounts/${bankAccount.id}`), 409, -7106);
    await session.acme.post(`/sandbox/withdrawals/${withdrawal.id}/settle`, { status: 'COMPLETED' });
    expect((await session.acme.delete(`/bank_accounts/${bankAccount.id}`)).status).toBe(200);
  });

  it('credits balances in cents (sandbox) and refuses negative, decimal or empty credits', async () => {
    const before = await balance();
    const credited = await session.acme.post<BalancesResponse>('/sandbox/balance', { pix: 1_01, billet: 50 });
    expect(cents(credited.body.data.disponiblePixBalance - before.disponiblePixBalance)).toBe(101);
    expect(cents(credited.body.data.disponibleBilletBalance - before.disponibleBilletBalance)).toBe(50);
    for (const body of [{ pix: -1 }, { pix: 1.5 }, {}, { dollars: 5 }, { pix: '5' }]) expectError(await session.acme.post('/sandbox/balance', body), 400, -7001);
  });

  it('refuses a credit that would take a balance over the sandbox maximum (422 -7107)', async () => {
    let response;
    for (let i = 0; i <= 10 && (!response || response.status === 200); i++) response = await session.acme.post('/sandbox/balance', { card: MAX_BALANCE_CENTS / 10 });
    expectError(response!, 422, -7107);
  });
});

describe('sandbox: concurrent withdrawals against one balance', () => {
  it('never overdraws: 200+ parallel requests, accepted amounts equal the balance moved', async () => {
    const session = await startSession();
    try {
      const subaccount = (await session.acme.get<SubaccountListResponse>('/sandbox/subaccounts')).body.data.find((s: { status: string }) => s.status === 'APPROVED')!.id;
      const bankAccountId = (await session.acme.get<BankAccountListResponse>('/bank_accounts', { subaccount })).body.data[0]!.id;
      const before = (await session.acme.get<BalancesResponse>('/withdrawals/balance', { subaccount })).body.data;
      const available = cents(before.disponiblePixBalance);
      const amounts = Array.from({ length: 240 }, (_, i) => 1_000 + ((i * 137) % 4_000));
      expect(amounts.reduce((sum, amount) => sum + amount, 0)).toBeGreaterThan(available);
      const responses = await Promise.all(
        amounts.map((amount) => {
          const request = { withdrawalMethod: 'pix', amount, bankAccountId, pixKeyType: 'RANDOM', pixKey: VALID.randomKey };
          return session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', request, { subaccount });
        }),
      );
      const accepted = responses.filter((response) => response.status === 201).reduce((sum, response) => sum + response.body.data.amount, 0);
      for (const response of responses) if (response.status !== 201) expectError(response, 422, -7102);
      const after = (await session.acme.get<BalancesResponse>('/withdrawals/balance', { subaccount })).body.data;
      expect(after.disponiblePixBalance).toBeGreaterThanOrEqual(0);
      expect(cents(before.disponiblePixBalance - after.disponiblePixBalance)).toBe(accepted);
      expect(cents(after.withdrawalsInProcessingBalance - before.withdrawalsInProcessingBalance)).toBe(accepted);
      expect(available - accepted).toBeLessThan(1_000);
    } finally {
      await session.sandbox.close();
    }
  });
});
