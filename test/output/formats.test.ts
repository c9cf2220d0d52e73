import { afterEach, describe, expect, it } from 'vitest';
import { formatCep, formatCnpj, formatCpf, formatDocument, formatPhone, formatPixKey } from '../../src/output/brazil.js';
import { cellText } from '../../src/output/cells.js';
import { counted, listFooter } from '../../src/output/footer.js';
import { formatLocalTime } from '../../src/output/time.js';

describe('CPF and CNPJ', () => {
  it('writes a CPF as 123.456.789-09, from digits or already punctuated', () => {
    expect(formatCpf('12345678909')).toBe('123.456.789-09');
    expect(formatCpf('123.456.789-09')).toBe('123.456.789-09');
    expect(formatCpf('01234567890')).toBe('012.345.678-90');
  });

  it('writes a CNPJ as 12.345.678/0001-95, the alphanumeric CNPJ too', () => {
    expect(formatCnpj('12345678000195')).toBe('12.345.678/0001-95');
    expect(formatCnpj('12.345.678/0001-95')).toBe('12.345.678/0001-95');
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
  });

  it('tells a document by its length: 11 digits a CPF, 14 a CNPJ, anything else as it came', () => {
    expect(formatDocument('52998224725')).toBe('529.982.247-25');
    expect(formatDocument('10799211000190')).toBe('10.799.211/0001-90');
    expect(formatDocument('1234')).toBe('1234');
    expect(formatDocument('passport X123')).toBe('passport X123');
  });

  it('leaves text that is not a CPF or CNPJ as it is', () => {
    expect(formatCpf('1234567890')).toBe('1234567890');
    expect(formatCpf('abc.def.ghi-jk')).toBe('abc.def.ghi-jk');
    expect(formatCnpj('123')).toBe('123');
  });
});

describe('CEP', () => {
  it('puts back the leading zero the API loses when it sends the CEP as a number', () => {
    expect(formatCep(1310100)).toBe('01310-100');
    expect(formatCep(12372349)).toBe('12372-349');
    expect(formatCep(1000)).toBe('00001-000');
  });

  it('takes a string with or without its zero and its dash', () => {
    expect(formatCep('1310100')).toBe('01310-100');
    expect(formatCep('01310100')).toBe('01310-100');
    expect(formatCep('01310-100')).toBe('01310-100');
  });

  it('leaves what cannot be a CEP as it came', () => {
    expect(formatCep(123456789)).toBe('123456789');
    expect(formatCep(-5)).toBe('-5');
    expect(formatCep(1.5)).toBe('1.5');
    expect(formatCep('SP')).toBe('SP');
  });
});

describe('phones', () => {
  it('writes a mobile as +55 (11) 91234-5678, from the API form and the ways people type it', () => {
    for (const typed of ['+5511912345678', '+55 11 91234-5678', '(11) 91234-5678', '11912345678', '5511912345678']) {
      expect(formatPhone(typed), typed).toBe('+55 (11) 91234-5678');
    }
  });

  it('writes a landline as +55 (11) 3123-4567', () => {
    expect(formatPhone('+551131234567')).toBe('+55 (11) 3123-4567');
    expect(formatPhone('(11) 3123-4567')).toBe('+55 (11) 3123-4567');
  });

  it("leaves another country's number, and what is not a phone, as it came", () => {
    expect(formatPhone('+14155550100')).toBe('+14155550100');
    expect(formatPhone('+55 11 81234-5678')).toBe('+55 11 81234-5678');
    expect(formatPhone('+55 01 91234-5678')).toBe('+55 01 91234-5678');
    expect(formatPhone('call me')).toBe('call me');
    expect(formatPhone('123')).toBe('123');
  });

  it('writes a PIX key by its shape: phone, CPF, CNPJ; e-mail and random keys as they are', () => {
    expect(formatPixKey('+5598951431053')).toBe('+55 (98) 95143-1053');
    expect(formatPixKey('52852354640')).toBe('528.523.546-40');
    expect(formatPixKey('10799211000190')).toBe('10.799.211/0001-90');
    expect(formatPixKey('financeiro@acme.example.com')).toBe('financeiro@acme.example.com');
    expect(formatPixKey('0b9d3f0e-54c4-4a8a-9a43-5f0d7c8e6a21')).toBe('0b9d3f0e-54c4-4a8a-9a43-5f0d7c8e6a21');
  });
});

// Tests here set TZ in this process, which later test files share (vitest.config.ts): each puts it back as it was.
const zone = process.env.TZ;
afterEach(() => {
  // Node reads TZ again whenever it is assigned.
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('local times', () => {
  it('writes an API time in the local zone, to the minute: America/Sao_Paulo', () => {
    process.env.TZ = 'America/Sao_Paulo';
    expect(formatLocalTime('2026-11-23T19:45:12.345Z')).toBe('2026-11-23 16:45');
    // Past midnight in UTC is still the day before in São Paulo.
    expect(formatLocalTime('2024-01-01T02:05:52.035Z')).toBe('2023-12-31 23:05');
  });

  it('writes an API time in the local zone, to the minute: UTC', () => {
    process.env.TZ = 'UTC';
    expect(formatLocalTime('2026-11-23T19:45:12.345Z')).toBe('2026-11-23 19:45');
    expect(formatLocalTime('2026-11-23T19:45:12-03:00')).toBe('2026-11-23 22:45');
  });

  it('reads a time without a zone as UTC, as the API\'s are, and leaves plain dates and other text as they came', () => {
    process.env.TZ = 'America/Sao_Paulo';
    expect(formatLocalTime('2026-11-23T19:45:12')).toBe('2026-11-23 16:45');
    process.env.TZ = 'Asia/Tokyo';
    expect(formatLocalTime('2026-11-23T19:45:12.288')).toBe('2026-11-24 04:45');
    process.env.TZ = 'America/Sao_Paulo';
    expect(formatLocalTime('2026-11-23')).toBe('2026-11-23');
    expect(formatLocalTime('2026-13-45T99:99:00Z')).toBe('2026-13-45T99:99:00Z');
    expect(formatLocalTime('soon')).toBe('soon');
  });
});

describe('table cells', () => {
  it('format by kind, and fall back to the raw value when it is not of that kind', () => {
    expect(cellText(123456, 'cents')).toBe('R$ 1.234,56');
    expect(cellText('123456', 'cents')).toBe('123456');
    expect(cellText(1310100, 'cep')).toBe('01310-100');
    expect(cellText('12345678909', 'cpf')).toBe('123.456.789-09');
    expect(cellText(12345678909, 'cpf')).toBe('12345678909');
    expect(cellText(true, 'boolean')).toBe('yes');
    expect(cellText('false', 'boolean')).toBe('false');
    expect(cellText(30, 'days')).toBe('30 days');
    expect(cellText(1, 'days')).toBe('1 day');
    expect(cellText([1, 2], 'list')).toBe('2');
    expect(cellText(null, 'cents')).toBeUndefined();
  });

  it('of no known kind read by their value: yes or no, and times in the local zone', () => {
    process.env.TZ = 'UTC';
    expect(cellText(false, undefined)).toBe('no');
    expect(cellText('2026-11-23T19:45:12.345Z', undefined)).toBe('2026-11-23 19:45');
    expect(cellText('2026-11-23', undefined)).toBe('2026-11-23');
    expect(cellText(42, undefined)).toBe('42');
    expect(cellText({ a: 1 }, undefined)).toBe('{"a":1}');
  });

  it('make server text visible after formatting', () => {
    expect(cellText('Ana\u001b[2J', undefined)).toBe('Ana\\x1b[2J');
    expect(cellText('\u202e12345678909', 'cpf')).toBe('\\u202e12345678909');
  });
});

describe('footer', () => {
  it('says how many of how many, and the next page', () => {
    expect(listFooter('customers', 20, { total: 250, page: 1, pages: 13, next: 'payctl customers list --page 2' })).toEqual([
      'showing 20 of 250 customers; next: payctl customers list --page 2, or --all',
    ]);
    expect(listFooter('customers', 10, { total: 250, page: 13, pages: 13 })).toEqual(['showing 10 of 250 customers (page 13 of 13)']);
  });

  it('gets singular and plural right', () => {
    expect(counted(1, 'rows')).toBe('1 row');
    expect(counted(2, 'rows')).toBe('2 rows');
    expect(counted(0, 'bank accounts')).toBe('0 bank accounts');
    expect(listFooter('rows', 1)).toEqual(['1 row']);
    expect(listFooter('bank accounts', 1, { total: 1, page: 1, pages: 1 })).toEqual(['showing 1 of 1 bank account']);
    expect(listFooter('customers', 0, { total: 0, page: 1, pages: 0 })).toEqual(['no customers']);
    expect(listFooter('customers', 0, { total: 250, page: 20, pages: 13 })).toEqual(['no customers on page 20: there are 250 customers on 13 pages']);
  });

  it('of a search says how many of those looked at matched', () => {
    expect(listFooter('customers', 19, { scanned: 250 })).toEqual(['19 of 250 customers match']);
    expect(listFooter('customers', 1, { scanned: 250 })).toEqual(['1 of 250 customers matches']);
    expect(listFooter('customers', 0, { scanned: 1 })).toEqual(['none of 1 customer match']);
  });

  it('puts the next command on a line of its own when one line would not fit, so it can be copied whole', () => {
    const next = 'payctl subs list --status ACTIVE --title Plano --limit 5 --page 2';
    const lines = listFooter('subscriptions', 5, { total: 80, page: 1, pages: 16, next }, 80);
    expect(lines).toEqual(['showing 5 of 80 subscriptions; next page (or --all):', next]);
    expect(listFooter('subscriptions', 100, { total: 1_000_000, page: 10_000, pages: 10_000, next }, 60)).toEqual([
      'showing 100 of 1000000 subscriptions (page 10000 of 10000)',
      'next page (or --all):',
      next,
    ]);
  });
});
