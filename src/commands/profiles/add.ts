import { isLoopback, requireHttpsForProduction } from '../../config/settings.js';
import { updateConfig, type Environment } from '../../config/store.js';
import { usageError } from '../../errors.js';
import { globalFlag } from '../../flags.js';
import { longFlag, type Invocation } from '../spec.js';
import type { profilesAdd, profilesSet } from './index.js';

/** Without --env, a loopback base URL is a local sandbox; anything else is treated as production. */
const guessEnvironment = (baseUrl: string): Environment => (isLoopback(new URL(baseUrl).hostname) ? 'local' : 'production');

/** The new profile's base URL is the global --base-url's, parsed with the other global flags. */
export async function run({ io, services, args: [name], opts }: Invocation<typeof profilesAdd>): Promise<void> {
  const baseUrl = services.flags.baseUrl;
  const baseUrlFlag = globalFlag('baseUrl');
  if (baseUrl === undefined) throw usageError(`missing required flag: ${baseUrlFlag}`, `payctl profiles add ${name} ${baseUrlFlag} URL`);
  const env = opts.env ?? guessEnvironment(baseUrl);
  requireHttpsForProduction(baseUrl, env, baseUrlFlag);
  await updateConfig(services.configDir, (config) => {
    if (config.profiles[name]) throw usageError(`profile "${name}" already exists`, `remove it first: payctl profiles remove ${name}`);
    config.profiles[name] = { baseUrl, env };
  });
  await io.output.note(`added profile ${name} (${env}, ${baseUrl}); use it with: payctl profiles use ${name}`);
  // Said to a person adding a profile for real money, not to a script setting one up.
  if (env === 'production' && io.stderrIsTTY) {
    await io.output.note(`its token can be kept in the system keychain instead of the config file: payctl profiles set ${name} ${longFlag('tokenStore' satisfies keyof (typeof profilesSet)['options'])} keychain`);
  }
}
