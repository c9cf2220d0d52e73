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

/** Each secret-keyed field anywhere in a JSON value: its key as written, and its value's text (a card number may come as a number). */
export function secretFieldsIn(value: unknown, found: Array<{ key: string; values: string[] }> = []): Array<{ key: string; values: string[] }> {
  if (Array.isArray(value)) {
    for (const item of value) secretFieldsIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const key in value) {
      const inner = (value as Record<string, unknown>)[key];
      if (isSecretKey(key)) found.push({ key, values: leavesOf(inner) });
      else if (inner && typeof inner === 'object') secretFieldsIn(inner, found);
    }
  }
  return found;
}

function leavesOf(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return [String(value)];
  if (value && typeof value === 'object') return Object.values(value).flatMap(leavesOf);
  return [];
}

/**
 * A URL with its password masked, in its user part or its query (a config file edited by hand may hold one);
 * in text that is not a URL, the password of any `//USER:PASSWORD@` in it.
 */
export function urlPasswordMasked(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.replace(/(\/\/[^/@:\s]*:)[^@\s]*@/g, `$1${MASK}@`);
  }
  if (!url.password && !url.searchParams.has('password')) return text;
  if (url.password) url.password = MASK;
  if (url.searchParams.has('password')) url.searchParams.set('password', MASK);
  return url.toString();
}

/** Every variable that can name a proxy, in the order proxy-from-env reads them; one may hold the proxy's password. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

/** Secrets payctl reads from the environment: never shown, so unset in what it shows of it. */
const SECRET_VARIABLES = ['PAYCTL_TOKEN', 'PGPASSWORD'];
/** Addresses payctl reads from the environment, whose password it never shows: the API's and a ledger's (both refuse one), a proxy's. */
const ADDRESS_VARIABLES = ['PAYCTL_BASE_URL', 'PAYCTL_LEDGER', ...PROXY_VARIABLES];

/** The environment as payctl's output may hold it (--jq's `$ENV`): its secrets unset, the passwords of its addresses masked. */
export const environmentShown = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env)
      .filter((entry): entry is [string, string] => entry[1] !== undefined && !SECRET_VARIABLES.includes(entry[0]))
      .map(([name, value]) => [name, ADDRESS_VARIABLES.includes(name) ? addressMasked(value) : value]),
  );

/** A proxy may be given without its scheme (`USER:PASSWORD@proxy:3128`), which proxy-from-env reads as http's. */
const addressMasked = (value: string): string => (value.includes('://') ? urlPasswordMasked(value) : urlPasswordMasked(`//${value}`).slice(2));

/** A JSON.parse error's message without the excerpt of the text that V8 quotes in it: the text may hold a secret. */
export function jsonErrorMessage(error: unknown): string {
  return String((error as Error)?.message ?? error).replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '');
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  for (const [name, value] of Object.entries(copy)) {
    if (name.toLowerCase() === 'authorization') copy[name] = value.replace(/^(\w+)\s+.*$/, `$1 ${MASK}`);
  }
  return copy;
}

/**
 * A secret-keyed value inside text (`"securityCode":"123"`, `cardNumber=4111…`), as a server
 * may echo a request into its error message: masked even when it is no secret of this run.
 */
const SECRET_KEYED_VALUE = /((?:card_?number|security_?code|client_?secret|access_?token|token|password)\\?["']?\s*[:=]\s*\\?["']?)([^"'\\,;&}\s]+)/gi;

/** Secrets shorter than this are masked only where they stand alone, so that a 3-digit security code does not mangle every number that contains it. */
const SHORT_SECRET = 8;
const WORD_CHAR = '[\\p{L}\\p{N}]';
const BASE64_CHAR = '[A-Za-z0-9+/=_-]';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const toBase64Url = (base64: string) => base64.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 text that stands for `secret` wherever it sits in a longer encoded
 * string (a Basic header, a token): for each of the 3 alignments, the characters
 * made of the secret's bytes alone.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    return [core, toBase64Url(core)];
  });
}

/** How a secret may come back in a server's text: as itself, JSON-escaped, URL-encoded, or base64 (standard or URL-safe). */
function formsOf(secret: string): { plain: string[]; encoded: string[] } {
  const uri = encodeURIComponent(secret);
  const plain = [secret, JSON.stringify(secret).slice(1, -1), uri, uri.replace(/%20/g, '+')];
  const whole = Buffer.from(secret, 'utf8').toString('base64');
  const encoded = secret.length >= SHORT_SECRET ? base64Cores(secret) : [whole, whole.replace(/=+$/, ''), toBase64Url(whole), toBase64Url(whole).replace(/=+$/, '')];
  return { plain: [...new Set(plain)], encoded: [...new Set(encoded)] };
}

/**
 * Remembers the secret values of this run (token, client secret, card data, the
 * secrets of an `api` body) and scrubs them from any text before it is written:
 * a last line of defence for messages built from server answers or exceptions.
 * Secrets of any length are registered. One of 8 characters or more is masked
 * wherever it appears, in any of its forms (base64 also inside a longer encoded
 * string); a shorter one only where it stands alone, not inside a longer word or
 * number, so that a security code `123` leaves `R$ 1.234` and ids as they are.
 */
export class SecretScrubber {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | null | undefined;

  add(secret: string | undefined): void {
    if (!secret || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.pattern = undefined;
  }

  /** Text for people and logs (messages, --debug, the audit trail's errors): also any card number in it, this run's or not. */
  scrub(text: string): string {
    return maskCardNumbers(this.scrubSecrets(text));
  }

  /**
   * A copy of a JSON value with every string in it, keys too, scrubbed of this run's secrets. Any
   * other card-like number is left: data keeps its values (a phone number can pass the Luhn check).
   */
  scrubDeep(value: unknown): unknown {
    if (typeof value === 'string') return this.scrubSecrets(value);
    if (Array.isArray(value)) return value.map((item) => this.scrubDeep(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [this.scrubSecrets(key), this.scrubDeep(inner)]));
    return value;
  }

  private scrubSecrets(text: string): string {
    if (this.pattern === undefined) this.pattern = patternOf(this.secrets);
    const masked = this.pattern ? text.replace(this.pattern, MASK) : text;
    return masked.replace(SECRET_KEYED_VALUE, `$1${MASK}`);
  }
}

/** Digits in groups joined by one space, dash or dot, as card numbers are written; not inside a longer number or word. */
const DIGIT_GROUPS = /(?<![\p{L}\p{N}])\d+(?:[ .-]\d+)*(?![\p{L}\p{N}])/gu;

/** The Luhn check, which every card number passes (and 9 in 10 other numbers fail). */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit;
  }
  return sum % 10 === 0;
}

/**
 * Masks every card number a server may echo, however grouped (`4111 1111 1111 1111`,
 * `4111-1111-…`, `4111.1111.…`): 13 to 19 digits of whole groups that pass the Luhn
 * check, sought among every span of groups so that a card beside a date or a code
 * (`… 2031 123`) is found too. The groups of a card become one mask.
 */
function maskCardNumbers(text: string): string {
  if (!/\d{4}/.test(text)) return text;
  return text.replace(DIGIT_GROUPS, (run) => {
    const groups = run.match(/[ .-]?\d+/g);
    if (!groups) return run;
    const masked = groups.map(() => false);
    for (let start = 0; start < groups.length; start++) {
      let digits = '';
      for (const [offset, group] of groups.slice(start).entries()) {
        const end = start + offset;
        digits += group.replace(/\D/, '');
        if (digits.length > 19) break;
        if (digits.length >= 13 && passesLuhn(digits)) masked.fill(true, start, end + 1);
      }
    }
    return groups.map((group, i) => (!masked[i] ? group : masked[i - 1] ? '' : group.replace(/\d+/, MASK))).join('');
  });
}
/** One pattern for every form of every secret, longest first, so that a longer form is masked whole. */
function patternOf(secrets: ReadonlySet<string>): RegExp | null {
  const alternatives: Array<[string, string]> = [];
  for (const secret of secrets) {
    const alone = secret.length < SHORT_SECRET;
    const { plain, encoded } = formsOf(secret);
    for (const form of plain) alternatives.push([form, alone ? `(?<!${WORD_CHAR})${escapeRegExp(form)}(?!${WORD_CHAR})` : escapeRegExp(form)]);
    for (const form of encoded) alternatives.push([form, alone ? `(?<!${BASE64_CHAR})${escapeRegExp(form)}(?!${BASE64_CHAR})` : escapeRegExp(form)]);
  }
  if (alternatives.length === 0) return null;
  alternatives.sort((a, b) => b[0].length - a[0].length);
  return new RegExp(alternatives.map(([, source]) => source).join('|'), 'gu');
}
