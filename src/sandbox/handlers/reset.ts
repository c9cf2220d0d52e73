import { single, type CompanyRequest, type Reply } from '../context.js';
import { SEEDED_COMPANIES, seedCompany } from '../seed.js';

/** Restores the token's company (only it: other companies keep their state) to the seed. */
export function sandboxReset({ company, services }: CompanyRequest): Reply {
  const index = SEEDED_COMPANIES.findIndex((spec) => spec.clientId === company.clientId);
  services.store.replaceCompany(seedCompany(services.seedConfig, index));
  return single({ message: `${company.clientId} reset to seed ${services.seedConfig.seed}` }, 'Sandbox reset');
}
