import type { CommandSpec } from '../spec.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export const apiCommand: CommandSpec = {
  name: 'api',
  summary: "Call any API route with the profile's token and account context; prints the response's data as JSON",
  description:
    "Call any API route with the profile's token and account context (x-subaccount-id from --subaccount or the profile).\n" +
    'Prints the response\'s data as JSON (--envelope: the whole body, with meta and message); errors and exit codes as for every command.\n' +
    'Only GET is retried. --dry-run prints a POST, PUT, PATCH or DELETE instead of sending it.\n' +
    'A body with secrets (cardNumber, securityCode, clientSecret, accessToken) is refused inline: give it as @FILE or @-.\n' +
    'Secret fields of the answer, and any secret sent, are masked in what it prints, unless --show-secrets.',
  args: [
    { name: 'method', description: `HTTP method: ${API_METHODS.join(', ')}`, choices: API_METHODS },
    { name: 'path', description: 'route relative to the base URL, e.g. /customers or /withdrawals?page=2' },
  ],
  options: [
    { flags: '-d, --data <json>', description: 'request body: JSON text, @FILE to read a file, or @- to read stdin', complete: 'files' },
    { flags: '-q, --query <key=value>', description: 'query parameter, repeatable', repeatable: true },
    { flags: '--envelope', description: 'print the whole response body (data, meta, message) instead of its data' },
    { flags: '--show-secrets', description: 'print secret fields of the answer (accessToken, cardNumber, …) as they are, not masked' },
  ],
  examples: [
    'payctl api GET /customers --query limit=5',
    'payctl api GET /withdrawals --envelope | jq .meta.total',
    "payctl api PUT /customers/3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --data '{\"email\":\"ana@example.com\"}'",
    'payctl api POST /subscriptions/add_split --data @split.json --dry-run',
    "jq -n '{status:\"COMPLETED\"}' | payctl api POST /sandbox/withdrawals/ID/settle --data @-",
    'payctl api POST /auth --data @credentials.json --show-secrets | jq -r .accessToken',
    'payctl api DELETE /bank_accounts/42 --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
  ],
  accountContext: true,
  changesData: true,
  load: () => import('./call.js'),
};
