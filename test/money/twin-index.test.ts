import { describe, expect, it } from 'vitest';
import { twinFinder } from '../../src/withdrawal/duplicates.js';
import { compareWithdrawal, idOf, type WithdrawalIdentity } from '../../src/withdrawal/identity.js';

/**
 * The twin check's index (twinFinder) against the comparison it replaced: every listed withdrawal
 * compared with the row. Generated lists mix well-formed withdrawals with the shapes an answer may
 * hold (fields missing, of another type, another case, -0, withdrawals of the journal's own rows),
 * drawn from small pools so that rows and withdrawals meet often. Seeded: a failure is reproduced.
 */

/** mulberry32: small, seeded, enough to draw test cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const IDS = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
const METHODS = ['pix', 'card', 'boleto'] as const;
const KEYS = ['a@example.com', 'A@example.com', '+5511999990000', '11999990000'];
const KEY_TYPES = ['EMAIL', 'email', 'PHONE', 'CPF'];
/** What a field of a listed withdrawal may hold: the row's values, others, and what payctl cannot read. */
const ITEM_FIELDS: Record<string, readonly unknown[]> = {
  id: [...IDS, 7, null, undefined],
  amount: [100, 101, 0, -0, 100.5, '100', '1,00', null, undefined],
  withdrawalPaymentType: ['PIX', 'CARD', 'BOLETO', 'pix', 'Pix', 'card', 1, null, undefined],
  bankAccountId: [1, 2, '1', 1.5, null, undefined],
  pixKey: [...KEYS, 5, null, undefined],
  pixKeyType: [...KEY_TYPES, 2, null, undefined],
};

function check(seed: number): void {
  const next = random(seed);
  const pick = <T>(pool: readonly T[]): T => pool[Math.floor(next() * pool.length)]!;
  const item = (): unknown => {
    if (next() < 0.05) return pick([null, 'w1', 42, ['PIX', 100, 1]]);
    const fields: Record<string, unknown> = {};
    for (const [name, pool] of Object.entries(ITEM_FIELDS)) {
      const value = pick(pool);
      if (value !== undefined) fields[name] = value;
    }
    return fields;
  };
  const identity = (): WithdrawalIdentity => {
    const method = pick(METHODS);
    const base = { method, amount: pick([100, 101, 0, 100.5]), bankAccountId: pick([1, 2]) };
    if (method !== 'pix') return base;
    return { ...base, pixKey: pick(KEYS), ...(next() < 0.8 ? { pixKeyType: pick(KEY_TYPES) } : {}) };
  };
  const items = Array.from({ length: Math.floor(next() * 40) }, item);
  const exclude = new Set(IDS.filter(() => next() < 0.2));
  const find = twinFinder(items, exclude);
  for (let i = 0; i < 20; i++) {
    const row = identity();
    const pairwise = items.filter((listed) => !exclude.has(idOf(listed) ?? '') && compareWithdrawal(listed, row) !== 'different');
    expect(find(row), `seed ${seed}, row ${JSON.stringify(row)}`).toEqual(pairwise);
  }
}

describe('the twin index', () => {
  it('finds, for every row, the same twins in the same order as comparing the row with every listed withdrawal', () => {
    for (let seed = 1; seed <= 1_000; seed++) check(seed);
  });
});
