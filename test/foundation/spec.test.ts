import { describe, expect, expectTypeOf, it } from 'vitest';
import { COMMAND_TREE } from '../../src/commands/tree.js';
import { everyCommand, flagOf, parseOptions, switchOption, valueOption, type Invocation } from '../../src/commands/spec.js';
import { GLOBAL_OPTIONS, optionsOf } from '../../src/commands/options.js';
import { commandTreeFor, TOP_LEVEL_NAMES } from '../../src/commands/top-level.js';
import type { withdrawBatch, withdrawPix } from '../../src/commands/withdraw/index.js';
import { parseWithdrawalAmount } from '../../src/validate.js';

/**
 * The typed command shape: a command's options are parsed by their declared
 * parsers into typed values, and a command's code that reads an option it does
 * not declare, or reads one as the wrong type, does not compile (checked by
 * `tsc --noEmit`, which type-checks this file).
 */

describe('options are parsed by their declared parsers', () => {
  const options = {
    amount: valueOption('cents', 'amount in cents', parseWithdrawalAmount),
    dryRun: switchOption('send nothing'),
    input: switchOption('never prompt', { negated: true }),
  };

  it('values arrive typed; a switch not given is false, a negated one true', () => {
    expect(parseOptions(options, { amount: '1500' })).toEqual({ amount: 1500, dryRun: false, input: true });
    expect(parseOptions(options, { dryRun: true, input: false })).toEqual({ amount: undefined, dryRun: true, input: false });
  });

  it('a bad value is a usage error naming the flag and the rule', () => {
    expect(() => parseOptions(options, { amount: '12.34' })).toThrow(/^--amount "12.34" is invalid: amounts are integer cents/);
  });

  it('a key is its flag in kebab case; a negated switch is --no-…', () => {
    expect([flagOf('bankAccount', options.amount), flagOf('input', options.input)]).toEqual(['--bank-account', '--no-input']);
  });
});

describe('every command of the tree', () => {
  it('declares each flag once, none of them a global one, and runs code (load) or holds subcommands', () => {
    const commands = everyCommand(COMMAND_TREE);
    expect(commands.length).toBeGreaterThan(30);
    for (const { path, spec } of commands) {
      const flags = [...optionsOf(spec), ...GLOBAL_OPTIONS].flatMap((option) => option.flags.split(/[ ,]+/).filter((word) => word.startsWith('-')));
      expect(new Set(flags).size, path.join(' ')).toBe(flags.length);
      expect(Boolean(spec.load) !== Boolean(spec.subcommands?.length), path.join(' ')).toBe(true);
    }
  });
});

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
    expect(typeof misuse).toBe('function');
  });
});

describe('the top-level commands a run loads one by one', () => {
  it('are those of the tree, in its order, each loading its own spec', async () => {
    expect(TOP_LEVEL_NAMES).toEqual(COMMAND_TREE.map((spec) => spec.name));
    for (const spec of COMMAND_TREE) expect(await commandTreeFor(spec.name === 'help' ? undefined : spec.name)).toContain(spec);
  });

  it('a word that names no command, no word, or help, loads every command', async () => {
    for (const word of ['balanc', undefined, 'help', 'constructor']) expect(await commandTreeFor(word)).toBe(COMMAND_TREE);
  });
});
