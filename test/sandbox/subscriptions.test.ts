import { describe, expect, it } from 'vitest';
import type {
  CancelSubscriptionResponse, MessageResponse, SplitResponse, SubaccountListResponse, SubscriptionListItem, SubscriptionListResponse, SubscriptionResponse,
} from '../../src/api/types.js';
import { expectError, useSandbox, type Fixtures, type Session } from './helpers.js';

describe('sandbox: subscriptions and splits', () => {
  let session: Session;
  let acme: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
  });

  const active = () => acme.subscriptions.filter((subscription) => subscription.status === 'ACTIVE');
  const newFixture = async (overrides: Record<string, unknown> = {}) => {
    const { customerId, cardId } = acme.subscriptions[0];
    const request = { customerId, tokenizedCardId: cardId, title: 'Fixture Plan', amount: 10000, frequency: 30, ...overrides };
    const response = await session.acme.post<SubscriptionResponse>('/sandbox/subscriptions', request);
    expect(response.status).toBe(201);
    return response.body.data;
  };

  it('seeds at least 60 subscriptions in every status, with splits of both types', async () => {
    const list = await session.acme.get<SubscriptionListResponse>('/subscriptions?limit=100');
    expect(list.body.meta.total).toBeGreaterThanOrEqual(60);
    expect(new Set(acme.subscriptions.map((subscription) => subscription.status))).toEqual(new Set(['ACTIVE', 'DELETED', 'EXPIRED', 'SUSPENDED']));
    const splitTypes = new Set(acme.subscriptions.flatMap((subscription) => subscription.splits.map((split: { splitType: string }) => split.splitType)));
    expect(splitTypes).toEqual(new Set(['AMOUNT', 'PERCENTAGE']));
  });

  it('names the card cardId and omits split ids in the list, but not in the single read', async () => {
    const withSplits = acme.subscriptions.find((subscription) => subscription.splits.length > 0)!;
    expect(withSplits).not.toHaveProperty('tokenizedCardId');
    expect(withSplits.splits[0]).not.toHaveProperty('id');
    const single = (await session.acme.get<SubscriptionResponse>(`/subscriptions/${withSplits.id}`)).body.data;
    expect(single.tokenizedCardId).toBe(withSplits.cardId);
    expect(single).not.toHaveProperty('cardId');
    expect(single.splits[0]!.id).toEqual(expect.any(String));
  });

  it('filters by status, title (case-insensitive substring), amount, setupAmount, frequency, startDate and subaccountId', async () => {
    const all = acme.subscriptions;
    const sample = all[3]!;
    const cases: Array<[string, (subscription: SubscriptionListItem) => boolean]> = [
      ['status=SUSPENDED', (s) => s.status === 'SUSPENDED'],
      [`title=${encodeURIComponent(sample.title.slice(2, 8).toUpperCase())}`, (s) => s.title.toLowerCase().includes(sample.title.slice(2, 8).toLowerCase())],
      [`amount=${sample.amount}`, (s) => s.amount === sample.amount],
      ['setupAmount=0', (s) => s.setupAmount === 0],
      ['frequency=30', (s) => s.frequency === 30],
      ['startDate=2024-06-01', (s) => s.createdAt >= '2024-06-01'],
      [`subaccountId=${acme.subaccounts.approved[1]}`, (s) => s.splits.some((split) => split.subaccountId === acme.subaccounts.approved[1])],
      ['status=ACTIVE&frequency=30', (s) => s.status === 'ACTIVE' && s.frequency === 30],
    ];
    for (const [query, predicate] of cases) {
      const response = await session.acme.get<SubscriptionListResponse>(`/subscriptions?limit=100&${query}`);
      const expected = all.filter(predicate).map((subscription) => subscription.id);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(response.body.data.map((subscription: { id: string }) => subscription.id), query).toEqual(expected);
      expect(response.body.meta.total).toBe(expected.length);
    }
  });

  it.each(['status=CANCELLED', 'amount=abc', 'amount=-1', 'frequency=0', 'startDate=2024-13-01', 'startDate=yesterday', 'subaccountId=123', 'limit=500', 'page=0', 'status=ACTIVE&status=DELETED'])(
    'refuses ?%s with 400 -7002',
    async (query) => {
      expectError(await session.acme.get(`/subscriptions?${query}`), 400, -7002);
    },
  );

  it('updates the fields given, keeps the others, and reads an omitted duration as lifetime', async () => {
    const subscription = await newFixture({ duration: 12, expirationDate: '2099-12-31' });
    const kept = await session.acme.put<SubscriptionResponse>(`/subscriptions/${subscription.id}`, { title: 'Renamed', amount: 12000, duration: 12, expirationDate: '2099-12-31' });
    expect(kept.body.data).toMatchObject({ title: 'Renamed', amount: 12000, frequency: subscription.frequency, duration: 12, expirationDate: '2099-12-31', customerId: subscription.customerId, status: 'ACTIVE' });
    expect(kept.body.data.updatedAt >= subscription.updatedAt).toBe(true);
    const lifetime = await session.acme.put<SubscriptionResponse>(`/subscriptions/${subscription.id}`, { frequency: 7 });
    expect(lifetime.body.data).toMatchObject({ title: 'Renamed', frequency: 7 });
    expect(lifetime.body.data).not.toHaveProperty('duration');
    expect(lifetime.body.data).not.toHaveProperty('expirationDate');
    expect((await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data).toEqual(lifetime.body.data);
  });

  it('takes the current expiration date again even once past, but no new past one', async () => {
    const expired = acme.subscriptions.find((s) => s.status === 'EXPIRED' && s.expirationDate)!;
    expect(expired, 'the seed has EXPIRED subscriptions with an expiration date').toBeDefined();
    const again = await session.acme.put<SubscriptionResponse>(`/subscriptions/${expired.id}`, { title: expired.title, expirationDate: expired.expirationDate, ...(expired.duration && { duration: expired.duration }) });
    expect(again.status).toBe(200);
    expect(again.body.data.expirationDate).toBe(expired.expirationDate);
    expectError(await session.acme.put(`/subscriptions/${expired.id}`, { expirationDate: '2020-01-02' }), 400, -7001);
  });

  it('filters titles without regard to accents or case (NFD, combining marks dropped)', async () => {
    const expected = acme.subscriptions.filter((s) => s.title.includes('Café')).map((s) => s.id);
    expect(expected.length, 'the seed has "Clube do Café" plans').toBeGreaterThan(0);
    for (const needle of ['cafe', 'CAFÉ', 'Cafe\u0301', 'clube do cafe']) {
      const response = await session.acme.get<SubscriptionListResponse>(`/subscriptions?limit=100&title=${encodeURIComponent(needle)}`);
      expect(response.body.data.map((s: { id: string }) => s.id), needle).toEqual(expected);
    }
    const services = await session.acme.get<SubscriptionListResponse>(`/subscriptions?limit=100&title=${encodeURIComponent('INGLES')}`);
    expect(services.body.data.length).toBe(acme.subscriptions.filter((s) => s.title.includes('Inglês')).length);
    expect(services.body.data.length).toBeGreaterThan(0);
  });

  it('refuses null for duration and expirationDate: the API has no null there', async () => {
    const subscription = await newFixture({ duration: 12 });
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { duration: null }), 400, -7001);
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { title: 'x', expirationDate: null }), 400, -7001);
    expect((await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.duration).toBe(12);
  });

  it.each([
    ['a negative amount', { amount: -5 }, 400, -7001],
    ['a decimal amount', { amount: 10.5 }, 400, -7001],
    ['a past expiration date', { expirationDate: '2020-01-01' }, 400, -7001],
    ['splits field', { splits: [] }, 400, -7001],
    ['an absent card', { tokenizedCardId: '00000000-0000-4000-8000-000000000000' }, 400, -7508],
    ['an absent customer', { customerId: '00000000-0000-4000-8000-000000000000' }, 404, -7501],
  ])('refuses an update with %s', async (_, body, status, returnCode) => {
    const subscription = active()[0]!;
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, body), status, returnCode);
  });

  it("refuses a card of another customer (-7511), and another company's card (-7508)", async () => {
    const subscription = active()[0]!;
    const otherCustomersCard = acme.subscriptions.find((s) => s.customerId !== subscription.customerId)!.cardId;
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { tokenizedCardId: otherCustomersCard }), 400, -7511);
    const globexCard = (await session.globex.get<SubscriptionListResponse>('/subscriptions?limit=1')).body.data[0]!.cardId;
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { tokenizedCardId: globexCard }), 400, -7508);
  });

  it('cancels once and for all: DELETED, canceledAt set, and every later change refused with 409 -7602', async () => {
    const subscription = await newFixture();
    const cancelled = await session.acme.delete<CancelSubscriptionResponse>(`/subscriptions/${subscription.id}`);
    expect(cancelled.body.data).toEqual({ id: subscription.id, status: 'DELETED' });
    const read = (await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data;
    expect(read.status).toBe('DELETED');
    expect(read.canceledAt).toEqual(expect.any(String));
    expectError(await session.acme.delete(`/subscriptions/${subscription.id}`), 409, -7602);
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { title: 'Back' }), 409, -7602);
    expectError(await session.acme.post('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[0], splitType: 'amount', splitAmount: 100 }), 409, -7602);
    expect((await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.status).toBe('DELETED');
  });

  it('adds amount and percentage splits with AMOUNT/PERCENTAGE, liquidAmount and chargebackLiable defaulting to false', async () => {
    const subscription = await newFixture({ amount: 10000 });
    const amountSplit = await session.acme.post<SplitResponse>('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[0], splitType: 'amount', splitAmount: 2000 });
    expect(amountSplit.status).toBe(201);
    expect(amountSplit.body.data).toMatchObject({ splitType: 'AMOUNT', splitAmount: 2000, splitPercentage: null, liquidAmount: 2000 - 80, chargebackLiable: false });
    const percentageSplit = await session.acme.post<SplitResponse>('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[1], splitType: 'percentage', splitPercentage: 12.35, chargebackLiable: true });
    expect(percentageSplit.body.data).toMatchObject({ splitType: 'PERCENTAGE', splitAmount: null, splitPercentage: 12.35, liquidAmount: 1235 - 49, chargebackLiable: true });
    const read = (await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data;
    expect(read.splits.map((split: { id: string }) => split.id)).toEqual([amountSplit.body.data.id, percentageSplit.body.data.id]);
  });

  it('keeps the splits within the amount left after the subscription fee (422 -7604), also on amount updates', async () => {
    const amount = 10000;
    // docs/sandbox.md, "Fees": fee = round(10000 × 3.99%) + 39 = 399 + 39 = 438 cents; allowance = 10000 − 438.
    const allowance = 9562;
    const subscription = await newFixture({ amount });
    const add = (body: Record<string, unknown>) => session.acme.post('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[0], ...body });
    expectError(await add({ splitType: 'amount', splitAmount: allowance + 1 }), 422, -7604);
    expect((await add({ splitType: 'amount', splitAmount: allowance - 1000 })).status).toBe(201);
    expectError(await add({ splitType: 'percentage', splitPercentage: 10.01 }), 422, -7604);
    expect((await add({ splitType: 'percentage', splitPercentage: 10 })).status).toBe(201);
    expectError(await session.acme.put(`/subscriptions/${subscription.id}`, { amount: 9000 }), 422, -7604);
    expect((await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.amount).toBe(amount);
  });

  it.each([
    ['3 decimals', { splitType: 'percentage', splitPercentage: 10.123 }],
    ['0 percent', { splitType: 'percentage', splitPercentage: 0 }],
    ['over 100 percent', { splitType: 'percentage', splitPercentage: 100.01 }],
    ['percentage without splitPercentage', { splitType: 'percentage', splitAmount: 100 }],
    ['amount without splitAmount', { splitType: 'amount' }],
    ['a decimal amount', { splitType: 'amount', splitAmount: 1.5 }],
    ['the response spelling AMOUNT', { splitType: 'AMOUNT', splitAmount: 100 }],
    ['an unknown type', { splitType: 'fixed', splitAmount: 100 }],
    ['chargebackLiable as a string', { splitType: 'amount', splitAmount: 100, chargebackLiable: 'yes' }],
  ])('refuses a split with %s (400 -7001)', async (_, body) => {
    expectError(await session.acme.post('/subscriptions/add_split', { subscriptionId: active()[1]!.id, subaccountId: acme.subaccounts.approved[0], ...body }), 400, -7001);
  });

  it('accepts 2-decimal percentages such as 0.29 (no float artefacts)', async () => {
    const subscription = await newFixture();
    expect((await session.acme.post('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[1], splitType: 'percentage', splitPercentage: 0.29 })).status).toBe(201);
  });

  it('splits only to APPROVED sub-accounts of the company', async () => {
    const subscription = await newFixture();
    const body = { subscriptionId: subscription.id, splitType: 'amount', splitAmount: 100 };
    expectError(await session.acme.post('/subscriptions/add_split', { ...body, subaccountId: acme.subaccounts.pending }), 422, -7702);
    const globexSubaccount = (await session.globex.get<SubaccountListResponse>('/sandbox/subaccounts')).body.data[0]!.id;
    expectError(await session.acme.post('/subscriptions/add_split', { ...body, subaccountId: globexSubaccount }), 404, -7701);
    expectError(await session.acme.post('/subscriptions/add_split', { ...body, subscriptionId: '00000000-0000-4000-8000-000000000000', subaccountId: acme.subaccounts.approved[0] }), 404, -7601);
  });

  it('removes a split once (404 -7603 after), only from its own subscription', async () => {
    const subscription = await newFixture();
    const split = (await session.acme.post<SplitResponse>('/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: acme.subaccounts.approved[0], splitType: 'amount', splitAmount: 500 })).body.data;
    const other = await newFixture();
    expectError(await session.acme.delete(`/subscriptions/${other.id}/remove_split/${split.id}`), 404, -7603);
    expectError(await session.globex.delete(`/subscriptions/${subscription.id}/remove_split/${split.id}`), 404, -7601);
    const removed = await session.acme.delete<MessageResponse>(`/subscriptions/${subscription.id}/remove_split/${split.id}`);
    expect(removed.body.data).toEqual({ message: expect.any(String) });
    expect((await session.acme.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.splits).toEqual([]);
    expectError(await session.acme.delete(`/subscriptions/${subscription.id}/remove_split/${split.id}`), 404, -7603);
  });

  it("answers 404 -7601 for another company's subscription on every subscription route", async () => {
    const id = acme.subscriptions[0].id;
    expectError(await session.globex.get(`/subscriptions/${id}`), 404, -7601);
    expectError(await session.globex.put(`/subscriptions/${id}`, { title: 'Mine' }), 404, -7601);
    expectError(await session.globex.delete(`/subscriptions/${id}`), 404, -7601);
    const globexSubaccount = (await session.globex.get<SubaccountListResponse>('/sandbox/subaccounts')).body.data[0]!.id;
    expectError(await session.globex.post('/subscriptions/add_split', { subscriptionId: id, subaccountId: globexSubaccount, splitType: 'amount', splitAmount: 100 }), 404, -7601);
    expect((await session.globex.get<SubscriptionListResponse>('/subscriptions?limit=100')).body.data.some((s: { id: string }) => s.id === id)).toBe(false);
  });
});
