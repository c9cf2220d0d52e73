import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { cpf } from './helpers.js';

/**
 * Every bad value is refused with exit 2, naming the flag and the rule, before
 * anything is sent: the fake API must see no request at all.
 */
let api: FakeApi;
let env: Record<string, string>;
beforeAll(async () => {
  api = await startFakeApi();
  env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
});
afterAll(() => api.close());

const UUID = '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c';
const PIX = ['withdraw', 'pix', '--bank-account', '12', '--pix-key-type', 'email', '--pix-key', 'fin@acme.com.br', '--yes'];
const SUB_FULL = [
  '--name', 'Ana', '--partner-name', 'Ana', '--partner-last-name', 'Souza', '--partner-cpf', cpf('529982247'), '--partner-email', 'ana@example.com',
  '--partner-birthdate', '1990-05-17', '--partner-contact-phone', '11912345678', '--partner-month-revenue', '5000',
  '--address-zipcode', '01310-100', '--address-street', 'Av. Paulista', '--address-street-number', '1000', '--address-neighborhood', 'Bela Vista',
  '--address-city', 'São Paulo', '--address-state', 'SP', '--bank-holder-name', 'Ana Souza', '--bank-document', cpf('529982247'),
  '--bank-code', '341', '--bank-routing-number', '0001', '--bank-account-number', '12345-6', '--bank-account-type', 'CHECKING',
];
const replace = (args: string[], flag: string, value: string) => args.map((a, i) => (args[i - 1] === flag ? value : a));
const without = (args: string[], flag: string) => args.filter((a, i) => a !== flag && args[i - 1] !== flag);

/** [what, args, the flag named, words of the rule] */
const CASES: Array<[string, string[], string, RegExp]> = [
  ['amount in reais', [...PIX, '--amount', '12.34'], '--amount', /integer cents/],
  ['amount as R$', [...PIX, '--amount', 'R$ 12'], '--amount', /integer cents/],
  ['amount under the minimum', [...PIX, '--amount', '99'], '--amount', /at least 100/],
  ['amount over the API document\'s maximum', [...PIX, '--amount', '1000000000001'], '--amount', /at most 1000000000000 cents \(R\$ 10\.000\.000\.000,00\)/],
  ['bank account not a number', [...replace(PIX, '--bank-account', 'abc'), '--amount', '1000'], '--bank-account', /whole number/],
  ['unknown PIX key type', [...replace(PIX, '--pix-key-type', 'iban'), '--amount', '1000'], '--pix-key-type', /DOCUMENT_CPF.*cpf/],
  [
    'CPF key with bad check digits',
    [...replace(replace(PIX, '--pix-key-type', 'cpf'), '--pix-key', '52998224726'), '--amount', '1000'],
    '--pix-key',
    /check digits/,
  ],
  [
    'CNPJ key with bad check digits',
    [...replace(replace(PIX, '--pix-key-type', 'cnpj'), '--pix-key', '11222333000182'), '--amount', '1000'],
    '--pix-key',
    /check digits/,
  ],
  [
    // checked before what is missing is named (or asked at a terminal): the user answers nothing for a command already wrong
    'CPF key with bad check digits, the bank account not given',
    [...without(replace(replace(PIX, '--pix-key-type', 'cpf'), '--pix-key', '123'), '--bank-account'), '--amount', '500'],
    '--pix-key',
    /a DOCUMENT_CPF key must be a CPF with valid check digits/,
  ],
  ['landline as PHONE key', [...replace(replace(PIX, '--pix-key-type', 'phone'), '--pix-key', '1133334444'), '--amount', '1000'], '--pix-key', /mobile/],
  ['RANDOM key not a UUID', [...replace(replace(PIX, '--pix-key-type', 'random'), '--pix-key', 'abc'), '--amount', '1000'], '--pix-key', /UUID/],
  ['e-mail key without domain', [...replace(PIX, '--pix-key', 'fin@acme'), '--amount', '1000'], '--pix-key', /e-mail/],
  ['postback not http', [...PIX, '--amount', '1000', '--postback-url', 'ftp://x.example'], '--postback-url', /http/],
  ['missing withdraw flags', ['withdraw', 'pix'], '--bank-account, --amount, --pix-key-type, --pix-key', /missing required flags/],
  ['card withdrawal missing amount', ['withdraw', 'card', '--bank-account', '12'], '--amount', /missing required flag/],
  // Money commands confirm: without a terminal the next run needs --yes too, so it is named with the rest.
  ['PIX withdrawal missing its key and --yes', ['withdraw', 'pix', '--amount', '1000', '--bank-account', '1001'], 'flags: --pix-key-type, --pix-key, --yes', /missing required flags/],
  ['dry run needs no --yes', ['withdraw', 'card', '--bank-account', '12', '--dry-run'], 'missing required flag: --amount\n', /give the flags/],
  ['subscription cancel missing its id and --yes', ['subs', 'cancel'], 'missing required argument ID; missing required flag: --yes', /pick from a list/],
  [
    'card number too short',
    ['cards', 'tokenize', '--customer', UUID, '--holder-name', 'ANA', '--exp-month', '08', '--exp-year', '2030', '--card-stdin'],
    '--card-stdin card number',
    /13 to 16 digits/,
  ],
  [
    'security code too long',
    ['cards', 'tokenize', '--customer', UUID, '--holder-name', 'ANA', '--exp-month', '08', '--exp-year', '2030', '--card-stdin'],
    '--card-stdin security code',
    /3 or 4 digits/,
  ],
  [
    'card number failing Luhn',
    ['cards', 'tokenize', '--customer', UUID, '--holder-name', 'ANA', '--exp-month', '08', '--exp-year', '2030', '--card-stdin'],
    '--card-stdin card number',
    /Luhn/,
  ],
  ['month 13', ['cards', 'tokenize', '--customer', UUID, '--exp-month', '13'], '--exp-month', /01 to 12/],
  ['year of 2 digits', ['cards', 'tokenize', '--customer', UUID, '--exp-year', '30'], '--exp-year', /4 digits/],
  ['customer not a UUID', ['cards', 'tokenize', '--customer', 'ana'], '--customer', /UUID/],
  ['tokenize without flags nor terminal', ['cards', 'tokenize'], '--customer, --holder-name, --card-stdin, --exp-month, --exp-year', /missing required flags/],
  ['card id not a UUID', ['cards', 'get', '42'], 'ID', /UUID/],
  ['page 0', ['customers', 'list', '--page', '0'], '--page', /whole number from 1/],
  ['limit 101', ['customers', 'list', '--limit', '101'], '--limit', /1 to 100/],
  ['bad e-mail', ['customers', 'update', UUID, '--email', 'ana@'], '--email', /e-mail/],
  ['CPF with bad check digits', ['customers', 'update', UUID, '--document', '111.444.777-36'], '--document', /check digits/],
  ['find by a CPF with bad check digits', ['customers', 'find', '--document', '594.323.102-14'], '--document', /CPF \(11 digits\) or CNPJ \(14 digits\) with valid check digits/],
  ['date that does not exist', ['customers', 'update', UUID, '--birthdate', '1990-02-30'], '--birthdate', /date that exists/],
  ['birthdate in the future', ['customers', 'update', UUID, '--birthdate', '2999-01-01'], '--birthdate', /to today/],
  ['state that is not a UF', ['customers', 'update', UUID, '--address-state', 'XX'], '--address-state', /two-letter UF/],
  ['CEP of 7 digits', ['customers', 'update', UUID, '--address-zipcode', '1310100'], '--address-zipcode', /8 digits/],
  ['phone without area code', ['customers', 'update', UUID, '--phone-number', '912345678'], '--phone-number', /area code/],
  ['update with nothing to change', ['customers', 'update', UUID], 'field flag', /nothing to change/],
  ['subs status unknown', ['subs', 'list', '--status', 'PAUSED'], '--status', /ACTIVE, DELETED, EXPIRED, SUSPENDED/],
  ['subs start date that does not exist', ['subs', 'list', '--start-date', '2024-13-01'], '--start-date', /date that exists/],
  ['subs split-subaccount not a UUID', ['subs', 'list', '--split-subaccount', 'x'], '--split-subaccount', /UUID/],
  ['duration with lifetime', ['subs', 'update', UUID, '--duration', '3', '--lifetime'], '--duration and --lifetime', /cannot be used together/],
  ['frequency 0', ['subs', 'update', UUID, '--frequency', '0'], '--frequency', /1 to 365/],
  ['subscription amount in reais', ['subs', 'update', UUID, '--amount', '49.90'], '--amount', /integer cents/],
  ['expiration in the past', ['subs', 'update', UUID, '--expiration-date', '2000-01-01'], '--expiration-date', /today or later/],
  [
    'amount and percentage together',
    ['subs', 'add-split', '--subscription', UUID, '--receiver', UUID, '--amount', '100', '--percentage', '10'],
    '--amount and --percentage',
    /cannot be used together/,
  ],
  [
    'percentage with 3 decimals',
    ['subs', 'add-split', '--subscription', UUID, '--receiver', UUID, '--percentage', '10.125'],
    '--percentage',
    /at most 2 decimals/,
  ],
  ['percentage over 100', ['subs', 'add-split', '--subscription', UUID, '--receiver', UUID, '--percentage', '120'], '--percentage', /0.01 to 100/],
  ['receiver not a UUID', ['subs', 'add-split', '--subscription', UUID, '--receiver', 'loja', '--amount', '100'], '--receiver', /UUID/],
  ['split id not a UUID', ['subs', 'remove-split', UUID, 'x', '--yes'], 'SPLIT_ID', /UUID/],
  ['bank account id not a number', ['bank-accounts', 'delete', 'abc', '--yes'], 'ID', /whole number/],
  ['withdrawal id not a UUID', ['withdrawals', 'get', '12'], 'ID', /UUID/],
  ['sub-account partner CPF', ['subaccounts', 'create', 'pf', ...replace(SUB_FULL, '--partner-cpf', '12345678900')], '--partner-cpf', /check digits/],
  ['sub-account bank code', ['subaccounts', 'create', 'pf', ...replace(SUB_FULL, '--bank-code', '34')], '--bank-code', /3 digits/],
  [
    'sub-account account type',
    ['subaccounts', 'create', 'pf', ...replace(SUB_FULL, '--bank-account-type', 'GOLD')],
    '--bank-account-type',
    /CHECKING, SAVINGS/,
  ],
  [
    'sub-account revenue with comma',
    ['subaccounts', 'create', 'pf', ...replace(SUB_FULL, '--partner-month-revenue', '5.000,00')],
    '--partner-month-revenue',
    /2 decimals/,
  ],
  ['PJ CNPJ with bad check digits', ['subaccounts', 'create', 'pj', ...SUB_FULL, '--legal-cnpj', '11222333000182'], '--legal-cnpj', /check digits/],
  [
    'PJ missing legal data',
    ['subaccounts', 'create', 'pj', ...SUB_FULL],
    '--legal-cnpj, --legal-contact-phone, --legal-fantasy-name, --legal-social-reason, --legal-avg-anual-billing',
    /missing required flags/,
  ],
  [
    'PF missing bank fields',
    ['subaccounts', 'create', 'pf', ...without(without(SUB_FULL, '--bank-code'), '--bank-document')],
    '--bank-document, --bank-code',
    /missing required flags/,
  ],
  ['unknown --fields', ['customers', 'list', '--fields', 'id,shoeSize'], 'shoeSize', /valid fields: id, firstName/],
  // the API document's ranges: past them the API answers 400 after payctl has sent the request
  ['subscription amount over the maximum', ['subs', 'update', UUID, '--amount', '100000001'], '--amount', /at most 100000000 cents \(R\$ 1\.000\.000,00\)/],
  [
    'split amount over the maximum',
    ['subs', 'add-split', '--subscription', UUID, '--receiver', UUID, '--amount', '100000001'],
    '--amount',
    /at most 100000000 cents/,
  ],
  ['amount filter over the maximum', ['subs', 'list', '--setup-amount', '1000000000001'], '--setup-amount', /at most 1000000000000 cents/],
  // a body file holds only the command's fields: anything else would be sent for the API to refuse
  ['body file with a misspelt field', ['customers', 'update', UUID, '--from-file', '-'], '--from-file -: unknown field fristName', /unknown field fristName; the fields there are firstName/],
  ['body file with an unknown address field', ['customers', 'update', UUID, '--from-file', '-'], 'address.number', /unknown field.*streetNumber/],
  ['body file with a null', ['customers', 'update', UUID, '--from-file', '-'], '--from-file -: email', /is null/],
  ['body file with an empty address', ['customers', 'update', UUID, '--from-file', '-'], '--from-file -: address', /is empty/],
  ['body file with a list where an object goes', ['subaccounts', 'create', 'pf', ...SUB_FULL, '--from-file', '-'], 'accountBank', /must be an object/],
  ['blank client secret on stdin', ['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], '--client-secret-stdin client secret', /must not be empty/],
  ['no token on stdin', ['auth', 'token', '--stdin'], '--stdin token', /must not be empty/],
];

const STDIN: Record<string, string> = {
  'card number too short': '411111111111\n123\n',
  'security code too long': '4111111111111111\n12345\n',
  'card number failing Luhn': '4111111111111112\n123\n',
  'body file with a misspelt field': '{"fristName":"Ana"}',
  'body file with an unknown address field': '{"address":{"street":"Av. Paulista","number":1000}}',
  'body file with a null': '{"email":null}',
  'body file with an empty address': '{"address":{}}',
  'body file with a list where an object goes': '{"accountBank":[]}',
  'blank client secret on stdin': '   \n',
  'no token on stdin': '\n',
};

describe.concurrent('every bad value is exit 2 naming the flag and the rule', () => {
  it.each(CASES)('%s', async (name, args, flag, rule) => {
    const result = await runInProcess(args, { env, input: STDIN[name] });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(flag);
    expect(result.stderr).toMatch(rule);
  });
});

describe('refusals', () => {
  it('sent nothing to the server', () => {
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('never echo a card number or security code', async () => {
    const result = await runInProcess(
      ['cards', 'tokenize', '--customer', UUID, '--holder-name', 'ANA', '--exp-month', '08', '--exp-year', '2030', '--card-stdin'],
      {
        env,
        input: '4111111111111112\n123\n',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('4111111111111112');
  });
});
