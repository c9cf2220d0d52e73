import { describe, expect, it } from 'vitest';
import { MASK, SecretScrubber, jsonErrorMessage } from '../../src/redact.js';

const scrubberOf = (...secrets: string[]) => {
  const scrubber = new SecretScrubber();
  for (const secret of secrets) scrubber.add(secret);
  return scrubber;
};
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

describe('SecretScrubber', () => {
  const LONG = 'cs_live_Q3v9/Zr+T8 wX&k2=';

  it('masks a long secret anywhere, and its JSON-escaped, URL-encoded, form-encoded, base64 and base64url forms', () => {
    const scrubber = scrubberOf(LONG);
    for (const form of [
      LONG,
      encodeURIComponent(LONG),
      encodeURIComponent(LONG).replace(/%20/g, '+'),
      b64(LONG),
      b64(LONG).replace(/=+$/, ''),
      b64url(LONG),
      JSON.stringify(LONG).slice(1, -1),
    ]) {
      const scrubbed = scrubber.scrub(`before${form}after`);
      expect(scrubbed, form).not.toContain(form);
      expect(scrubbed).toMatch(/^before\*\*\*/);
    }
  });

  it('masks the base64 of a long secret inside a longer encoded string, at every alignment (a Basic header)', () => {
    const scrubber = scrubberOf(LONG);
    for (const prefix of ['acme:', 'acme1:', 'acme12:']) {
      for (const encode of [b64, b64url]) {
        const encoded = encode(`${prefix}${LONG}`);
        const scrubbed = scrubber.scrub(`Authorization: Basic ${encoded}`);
        expect(scrubbed, `${prefix} ${encoded}`).toContain(MASK);
        // What is left is the prefix's characters, and at most 4 more (those the secret shares with its neighbours, and padding).
        const left = scrubbed.slice('Authorization: Basic '.length).split(MASK).join('');
        expect(left.length).toBeLessThanOrEqual(Math.ceil((8 * prefix.length) / 6) + 4);
      }
    }
  });

  it('masks a short secret (5 characters, 3 digits, 1 character) where it stands alone, in every form', () => {
    const scrubber = scrubberOf('k3y9z', '739', 'q');
    expect(scrubber.scrub('invalid secret k3y9z for acme')).toBe(`invalid secret ${MASK} for acme`);
    expect(scrubber.scrub('"k3y9z"')).toBe(`"${MASK}"`);
    expect(scrubber.scrub(`got ${b64('k3y9z')} and ${b64url('k3y9z').replace(/=+$/, '')}`)).toBe(`got ${MASK} and ${MASK}`);
    expect(scrubber.scrub('cvv 739 refused')).toBe(`cvv ${MASK} refused`);
    expect(scrubber.scrub('q')).toBe(MASK);
  });

  it('leaves a short secret inside longer words and numbers alone: amounts, ids and ordinary words stay readable', () => {
    const scrubber = scrubberOf('739', 'q', 'k3y9z');
    const text = 'R$ 7.390,00, id 17391, quota 4739 of k3y9zz; queue quiet';
    expect(scrubber.scrub(text)).toBe(text);
  });

  it('scrubs every string of a JSON value, keys too, and leaves other values', () => {
    const scrubber = scrubberOf(LONG);
    expect(scrubber.scrubDeep({ echo: `you sent ${LONG}`, [LONG]: 1, list: [LONG, 5, null, true] })).toEqual({
      echo: `you sent ${MASK}`,
      [MASK]: 1,
      list: [MASK, 5, null, true],
    });
  });

  it('masks card numbers of the shortest and longest lengths, 13 and 19 digits, and leaves a 12-digit number', () => {
    expect(scrubberOf().scrub('cards 4222222222222 and 4000 0000 0000 0000 006 refused, order 422222222222')).toBe(
      `cards ${MASK} and ${MASK} refused, order 422222222222`,
    );
  });

  it('masks a secret of exactly 8 characters, the shortest that is no short one, inside a word and inside a Basic header', () => {
    const secret = 'hunter22';
    expect(scrubberOf(secret).scrub(`a${secret}b Basic ${b64(`user:${secret}`)}`)).not.toMatch(new RegExp(`${secret}|${b64(`user:${secret}`)}`));
    expect(scrubberOf(secret).scrub(`a${secret}b`)).toBe(`a${MASK}b`);
  });

  it('masks secret-keyed values in text even when they are no secret of this run', () => {
    expect(scrubberOf().scrub('rejected {"securityCode":"123","cardNumber":"4111111111111111"}')).toBe(
      `rejected {"securityCode":"${MASK}","cardNumber":"${MASK}"}`,
    );
  });
});

describe('jsonErrorMessage', () => {
  it('drops the excerpt of the text that V8 quotes, which may hold a secret', () => {
    let message = '';
    try {
      JSON.parse('{"clientSecret": cs_live_Q3v9ZrT8wXk2}');
    } catch (error) {
      message = jsonErrorMessage(error);
    }
    expect(message).toBe("Unexpected token 'c'");
  });
});
