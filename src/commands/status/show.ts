import { listWithdrawals, getBalance, type ListedWithdrawal } from '../../api/withdrawals.js';
import { tokenRefusal } from '../../config/settings.js';
import { PayctlError } from '../../errors.js';
import { withdrawalView } from '../../output/views.js';
import type { Services } from '../../services.js';
import { subaccountName } from '../../subaccount-names.js';
import { createdAtOf } from '../../withdrawal/identity.js';
import type { Invocation } from '../spec.js';
import type { statusShow } from './index.js';

/** Withdrawals read, newest first: enough for what a day's work leaves in processing. */
const PAGES = 3;
const PAGE_SIZE = 100;
const RECENT_MS = 7 * 24 * 3600 * 1000;

interface AccountActivity {
  balances: { pix: number; card: number; boleto: number; inProcessing: number };
  processing: ListedWithdrawal[];
  failed: ListedWithdrawal[];
}

/** Shows what is known here, then what the API says; without a usable token, only the first, and exit 3. */
export async function run({ io, services, print }: Invocation<typeof statusShow>): Promise<void> {
  const settings = await services.settingsWithToken();
  const refusal = tokenRefusal(settings);
  let activity: AccountActivity | undefined;
  let failure: PayctlError | undefined = refusal;
  if (!refusal) {
    try {
      activity = await readActivity(services);
    } catch (error) {
      if (!(error instanceof PayctlError)) throw error;
      failure = error;
    }
  }
  const status = {
    profile: settings.profileName,
    env: settings.env,
    baseUrl: settings.baseUrl,
    tokenStore: settings.tokenLocation ?? null,
    tokenStoreSetting: settings.tokenStore,
    tokenExpiresAt: settings.tokenExpiresAt?.toISOString() ?? null,
    tokenUsable: refusal === undefined,
    tokenProblem: refusal?.message ?? null,
    subaccount: settings.subaccount ?? null,
    // The API has no name for it: the one payctl remembers (src/subaccount-names.ts), else null.
    subaccountName: (settings.subaccount && subaccountName(services, settings.subaccount)) ?? null,
    balances: activity?.balances ?? null,
    processingCount: activity?.processing.length ?? null,
    failedCount: activity?.failed.length ?? null,
  };
  const format = io.output.format;
  if (format === 'json' || format === 'ndjson') {
    await print({ ...status, processing: activity?.processing ?? null, failed: activity?.failed ?? null });
  } else if (format === 'table') {
    await print(status);
    for (const [title, list] of [['withdrawals in processing', activity?.processing], ['withdrawals FAILED in the last 7 days', activity?.failed]] as const) {
      if (!list?.length) continue;
      io.stdout.write(`\n${title}:\n`);
      const writer = io.output.list(withdrawalView);
      await writer.write(list);
      await writer.end();
    }
  } else {
    // Field and value lines for scripts: the lists as their ids.
    const ids = (list: ListedWithdrawal[] | undefined) => (list ? list.map((item) => item.id).join(' ') : null);
    await print({ ...status, processing: ids(activity?.processing), failed: ids(activity?.failed) });
  }
  if (failure) throw failure;
}

async function readActivity(services: Services): Promise<AccountActivity> {
  const api = await services.api();
  const balance = await getBalance(api);
  const since = Date.now() - RECENT_MS;
  const processing: ListedWithdrawal[] = [];
  const failed: ListedWithdrawal[] = [];
  for (let page = 1; page <= PAGES; page++) {
    const { items, total } = await listWithdrawals(api, { page, limit: PAGE_SIZE });
    for (const item of items) {
      if (item.status === 'PENDING') processing.push(item);
      else if (item.status === 'FAILED' && (createdAtOf(item) ?? 0) >= since) failed.push(item);
    }
    if (page * PAGE_SIZE >= total || items.length === 0) break;
  }
  return {
    balances: {
      pix: balance.disponiblePixBalance,
      card: balance.disponibleCardBalance,
      boleto: balance.disponibleBilletBalance,
      inProcessing: balance.withdrawalsInProcessingBalance,
    },
    processing,
    failed,
  };
}
