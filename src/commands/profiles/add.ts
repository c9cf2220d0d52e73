import { isLoopback, parseBaseUrl, requireHttpsForProduction } from '../../config/settings.js';
import { updateConfig, type Environment } from '../../config/store.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { optString, type CommandInput } from '../spec.js';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Without --env, a loopback base URL is a local sandbox; anything else is treated as production. */
const guessEnvironment = (baseUrl: string): Environment => (isLoopback(new URL(baseUrl).hostname) ? 'local' : 'production');

export async function run(ctx: Context, { args, opts }: CommandInput): Promise<void> {
  const name = args[0]!;
  if (!PROFILE_NAME.test(name)) throw usageError(`profile name "${name}" is invalid: use letters, digits, - and _ (at most 64, starting with a letter or digit)`);
  // --base-url is also a global option, which commander may have claimed first.
  const rawUrl = optString(opts, 'baseUrl') ?? ctx.flags.baseUrl;
  if (!rawUrl) throw usageError('missing required flag: --base-url', `payctl profiles add ${name} --base-url URL`);
  const baseUrl = parseBaseUrl(rawUrl, '--base-url');
  const env = (optString(opts, 'env') as Environment | undefined) ?? guessEnvironment(baseUrl);
  requireHttpsForProduction(baseUrl, env, '--base-url');
  await updateConfig(ctx.configDir, (config) => {
    if (config.profiles[name]) throw usageError(`profile "${name}" already exists`, `remove it first: payctl profiles remove ${name}`);
    config.profiles[name] = { baseUrl, env };
  });
  await ctx.output.note(`added profile ${name} (${env}, ${baseUrl}); use it with: payctl profiles use ${name}`);
}
