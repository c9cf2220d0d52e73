import { describe, expect, it } from 'vitest';
import { LiteHeaders, LiteRequest, LiteResponse } from '../../src/http/fetch-classes.js';

/** The Fetch API classes ky uses in dist/: they must behave as fetch's do where ky and payctl look. */
describe('LiteHeaders', () => {
  it('matches names in any case, joins appended values and iterates lower-cased in name order, as fetch does', () => {
    const headers = new LiteHeaders({ 'X-B': '2', Accept: 'application/json' });
    headers.append('x-b', '3');
    expect(headers.get('x-B')).toBe('2, 3');
    expect(headers.has('ACCEPT')).toBe(true);
    expect([...headers]).toEqual([
      ['accept', 'application/json'],
      ['x-b', '2, 3'],
    ]);
    expect([...headers]).toEqual([...new Headers(headers as unknown as Headers)]);
    headers.delete('X-B');
    expect(headers.get('x-b')).toBeNull();
  });

  it('copies from another LiteHeaders, fetch Headers, pairs or a record, and trims blanks around values', () => {
    const source = new LiteHeaders([['A', ' one\t']]);
    expect(new LiteHeaders(source).get('a')).toBe('one');
    expect(new LiteHeaders(new Headers({ b: 'two' })).get('b')).toBe('two');
    expect(new LiteHeaders({ c: 'three' }).get('C')).toBe('three');
    expect([...new LiteHeaders(undefined)]).toEqual([]);
  });

  it('refuses a name that is not a token and a value with a line break, without quoting the value', () => {
    expect(() => new LiteHeaders({ 'bad name': 'x' })).toThrow(TypeError);
    const secret = 'Bearer s3cr3t\r\nx-injected: 1';
    let message = '';
    try {
      new LiteHeaders().set('authorization', secret);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/authorization/);
    expect(message).not.toContain('s3cr3t');
  });
});

describe('LiteRequest', () => {
  it('keeps a text body, sets a text content type unless one is given, and clones with the body', async () => {
    const request = new LiteRequest('http://127.0.0.1:4010/customers', { method: 'post', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://127.0.0.1:4010/customers');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.clone().text()).toBe('{"a":1}');
    expect(await request.text()).toBe('{"a":1}');
    expect(new LiteRequest('http://h/x', { method: 'PUT', body: 'x' }).headers.get('content-type')).toBe('text/plain;charset=UTF-8');
  });

  it('has no stream for ky to cancel, and takes another request with new options', async () => {
    const signal = new AbortController().signal;
    const first = new LiteRequest('http://h/a', { method: 'DELETE', headers: { x: '1' } });
    const second = new LiteRequest(first, { signal });
    expect(first.body).toBeNull();
    expect(second.method).toBe('DELETE');
    expect(second.headers.get('x')).toBe('1');
    expect(second.signal).toBe(signal);
    expect(await second.text()).toBe('');
  });

  it('refuses a body on GET and HEAD, a body that is not text, and an address that is not absolute', () => {
    expect(() => new LiteRequest('http://h/a', { body: 'x' })).toThrow(/GET request cannot have a body/);
    expect(() => new LiteRequest('http://h/a', { method: 'HEAD', body: 'x' })).toThrow(TypeError);
    expect(() => new LiteRequest('http://h/a', { method: 'POST', body: new Uint8Array(1) as unknown as string })).toThrow(/text/);
    expect(() => new LiteRequest('/relative')).toThrow(TypeError);
  });
});

describe('LiteResponse', () => {
  it('reads its text any number of times, parses JSON and tells ok from not ok', async () => {
    const response = new LiteResponse('{"data":{}}', { status: 201, statusText: 'Created', headers: { 'Content-Type': 'application/json' } });
    expect(response.ok).toBe(true);
    expect(await response.json()).toEqual({ data: {} });
    expect(await response.text()).toBe('{"data":{}}');
    const copy = response.clone();
    expect([copy.status, copy.statusText, copy.headers.get('content-type'), await copy.text()]).toEqual([201, 'Created', 'application/json', '{"data":{}}']);
    expect(new LiteResponse(null, { status: 404 }).ok).toBe(false);
    expect(new LiteResponse().status).toBe(200);
  });
});
