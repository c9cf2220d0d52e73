import { tokenRefusal } from '../../config/settings.js';
import type { Invocation } from '../spec.js';
import type { authStatus } from './index.js';

/** Prints where and as whom commands would run, and where the token is kept; exit 3 when they could not run. */
export async function run({ services, print }: Invocation<typeof authStatus>): Promise<void> {
  const s = await services.settingsWithToken();
  const refusal = tokenRefusal(s);
  await print({
    profile: s.profileName,
    baseUrl: s.baseUrl,
    env: s.env,
    loggedIn: refusal === undefined,
    tokenSource: s.tokenSource ?? null,
    tokenStore: s.tokenLocation ?? null,
    tokenStoreSetting: s.tokenStore,
    tokenExpiresAt: s.tokenExpiresAt?.toISOString() ?? null,
    clientId: s.profile?.clientId ?? null,
    subaccount: s.subaccount ?? null,
  });
  if (refusal) throw refusal;
}
