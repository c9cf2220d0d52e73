import { expect } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import type { SandboxSession } from '../helpers/sandbox.js';
import { freshFetch } from '../helpers/fresh-fetch.js';

/** Parses stdout of a successful `--json` run, failing with its stderr otherwise. */
export function parsed<T = unknown>(result: RunResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

export const json = async <T = unknown>(session: SandboxSession, args: string[]): Promise<T> => parsed<T>(await session.run([...args, '--json']));

/** Sub-accounts found in subscription splits (the API has no list of them): these are APPROVED. */
export async function splitReceivers(session: SandboxSession): Promise<string[]> {
  const subs = await json<Array<{ splits: Array<{ subaccountId: string }> }>>(session, ['subs', 'list', '--limit', '100']);
  return [...new Set(subs.flatMap((s) => s.splits.map((split) => split.subaccountId)))];
}

/** Balance of the context account, in cents. */
export async function pixBalanceCents(session: SandboxSession, context: string[] = []): Promise<number> {
  const balance = await json<{ disponiblePixBalance: number }>(session, ['balance', ...context]);
  return Math.round(balance.disponiblePixBalance * 100);
}

export { withdrawalCount } from '../helpers/sandbox.js';

/** A valid, unused CPF built from 9 digits (for PIX keys and documents that must pass check digits). */
export function cpf(base9: string): string {
  const digit = (digits: string, weight: number) => {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (weight - i);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = base9 + digit(base9, 10);
  return first + digit(first, 11);
}

/** Terminal text without its colour codes. */
export const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The flags of a complete PF sub-account, valid for every rule. */
export function subaccountFlags(name: string, base9 = '529982247'): string[] {
  const document = cpf(base9);
  return [
    '--name', name, '--partner-name', 'Ana', '--partner-last-name', 'Souza', '--partner-cpf', document, '--partner-email', 'ana.souza@example.com',
    '--partner-birthdate', '1990-05-17', '--partner-contact-phone', '+55 11 91234-5678', '--partner-month-revenue', '15000.50',
    '--address-zipcode', '01310-100', '--address-street', 'Av. Paulista', '--address-street-number', '1000', '--address-neighborhood', 'Bela Vista',
    '--address-city', 'São Paulo', '--address-state', 'sp', '--bank-holder-name', 'Ana Souza', '--bank-document', document,
    '--bank-code', '341', '--bank-routing-number', '0001', '--bank-account-number', '12345-6', '--bank-account-type', 'checking',
  ];
}

/** Creates a PF sub-account through payctl and returns its id. */
export async function createSubaccount(session: SandboxSession, name: string): Promise<string> {
  return (await json<{ id: string }>(session, ['subaccounts', 'create', 'pf', ...subaccountFlags(name)])).id;
}

/**
 * Reads the sandbox through its own API with the session's company token, not
 * through payctl: what a test checks payctl's work against. Answers the `data`
 * of the envelope (every page of a list with `all`).
 */
export interface SandboxReader {
  get<T>(path: string): Promise<T>;
  all<T>(path: string): Promise<T[]>;
}

export async function sandboxReader(session: SandboxSession): Promise<SandboxReader> {
  const clientSecret = session.sandbox.credentials.find((c) => c.clientId === session.company)!.clientSecret;
  const auth = await freshFetch(`${session.sandbox.url}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: session.company, clientSecret }),
  });
  const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
  const read = async (path: string) => {
    const response = await freshFetch(`${session.sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return (await response.json()) as { data: unknown; meta?: { totalPages?: number } };
  };
  return {
    get: async <T>(path: string) => (await read(path)).data as T,
    all: async <T>(path: string) => {
      const items: T[] = [];
      for (let page = 1; ; page++) {
        const body = await read(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
        items.push(...(body.data as T[]));
        if (page >= (body.meta?.totalPages ?? 1)) return items;
      }
    },
  };
}
