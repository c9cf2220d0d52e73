import { usageError } from '../../errors.js';
import type { Services } from '../../services.js';

/** Back-office routes exist only on a sandbox: refuse early against a production profile. */
export function assertNotProduction(services: Services): void {
  const { env, profileName } = services.settings();
  if (env === 'production') throw usageError(`profile ${profileName} is a production profile; sandbox commands act only on a sandbox`);
}
