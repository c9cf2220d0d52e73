/**
 * POST, PUT, PATCH and DELETE requests whose outcome payctl may not learn: which
 * are on the wire now (what Ctrl-C leaves unknown) and how a user checks one.
 * No imports: src/main.ts loads this at start-up for its Ctrl-C report.
 */

export interface Write {
  method: string;
  /** The route as the command asked for it, e.g. `/withdrawals/withdraw`. */
  path: string;
}

const onTheWire = new Set<Write>();

/** From the moment the connection is open (the server may read the request) until the answer is complete or the attempt failed. */
export function writeSent(write: Write): void {
  onTheWire.add(write);
}

export function writeSettled(write: Write): void {
  onTheWire.delete(write);
}

export function writesOnTheWire(): Write[] {
  return [...onTheWire];
}

/** Whether a request of this method can have changed anything on the server. */
export const mayHaveEffect = (method: string): boolean => method !== 'GET';

const ID = '([0-9A-Za-z-]{1,64})';

/** The read-only command that shows whether a write took effect, by route; `$1` is the id in the path. */
const CHECKS: Array<[RegExp, string]> = [
  [/^\/withdrawals\/withdraw$/, 'payctl withdrawals list'],
  [new RegExp(`^/sandbox/withdrawals/${ID}/settle$`), 'payctl withdrawals get $1'],
  [/^\/sandbox\/balance$/, 'payctl balance'],
  [/^\/subscriptions\/add_split$/, 'payctl subs get SUBSCRIPTION_ID'],
  [new RegExp(`^/subscriptions/${ID}(/remove_split/.*)?$`), 'payctl subs get $1'],
  [/^\/(sandbox\/)?subscriptions$/, 'payctl subs list'],
  [new RegExp(`^/customers/${ID}$`), 'payctl customers get $1'],
  [/^\/sandbox\/customers$/, 'payctl customers list'],
  [/^\/(sandbox\/)?bank_accounts(\/.*)?$/, 'payctl bank-accounts list'],
  [/^\/(subaccounts\/(pf|pj)|sandbox\/subaccounts\/.*)$/, 'payctl subaccounts list'],
];

/** The hint of an unknown outcome: check before retrying, with the command that shows it where payctl knows one. */
export function checkBeforeRetrying({ method, path }: Write): string {
  // A login that may have happened changed nothing: payctl stores the token only from an answer.
  if (path === '/auth') return 'no token was stored; logging in again is safe: payctl auth login';
  for (const [route, command] of CHECKS) {
    const match = route.exec(path);
    if (match) return `check whether the ${method} took effect before retrying: ${command.replace('$1', match[1] ?? '')}`;
  }
  return `check whether the ${method} took effect before retrying (with the matching list or get command)`;
}
