import { usageError } from '../errors.js';

/** What names the local files as the ledger (the default). */
export const LOCAL_LEDGER = 'local';

/**
 * A ledger's URL as a profile keeps it: `postgres://USER@HOST:PORT/DB`, with
 * `sslmode` and other libpq parameters in its query. A password in it is refused
 * and never echoed: it would sit in the config file, the shell's history and argv.
 */
export function parseLedgerUrl(flag: string, raw: string): string {
  const text = raw.trim();
  if (text === LOCAL_LEDGER) return LOCAL_LEDGER;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag} is not a URL: give postgres://USER@HOST:PORT/DB or local`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw usageError(`${flag} must be a postgres:// URL (postgres://USER@HOST:PORT/DB) or local, not ${url.protocol}//…`);
  }
  if (url.password || url.searchParams.has('password')) {
    throw usageError(
      `${flag} carries a password, which a ledger's URL never does (it would be seen in argv or kept in the config file): nothing was sent or changed`,
      'give postgres://USER@HOST:PORT/DB (payctl profiles set NAME --ledger URL) and the password in PGPASSWORD, ~/.pgpass or the keychain',
    );
  }
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null) checkSslMode(`${flag}'s sslmode`, sslmode);
  if (!url.username) throw usageError(`${flag} names no user: give postgres://USER@HOST:PORT/DB`);
  if (url.pathname.length <= 1) throw usageError(`${flag} names no database: give postgres://USER@HOST:PORT/DB`);
  return url.toString();
}


/** libpq's SSL modes, in its meaning (https://www.postgresql.org/docs/current/libpq-ssl.html). */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export function checkSslMode(what: string, value: string): SslMode {
  if ((SSL_MODES as readonly string[]).includes(value)) return value as SslMode;
  throw usageError(`${what} "${value}" is not one of ${SSL_MODES.join(', ')}`);
}
