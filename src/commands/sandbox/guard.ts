import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';

/** Back-office routes exist only on a sandbox: refuse early against a production profile. */
export function assertNotProduction(ctx: Context): void {
  const { env, profileName } = ctx.settings();
  if (env === 'production') throw usageError(`profile ${profileName} is a production profile; sandbox commands act only on a sandbox`);
}
