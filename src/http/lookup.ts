import type dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { loadBuiltin } from '../builtin.js';

/**
 * A host's address, asked of the system once per run. Each write opens a connection of its
 * own (keep-alive.ts), and node asks the resolver again for every connection: a batch of 500
 * rows would make 500 lookups of one name, each a DNS query where the system keeps no cache.
 * A failed lookup is not kept, so the next connection asks again; nor is an answer once a
 * connection could not be opened (forgetAddresses): `--wait` can follow a withdrawal for hours,
 * long enough for a host to move to another address.
 */
const answers = new Map<string, Promise<unknown[]>>();

/** Every host is looked up again: a connection that could not be opened may have gone to an address the host left. */
export function forgetAddresses(): void {
  answers.clear();
}

export const lookupOncePerRun: LookupFunction = (hostname, options, callback) => {
  const key = `${hostname} ${options.all ? 'all' : 'one'} ${options.family ?? 0} ${options.hints ?? 0}`;
  let answer = answers.get(key);
  if (!answer) {
    const asked = new Promise<unknown[]>((resolve, reject) =>
      loadBuiltin<typeof dns>('node:dns').lookup(hostname, options, (error, ...found) => (error ? reject(error) : resolve(found))),
    );
    answers.set(key, asked);
    // A failure is not kept; an answer asked after forgetAddresses may have taken its place.
    asked.catch(() => answers.get(key) === asked && answers.delete(key));
    answer = asked;
  }
  // The callback's arguments are dns.lookup's own, for the options given: an address and family, or all addresses.
  const reply = callback as (error: NodeJS.ErrnoException | null, ...found: unknown[]) => void;
  answer.then(
    (found) => reply(null, ...found),
    (error: NodeJS.ErrnoException) => reply(error),
  );
};
