import { changeProfile, missingProfile, profileOrDefault } from '../../config/profiles.js';
import { moveToken } from '../../config/token-store.js';
import type { Profile } from '../../config/store.js';
import { usageError } from '../../errors.js';
import { LOCAL_LEDGER } from '../../ledger/url.js';
import { formatCentsExact } from '../../money.js';
import { globalFlag } from '../../flags.js';
import { askToConfirm } from '../shared/confirm.js';
import type { Invocation } from '../spec.js';
import type { profilesSet } from './index.js';

type Limit = 'maxWithdrawal' | 'maxBatchTotal' | 'maxDailyTotal';

const LIMIT_WORDS: Record<Limit, string> = { maxWithdrawal: 'largest single withdrawal', maxBatchTotal: 'largest batch total', maxDailyTotal: "largest daily total of the team (per account)" };

const describeLimit = (cents: number | undefined) => (cents === undefined ? 'none' : formatCentsExact(cents));

/**
 * Changes a profile's limits, csv separator and token store. A limit of a
 * production profile guards real money: changing one is confirmed at a
 * terminal, and needs --yes without one.
 */
export async function run(invocation: Invocation<typeof profilesSet>): Promise<void> {
  const { io, services, args: [name], opts, flag } = invocation;
  const profile = profileOrDefault(services, name);
  if (!profile) throw missingProfile(name, services.config());
  const csvSeparator = services.flags.csvSeparator;
  const limits: Array<[Limit, number | undefined]> = [];
  if (opts.maxWithdrawal !== undefined || opts.clearMaxWithdrawal) limits.push(['maxWithdrawal', opts.maxWithdrawal]);
  if (opts.maxBatchTotal !== undefined || opts.clearMaxBatchTotal) limits.push(['maxBatchTotal', opts.maxBatchTotal]);
  if (opts.maxDailyTotal !== undefined || opts.clearMaxDailyTotal) limits.push(['maxDailyTotal', opts.maxDailyTotal]);
  const window = opts.duplicateWindow;
  if (limits.length === 0 && csvSeparator === undefined && opts.tokenStore === undefined && window === undefined && opts.ledger === undefined) {
    throw usageError(
      `nothing to set: give ${flag('maxWithdrawal')}, ${flag('maxBatchTotal')}, ${flag('maxDailyTotal')}, their --clear-… flags, ${flag('duplicateWindow')}, ${globalFlag('csvSeparator')}, ${flag('tokenStore')} or ${flag('ledger')}`,
      `payctl profiles set ${name} ${flag('maxWithdrawal')} 500000`,
    );
  }
  const ledgerAfter = opts.ledger ?? profile.ledger ?? LOCAL_LEDGER;
  if ((opts.maxDailyTotal ?? (opts.clearMaxDailyTotal ? undefined : profile.maxDailyTotal)) !== undefined && ledgerAfter === LOCAL_LEDGER) {
    // The daily total is the team's, counted in the shared ledger: a limit nothing counts would only seem to hold.
    throw usageError(
      `${flag('maxDailyTotal')} is counted in the team's ledger, and profile "${name}" would have none: nothing was changed`,
      `name one with it: payctl profiles set ${name} ${flag('ledger')} postgres://USER@HOST:PORT/DB ${flag('maxDailyTotal')} CENTS (or give ${flag('clearMaxDailyTotal')})`,
    );
  }
  const changed = limits.filter(([limit, cents]) => profile[limit] !== cents);
  if (profile.env === 'production' && changed.length > 0) await confirmLimits(invocation, name, profile, changed);

  if (limits.length > 0 || csvSeparator !== undefined || window !== undefined || opts.ledger !== undefined) {
    await changeProfile(services, name, (stored) => {
      if (opts.ledger === LOCAL_LEDGER) delete stored.ledger;
      else if (opts.ledger !== undefined) stored.ledger = opts.ledger;
      for (const [limit, cents] of limits) {
        if (cents === undefined) delete stored[limit];
        else stored[limit] = cents;
      }
      if (csvSeparator !== undefined) stored.csvSeparator = csvSeparator;
      if (window !== undefined) stored.duplicateWindow = window;
    });
    for (const [limit, cents] of limits) await io.output.note(`profile ${name}: ${LIMIT_WORDS[limit]} ${describeLimit(cents)}`);
    if (csvSeparator !== undefined) await io.output.note(`profile ${name}: csv separator ${JSON.stringify(csvSeparator)}`);
    if (window !== undefined) await io.output.note(`profile ${name}: withdrawals are compared with the platform's of the last ${window}`);
    if (opts.ledger !== undefined) {
      await io.output.note(
        opts.ledger === LOCAL_LEDGER ? `profile ${name}: ledger local (the journal and locks on this machine)` : `profile ${name}: ledger ${opts.ledger} (create its tables once: payctl ledger init)`,
      );
    }
  }
  if (opts.tokenStore !== undefined) await io.output.note(await moveToken(services, name, opts.tokenStore));
}

/** Shows the limits before and after and asks (default No); without a terminal, --yes must say so. */
async function confirmLimits(
  invocation: Invocation<typeof profilesSet>,
  name: string,
  profile: Profile,
  changed: Array<[Limit, number | undefined]>,
): Promise<void> {
  await askToConfirm(invocation, `Change the limits of production profile ${name}?`, 'not confirmed: nothing was changed', () => [
    `About to change the limits of profile ${name} (PRODUCTION, real money):`,
    ...changed.map(([limit, cents]) => `  ${LIMIT_WORDS[limit]}: ${describeLimit(profile[limit])} → ${describeLimit(cents)}`),
  ]);
}
