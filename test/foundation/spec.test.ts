import { describe, expect, it } from 'vitest';
import { everyCommand, flagOf, optionsOf, switchOption, valueOption } from '../../src/commands/spec.js';
import { GLOBAL_OPTIONS, parseOptions } from '../../src/flags.js';
import { commandTreeFor, loadCommandTree } from '../../src/commands/top-level.js';
import { parseWithdrawalAmount } from '../../src/validation/flags.js';

/**
 * The typed command shape: a command's options are parsed by their declared
 * parsers into typed values, and a command's code that reads an option it does
 * not declare, or reads one as the wrong type, does not compile: spec.test-d.ts, which vitest
 * type-checks (its typecheck mode), so a wrong type fails `vitest run` as well as tsc.
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
  it('declares each flag once, none of them a global one, and runs code (load) or holds subcommands', async () => {
    const commands = everyCommand(await loadCommandTree());
    expect(commands.length).toBeGreaterThan(30);
    for (const { path, spec } of commands) {
      const flags = [...optionsOf(spec), ...GLOBAL_OPTIONS].flatMap((option) => option.flags.split(/[ ,]+/).filter((word) => word.startsWith('-')));
      expect(new Set(flags).size, path.join(' ')).toBe(flags.length);
      expect(Boolean(spec.load) !== Boolean(spec.subcommands?.length), path.join(' ')).toBe(true);
    }
  });
});

describe('the top-level commands a run loads one by one', () => {
  it('a command\'s name loads that command alone', async () => {
    const tree = await loadCommandTree();
    expect(new Set(tree.map((spec) => spec.name)).size).toBe(tree.length);
    for (const spec of tree) if (spec.name !== 'help') expect(await commandTreeFor(spec.name)).toEqual([spec]);
  });

  it('a word that names no command, no word, or help, loads every command', async () => {
    const tree = await loadCommandTree();
    for (const word of ['balanc', undefined, 'help', 'constructor']) expect(await commandTreeFor(word)).toEqual(tree);
  });
});
