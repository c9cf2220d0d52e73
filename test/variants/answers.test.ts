import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerFault } from '../../src/api/answers.js';
import { ROOT } from '../helpers/cli.js';
// @ts-expect-error: a build script, plain JavaScript
import { generateValidators } from '../../scripts/gen-validators.mjs';

const document = JSON.parse(readFileSync(path.join(ROOT, 'openapi/payctl-api.json'), 'utf8'));
const needs = JSON.parse(readFileSync(path.join(ROOT, 'src/api/needs.json'), 'utf8'));
const split = { id: 's1', subaccountId: 'a1', splitType: 'AMOUNT', splitAmount: 100, splitPercentage: null, chargebackLiable: false };
const subscription = { id: 'x', title: 'Plano', amount: 100, frequency: 30, customerId: 'c', status: 'ACTIVE', splits: [split] };

describe('the generated answer checks', () => {
  it('src/api/validators.ts is what the document and needs.json make', () => {
    expect(readFileSync(path.join(ROOT, 'src/api/validators.ts'), 'utf8')).toBe(generateValidators(document, needs));
  });

  it('name the operation, the field and the type, for a field missing, null, of another type, or inside a list', () => {
    const cases: Array<[unknown, string | undefined]> = [
      [{ data: subscription }, undefined],
      [{ data: { ...subscription, status: 'ON_HOLD', extra: [1] } }, undefined],
      [{ data: { ...subscription, splits: undefined } }, 'GET /subscriptions/{subscriptionId} answered without splits (an array)'],
      [{ data: { ...subscription, amount: '100' } }, 'GET /subscriptions/{subscriptionId} answered with amount as a string, not an integer'],
      [{ data: { ...subscription, amount: 1.5 } }, 'GET /subscriptions/{subscriptionId} answered with amount as a number with decimals, not an integer'],
      [{ data: { ...subscription, title: null } }, 'GET /subscriptions/{subscriptionId} answered with title null, not a string'],
      [{ data: { ...subscription, splits: [split, { ...split, id: 7 }] } }, 'GET /subscriptions/{subscriptionId} answered with splits[1].id as a number, not a string'],
      [{ data: { ...subscription, splits: [{ ...split, splitAmount: null }] } }, undefined],
      [{ data: { ...subscription, duration: '12' } }, 'GET /subscriptions/{subscriptionId} answered with duration as a string, not an integer'],
      [{ data: [] }, 'GET /subscriptions/{subscriptionId} answered with data as an array, not an object'],
      [{ message: 'ok' }, 'GET /subscriptions/{subscriptionId} answered without data (an object)'],
      [[subscription], 'GET /subscriptions/{subscriptionId} answered with an array instead of an object holding data'],
    ];
    for (const [body, message] of cases) expect(answerFault('getSubscription', body), JSON.stringify(body)).toBe(message);
    expect(answerFault('listCustomers', { data: [{}, 'x'] })).toBe('GET /customers answered with data[1] as a string, not an object');
    expect(answerFault('listCustomers', { data: [] })).toBeUndefined();
  });

  it('the generator refuses needs.json paths the document does not have, and operations without an entry', () => {
    expect(() => generateValidators(document, { ...needs, getSubscription: ['id', 'nonsense'] })).toThrow(/getSubscription: needs.json names nonsense/);
    // A read of one resource is compared with the one asked for: its id must be checked.
    expect(() => generateValidators(document, { ...needs, getCustomer: [] })).toThrow(/getCustomer reads one resource: src\/api\/needs.json must name its id/);
    const { getCard: _getCard, ...withoutGetCard } = needs;
    expect(() => generateValidators(document, withoutGetCard)).toThrow(/no entry for getCard/);
  });
});
