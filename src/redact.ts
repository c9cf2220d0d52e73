/** Body keys whose values are secrets wherever they appear (requests, responses, logs). */
const SECRET_KEYS = new Set(['cardnumber', 'securitycode', 'clientsecret', 'accesstoken', 'token', 'password']);
export const MASK = '***';

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/** A deep copy of a JSON value with every secret-keyed value masked. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, isSecretKey(key) ? MASK : maskSecrets(inner)]),
    );
  }
  return value;
}

/** A JSON.parse error's message without the excerpt of the text that V8 quotes in it: the text may hold a secret. */
export function jsonErrorMessage(error: unknown): string {
  return String((error as Error)?.message ?? error).replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '');
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  for (const name of Object.keys(copy)) {
    if (name.toLowerCase() === 'authorization') copy[name] = copy[name]!.replace(/^(\w+)\s+.*$/, `$1 ${MASK}`);
  }
  return copy;
}

/**
 * A secret-keyed value inside text (`"securityCode":"123"`, `cardNumber=4111…`), as a server
 * may echo a request into its error message: masked even when the value is too short to scrub by text.
 */
const SECRET_KEYED_VALUE = /((?:card_?number|security_?code|client_?secret|access_?token|token|password)\\?["']?\s*[:=]\s*\\?["']?)([^"'\\,;&}\s]+)/gi;

/**
 * Remembers the secret values of this run (token, client secret, card data) and
 * scrubs them from any text before it is written: a last line of defence for
 * messages built from server answers or exceptions.
 */
export class SecretScrubber {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined): void {
    // Very short values (a 3-digit security code) are masked only by key, not by text,
    // so that ordinary numbers in output are not mangled.
    if (secret && secret.length >= 6) this.secrets.add(secret);
  }

  scrub(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join(MASK);
    return result.replace(SECRET_KEYED_VALUE, `$1${MASK}`);
  }
}
