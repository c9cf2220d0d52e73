import { describe, expectTypeOf, it } from 'vitest';
import type { Invocation } from '../../src/commands/spec.js';
import type { withdrawBatch, withdrawPix } from '../../src/commands/withdraw/index.js';

/**
 * Type tests, run by vitest's typecheck mode (vitest.config.ts): an assertion whose types do not
 * hold, or an @ts-expect-error with no error under it, fails the run.
 */

describe('a command reads its input as its declaration types it', () => {
  it('withdraw pix: numbers for amounts and accounts, a key type from the API, booleans for switches', () => {
    expectTypeOf<Invocation<typeof withdrawPix>['opts']['amount']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Invocation<typeof withdrawPix>['opts']['bankAccount']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Invocation<typeof withdrawPix>['opts']['pixKeyType']>().toEqualTypeOf<'DOCUMENT_CPF' | 'DOCUMENT_CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM' | undefined>();
    expectTypeOf<Invocation<typeof withdrawPix>['opts']['allowDuplicate']>().toEqualTypeOf<boolean>();
    expectTypeOf<Invocation<typeof withdrawBatch>['args']>().toEqualTypeOf<readonly [string]>();
  });

  it('an option it does not declare, or a flag name misspelt, is a compile error', () => {
    const misuse = (pix: Invocation<typeof withdrawPix>, batch: Invocation<typeof withdrawBatch>) => [
      // @ts-expect-error -- a misspelt option
      pix.opts.ammount,
      // @ts-expect-error -- a batch's option on a single withdrawal
      pix.opts.journal,
      // @ts-expect-error -- a single withdrawal's option on a batch
      batch.opts.amount,
      // @ts-expect-error -- a flag that is not the command's
      pix.flag('journal'),
      // @ts-expect-error -- a switch has no value to ask for
      pix.need('allowDuplicate', async () => ''),
    ];
    expectTypeOf(misuse).toBeFunction();
  });
});
