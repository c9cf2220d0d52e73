import { listSubscriptions, type SubscriptionFilters } from '../../api/subscriptions.js';
import { SUBSCRIPTION_STATUSES } from '../../api/types.js';
import type { Context } from '../../context.js';
import { subscriptionView } from '../../output/views.js';
import { parseCents, parseChoice, parseDate, parseFrequency, parseNonEmpty, parseUuid } from '../../validate.js';
import { parsePaging, runList } from '../shared/list.js';
import { optString, type CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const paging = parsePaging(opts);
  const given = <T>(key: string, parse: (raw: string) => T): T | undefined => {
    const raw = optString(opts, key);
    return raw === undefined ? undefined : parse(raw);
  };
  const filters: SubscriptionFilters = {
    status: given('status', (raw) => parseChoice('--status', raw, SUBSCRIPTION_STATUSES)),
    title: given('title', (raw) => parseNonEmpty('--title', raw, 120)),
    amount: given('amount', (raw) => parseCents('--amount', raw)),
    setupAmount: given('setupAmount', (raw) => parseCents('--setup-amount', raw)),
    frequency: given('frequency', (raw) => parseFrequency('--frequency', raw)),
    startDate: given('startDate', (raw) => parseDate('--start-date', raw)),
    subaccountId: given('splitSubaccount', (raw) => parseUuid('--split-subaccount', raw)),
  };
  const api = await ctx.api();
  await runList(ctx, subscriptionView, paging, (query) => listSubscriptions(api, { ...query, ...filters }));
}
