import { single, type CompanyRequest, type Reply } from '../context.js';
import { reseedCompany } from '../seed.js';

/** Restores the token's company (only it: other companies keep their state) to the seed. */
export function sandboxReset({ company, services, changes }: CompanyRequest): Reply {
  services.store.replaceCompany(reseedCompany(services.seedConfig, company));
  changes.reset();
  return single({ message: `${company.clientId} reset to seed ${services.seedConfig.seed}` }, 'Sandbox reset');
}
