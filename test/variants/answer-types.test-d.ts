import { describe, expectTypeOf, it } from 'vitest';
import type { ApiClient } from '../../src/http/client.js';
import type { Answers } from '../../src/api/validators.js';

describe('the answer types generated beside the checks', () => {
  it('make what was checked required with its JSON type, and every other field unknown', () => {
    expectTypeOf<Answers['getCustomer']['id']>().toEqualTypeOf<string>();
    expectTypeOf<Answers['getCustomer']['firstName']>().toEqualTypeOf<unknown>();
    // An enumeration is checked to be a string, not to be one of its values.
    expectTypeOf<Answers['getSubscription']['status']>().toEqualTypeOf<string>();
    expectTypeOf<Answers['getSubscription']['duration']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Answers['listWithdrawals'][number]['amount']>().toEqualTypeOf<unknown>();
    // An id too big for a double is read exactly, as a bigint.
    expectTypeOf<Answers['getBankAccount']['id']>().toEqualTypeOf<number | bigint>();
  });

  it('client.call takes the path parameters and body of the operation, and answers its type', () => {
    const use = async (client: ApiClient) => {
      const customer = await client.call('getCustomer', { params: { customerId: 'x' } });
      expectTypeOf(customer.data).toEqualTypeOf<Answers['getCustomer']>();
      // A write's answer is undefined under --dry-run.
      const removed = await client.call('deleteBankAccount', { params: { bankAccountId: 7 } });
      expectTypeOf(removed).toEqualTypeOf<{ data: Answers['deleteBankAccount']; meta?: unknown; message?: unknown } | undefined>();
      // @ts-expect-error: a read of one customer needs the customer's id
      await client.call('getCustomer', {});
      // @ts-expect-error: a withdrawal is sent with its body
      await client.call('withdraw', {});
    };
    expectTypeOf(use).toBeFunction();
  });
});
