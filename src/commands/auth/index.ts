import type { CommandSpec } from '../spec.js';

export const authCommands: CommandSpec = {
  name: 'auth',
  summary: 'Log in, store a token, show or forget it',
  subcommands: [
    {
      name: 'login',
      summary: 'Exchange client credentials for a token and store it in the profile',
      options: [
        { flags: '--client-id <id>', description: 'client id (default: the one stored in the profile)' },
        { flags: '--client-secret-stdin', description: 'read the client secret from stdin instead of asking' },
      ],
      examples: [
        'payctl auth login --client-id acme',
        "printf '%s\\n' \"$CLIENT_SECRET\" | payctl auth login --client-id acme --client-secret-stdin",
        'payctl auth login --profile prod',
      ],
      load: () => import('./login.js'),
    },
    {
      name: 'token',
      summary: 'Store a bearer token obtained elsewhere',
      options: [{ flags: '--stdin', description: 'read the token from stdin instead of asking' }],
      examples: ['payctl auth token', 'vault read -field=token secret/payctl | payctl auth token --stdin'],
      load: () => import('./token.js'),
    },
    {
      name: 'status',
      summary: 'Show the profile, base URL, environment, token expiry and sub-account; exit 3 when not usable',
      examples: ['payctl auth status', 'payctl auth status --json | jq .tokenExpiresAt', 'payctl auth status >/dev/null || payctl auth login'],
      load: () => import('./status.js'),
    },
    {
      name: 'logout',
      summary: "Forget the profile's token",
      examples: ['payctl auth logout', 'payctl auth logout --profile prod'],
      load: () => import('./logout.js'),
    },
  ],
};
