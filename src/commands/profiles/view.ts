import type { View } from '../../output/views.js';

export const profileView: View = {
  noun: 'profiles',
  fields: ['name', 'current', 'env', 'baseUrl', 'loggedIn', 'tokenStore', 'tokenExpiresAt', 'clientId', 'subaccount', 'maxWithdrawal', 'maxBatchTotal', 'maxDailyTotal', 'ledger', 'csvSeparator'],
  columns: [
    { field: 'name' },
    { field: 'current', hide: 2 },
    { field: 'env', hide: 6 },
    { field: 'baseUrl', header: 'base URL', hide: 1 },
    { field: 'loggedIn', hide: 7 },
    { field: 'tokenStore', header: 'token in', hide: 8 },
    { field: 'tokenExpiresAt', header: 'token expires', hide: 4 },
    { field: 'subaccount', header: 'sub-account', hide: 3 },
    { field: 'maxWithdrawal', header: 'max withdrawal', hide: 9 },
    { field: 'maxBatchTotal', header: 'max batch', hide: 10 },
  ],
  kinds: { name: 'id', current: 'boolean', loggedIn: 'boolean', tokenExpiresAt: 'time', subaccount: 'id', maxWithdrawal: 'cents', maxBatchTotal: 'cents' },
};
