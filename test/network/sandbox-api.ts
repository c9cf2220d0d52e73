import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AuthResponse, WithdrawalListResponse } from '../../src/api/types.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

/**
 * Talks to a sandbox directly (never through payctl), trusting its own authority
 * when it serves https: what the tests count and compare is the sandbox's word.
 * `T` is the body's type from src/api/types.ts, unknown until the caller names it.
 */
export async function sandboxRequest<T = unknown>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const url = new URL(path, sandbox.url);
  const text = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (text) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const transport = url.protocol === 'https:' ? https : http;
  const ca = sandbox.caFile ? readFileSync(sandbox.caFile, 'utf8') : undefined;
  return new Promise((resolve, reject) => {
    const request = transport.request(url, { method, headers, ca, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: (body ? JSON.parse(body) : undefined) as T }));
    });
    request.on('error', reject);
    request.end(text);
  });
}

/** A token of the company, from the sandbox's POST /auth. */
export async function sandboxToken(sandbox: RunningSandbox, company = 'acme'): Promise<string> {
  const { clientId, clientSecret } = sandbox.credentials.find((c) => c.clientId === company)!;
  const answer = await sandboxRequest<AuthResponse>(sandbox, 'POST', '/auth', { body: { clientId, clientSecret } });
  return answer.body.data.accessToken;
}

/** How many withdrawals the company's main account has, by the sandbox's own count. */
export async function withdrawalCount(sandbox: RunningSandbox, token: string): Promise<number> {
  const answer = await sandboxRequest<WithdrawalListResponse>(sandbox, 'GET', '/withdrawals?page=1&limit=1', { token });
  return answer.body.meta.total;
}
