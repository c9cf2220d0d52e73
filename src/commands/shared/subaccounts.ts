import { listSandboxSubaccounts, type ListedSandboxSubaccount } from '../../api/sandbox.js';
import { listSubscriptions } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import { PayctlError } from '../../errors.js';
import { knownSubaccounts, rememberSubaccounts, subaccountName, type KnownSubaccount } from '../../subaccount-names.js';
import { SCAN_PAGE_SIZE } from './list.js';
import { collectPages, pagesOf } from './scan.js';

/**
 * The sub-accounts a person can pick or list. The API has no list of them: the
 * sandbox's own `GET /sandbox/subaccounts` is read where it exists; elsewhere
 * (a 404) they are those this profile remembers (created, used, seen in splits)
 * and the receivers of this company's splits, found by reading every page of
 * subscriptions. Names and statuses learnt either way are remembered in the
 * profile, so that confirmations and tables name them later.
 */
export type SubaccountDirectory =
  | { source: 'sandbox'; subaccounts: ListedSandboxSubaccount[] }
  | { source: 'remembered'; subaccounts: KnownSubaccount[] };

/** The sandbox's own list of sub-accounts, remembered by name; undefined where the platform has no such list. */
async function sandboxSubaccounts({ io, services }: Context): Promise<ListedSandboxSubaccount[] | undefined> {
  const api = await services.api();
  try {
    const subaccounts = await collectPages((query, signal) => listSandboxSubaccounts(api, query, { signal }), { limit: SCAN_PAGE_SIZE, signal: io.signal });
    await rememberSubaccounts(
      services,
      subaccounts.map((subaccount) => ({ id: subaccount.id, name: textOf(subaccount.name), status: textOf(subaccount.status), seenAs: 'sandbox' as const })),
    );
    return subaccounts;
  } catch (error) {
    if (!isMissingRoute(error)) throw error;
    return undefined;
  }
}

/**
 * Learns the names of split receivers payctl does not know yet, where the platform
 * lists sub-accounts (the sandbox); elsewhere they stay known by id, since reading
 * every subscription would learn no name.
 */
export async function learnReceiverNames(ctx: Context, ids: readonly string[]): Promise<void> {
  if (ids.some((id) => subaccountName(ctx.services, id) === undefined)) await sandboxSubaccounts(ctx);
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** What the API sent where a name or status is read: text, or nothing known. */
const textOf = (value: unknown): string | undefined => (isText(value) ? value : undefined);

/** A route the server does not have: 404, or 405 from a gateway that knows the path for other methods. */
const isMissingRoute = (error: unknown) => error instanceof PayctlError && (error.status === 404 || error.status === 405);

export async function subaccountDirectory(ctx: Context): Promise<SubaccountDirectory> {
  const { io, services } = ctx;
  const api = await services.api();
  const scan = { limit: SCAN_PAGE_SIZE, signal: io.signal };
  const listed = await sandboxSubaccounts(ctx);
  if (listed) return { source: 'sandbox', subaccounts: listed };
  const subscriptions = await collectPages(pagesOf(listSubscriptions, api, {}), scan);
  const receivers = new Set(
    subscriptions.flatMap((subscription) => (Array.isArray(subscription.splits) ? subscription.splits : []).map((split) => split.subaccountId)).filter(isText),
  );
  await rememberSubaccounts(
    services,
    [...receivers].map((id) => ({ id, seenAs: 'split' as const })),
  );
  // Also when the config could not be written: what was just seen is listed all the same.
  const known = new Map(knownSubaccounts(services.config(), services.settings().profileName).map((subaccount) => [subaccount.id, subaccount]));
  for (const id of receivers) if (!known.has(id)) known.set(id, { id, seenAs: ['split'] });
  return { source: 'remembered', subaccounts: [...known.values()] };
}
