import { forgetToken } from '../../config/token-store.js';
import type { Invocation } from '../spec.js';
import type { authLogout } from './index.js';

export async function run({ io, services }: Invocation<typeof authLogout>): Promise<void> {
  const name = services.settings().profileName;
  await forgetToken(services, name);
  await io.output.note(`logged out of profile ${name}`);
}
