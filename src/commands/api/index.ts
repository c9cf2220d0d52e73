import { usageError } from '../../errors.js';
import { parseChoice, type Parser } from '../../validation/flags.js';
import { arg, command, defineCommand, repeatedOption, switchOption, textOption } from '../spec.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export interface ApiPath {
  path: string;
  query: Record<string, string>;
}

/**
 * A path on the API's base URL, with its query; the leading `/` may be left out
 * (`customers`). An absolute URL (`https://…`, `//host/…`) is refused: it would
 * send the token elsewhere.
 */
export const parseApiPath: Parser<ApiPath> = (label, raw) => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//') || raw.trim() === '') {
    throw usageError(`${label} ${JSON.stringify(raw)} is invalid: give a route relative to the base URL, e.g. /customers or customers`);
  }
  // Resolved against the root, a route reads the same with its leading slash or without.
  const url = new URL(raw, 'http://base.invalid/');
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
};

/** The HTTP method, in any case (`get` is GET). */
export const parseApiMethod: Parser<(typeof API_METHODS)[number]> = (label, raw) => parseChoice(label, raw, API_METHODS);

const parseQueryPair: Parser<[string, string]> = (flag, raw) => {
  const at = raw.indexOf('=');
  if (at <= 0) throw usageError(`${flag} ${JSON.stringify(raw)} is invalid: must be key=value, e.g. ${flag} limit=5`);
  return [raw.slice(0, at), raw.slice(at + 1)];
};

export const apiCall = defineCommand({
  name: 'api',
  summary: "Call any API route with the profile's token and account context; prints the response's data as JSON",
  description:
    "Call any API route with the profile's token and account context (x-subaccount-id from --subaccount or the profile).\n" +
    'Prints the response\'s data as JSON (--envelope: the whole body, with meta and message); errors and exit codes as for every command.\n' +
    "GET --paginate reads every page as --all does, printing each page's data as it arrives: an array per page, one item a line with -o ndjson, or with --slurp one array of every item.\n" +
    '--jq filters each page, or the slurped array.\n' +
    'Only GET is retried. --dry-run prints a POST, PUT, PATCH or DELETE instead of sending it.\n' +
    'A body with secrets (cardNumber, securityCode, clientSecret, accessToken) is refused inline: give it as @FILE or @-.\n' +
    'Secret fields of the answer, and any secret sent, are masked in what it prints, unless --show-secrets.',
  args: [
    arg('method', `HTTP method: ${API_METHODS.join(', ')} (any case)`, parseApiMethod, { values: API_METHODS }),
    arg('path', 'route relative to the base URL, e.g. /customers, customers or /withdrawals?page=2', parseApiPath),
  ],
  options: {
    data: textOption('json', 'request body: JSON text, @FILE to read a file, or @- to read stdin', { short: '-d', complete: 'files' }),
    query: repeatedOption('key=value', 'query parameter, repeatable', parseQueryPair, { short: '-q' }),
    envelope: switchOption('print the whole response body (data, meta, message) instead of its data'),
    paginate: switchOption("GET only: every page, following page until the last the answer's meta says; each page's data printed as it arrives"),
    slurp: switchOption('with --paginate: print one array of every item instead of an array per page'),
    showSecrets: switchOption('print secret fields of the answer (accessToken, cardNumber, …) as they are, not masked'),
  },
  examples: [
    'payctl api GET /customers --query limit=5',
    'payctl api get customers/3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
    'payctl api GET /withdrawals --envelope | jq .meta.total',
    'payctl api GET /withdrawals --paginate -o ndjson',
    "payctl api GET /customers --paginate --slurp --jq 'map(.email)'",
    "payctl api GET /customers/3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --jq '.address.city'",
    "payctl api PUT /customers/3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --data '{\"email\":\"ana@example.com\"}'",
    'payctl api POST /subscriptions/add_split --data @split.json --dry-run',
    "jq -n '{status:\"COMPLETED\"}' | payctl api POST /sandbox/withdrawals/ID/settle --data @-",
    'payctl api POST /auth --data @credentials.json --show-secrets | jq -r .accessToken',
    'payctl api DELETE /bank_accounts/42 --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
  ],
  accountContext: true,
  changesData: true,
  anyFields: true,
});

export const apiCommand = command(apiCall, () => import('./call.js'));
