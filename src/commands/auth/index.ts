import type { View } from '../../output/views.js';
import { parseNonEmpty } from '../../validation/flags.js';
import { aliasOf, command, defineCommand, group, switchOption, valueOption } from '../spec.js';

export const authLogin = defineCommand({
  name: 'login',
  summary: 'Exchange client credentials for a token and store it in the profile',
  options: {
    clientId: valueOption('id', 'client id (default: the one stored in the profile)', parseNonEmpty),
    clientSecretStdin: switchOption('read the client secret from stdin instead of asking'),
  },
  examples: [
    'payctl auth login --client-id acme',
    "printf '%s\\n' \"$CLIENT_SECRET\" | payctl auth login --client-id acme --client-secret-stdin",
    'payctl auth login --profile prod',
  ],
});

export const authToken = defineCommand({
  name: 'token',
  summary: 'Store a bearer token obtained elsewhere',
  options: { stdin: switchOption('read the token from stdin instead of asking') },
  examples: ['payctl auth token', 'vault read -field=token secret/payctl | payctl auth token --stdin'],
});

/** What `auth status` shows, the fields --fields picks from. */
export const authStatusView: View = {
  noun: 'status',
  fields: ['profile', 'baseUrl', 'env', 'loggedIn', 'tokenSource', 'tokenStore', 'tokenStoreSetting', 'tokenExpiresAt', 'clientId', 'subaccount'],
  columns: [],
  kinds: { loggedIn: 'boolean', tokenExpiresAt: 'time', subaccount: 'id' },
};

export const authStatus = defineCommand({
  name: 'status',
  summary: 'Show the profile, base URL, environment, token expiry and sub-account; exit 3 when not usable',
  view: authStatusView,
  examples: ['payctl auth status', 'payctl auth status --json | jq .tokenExpiresAt', 'payctl auth status >/dev/null || payctl auth login'],
});

export const authLogout = defineCommand({
  name: 'logout',
  summary: "Forget the profile's token",
  examples: ['payctl auth logout', 'payctl auth logout --profile prod'],
});

const loginCommand = command(authLogin, () => import('./login.js'));
const logoutCommand = command(authLogout, () => import('./logout.js'));

export const authCommands = group('auth', 'Log in, store a token, show or forget it', [
  loginCommand,
  command(authToken, () => import('./token.js')),
  command(authStatus, () => import('./status.js')),
  logoutCommand,
], [
  'payctl auth login --client-id acme',
  'payctl auth status',
  'payctl auth logout --profile prod',
]);

/** `payctl login` and `payctl logout`, as other CLIs spell them. */
export const loginAlias = aliasOf(loginCommand, 'login', 'auth login');
export const logoutAlias = aliasOf(logoutCommand, 'logout', 'auth logout');
