import type { View } from '../../output/views.js';

export const profileView: View = {
  noun: 'profiles',
  fields: ['name', 'current', 'env', 'baseUrl', 'loggedIn', 'tokenExpiresAt', 'clientId', 'subaccount'],
  columns: [
    { field: 'name' },
    { field: 'current', hide: 2 },
    { field: 'env', hide: 6 },
    { field: 'baseUrl', header: 'base URL', hide: 1 },
    { field: 'loggedIn', hide: 7 },
    { field: 'tokenExpiresAt', header: 'token expires', hide: 4 },
    { field: 'subaccount', header: 'sub-account', hide: 3 },
  ],
  kinds: { name: 'id', current: 'boolean', loggedIn: 'boolean', tokenExpiresAt: 'time', subaccount: 'id' },
};
