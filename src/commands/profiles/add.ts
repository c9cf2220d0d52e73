import { isLoopback, parseBaseUrl, requireHttpsForProduction } from '../../config/settings.js';
import { updateConfig, type Environment } from '../../config/store.js';
import { usageError } from '../../errors.js';
import type { Invocation } from '../spec.js';
import type { profilesAdd } from './index.js';

/** Without --env, a loopback base URL is a local sandbox; anything else is treated as production. */
const guessEnvironment = (baseUrl: string): Environment => (isLoopback(new URL(baseUrl).hostname) ? 'local' : 'production');

export async function run({ io, services, args: [name], opts, flag }: Invocation<typeof profilesAdd>): Promise<void> {
  // --base-url is also a global option, which commander may have claimed first.
  const rawUrl = opts.baseUrl ?? services.flags.baseUrl;
  if (!rawUrl) throw usageError(`missing required flag: ${flag('baseUrl')}`, `payctl profiles add ${name} ${flag('baseUrl')} URL`);
  const baseUrl = parseBaseUrl(rawUrl, flag('baseUrl'));
  const env = opts.env ?? guessEnvironment(baseUrl);
  requireHttpsForProduction(baseUrl, env, flag('baseUrl'));
  await updateConfig(services.configDir, (config) => {
    if (config.profiles[name]) throw usageError(`profile "${name}" already exists`, `remove it first: payctl profiles remove ${name}`);
    config.profiles[name] = { baseUrl, env };
  });
  await io.output.note(`added profile ${name} (${env}, ${baseUrl}); use it with: payctl profiles use ${name}`);
  // Said to a person adding a profile for real money, not to a script setting one up.
  if (env === 'production' && io.stderrIsTTY) {
    await io.output.note(`its token can be kept in the system keychain instead of the config file: payctl profiles set ${name} --token-store keychain`);
  }
}
