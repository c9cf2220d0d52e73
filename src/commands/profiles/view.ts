import type { View } from '../../output/views.js';

export const profileView: View = {
  noun: 'profiles',
  fields: ['name', 'current', 'env', 'baseUrl', 'loggedIn', 'tokenExpiresAt', 'clientId', 'subaccount'],
  columns: [
    { field: 'name' },
    { field: 'current', kind: 'boolean' },
    { field: 'env' },
    { field: 'baseUrl' },
    { field: 'loggedIn', kind: 'boolean' },
    { field: 'tokenExpiresAt', header: 'expires' },
    { field: 'subaccount' },
  ],
  kinds: { current: 'boolean', loggedIn: 'boolean' },
};
