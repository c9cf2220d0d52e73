import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AuthResponse, BalancesResponse, BankAccountListResponse, WithdrawalListResponse, WithdrawalResponse } from '../../src/api/types.js';
import { RUN_DEADLINE_MS } from '../helpers/cli.js';
import { startSandboxProcess, type SandboxProcess } from './helpers.js';

/**
 * --data under kill -9: 20 writers withdraw (and settle some of their
 * withdrawals) as fast as the sandbox answers, and the sandbox process is killed
 * at a random moment, ten times. Every withdrawal answered 201 and every
 * settlement answered 200 must be there after the restart, the balances must
 * match the withdrawals the restarted sandbox lists, and no temporary file may
 * be left beside the data file. The log is compacted every 64 KiB here, so kills
 * also land during compactions.
 */
const WRITERS = 20;
const ROUNDS = 10;

/** An answer; `T` is its body's type from src/api/types.ts, unknown until the caller names it. */
interface Reply<T = unknown> {
  status: number;
  body: T;
}

function call<T = unknown>(agent: http.Agent, url: string, token: string | undefined, method: string, path: string, body?: unknown): Promise<Reply<T>> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    };
    const req = http.request(`${url}${path}`, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as T }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const cents = (reais: number) => Math.round(reais * 100);

describe('sandbox: --data survives kill -9 under concurrent writers', () => {
  const directory = mkdtempSync(join(tmpdir(), 'payctl-durability-'));
  const dataFile = join(directory, 'state.json');
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const start = () => startSandboxProcess([], { library: { dataFile, compactLogBytes: 64 * 1024, customers: 50 } });
  const login = async (agent: http.Agent, url: string) =>
    (await call<AuthResponse>(agent, url, undefined, 'POST', '/auth', { clientId: 'acme', clientSecret: 'acme-sandbox-secret' })).body.data.accessToken;

  it(`keeps every answered withdrawal and settlement through ${ROUNDS} kills, with consistent balances and no stray files`, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: WRITERS });
    /** withdrawal id → amount, for every 201 */
    const created = new Map<string, number>();
    /** withdrawal id → status, for every settlement answered 200 */
    const settled = new Map<string, string>();
    const seen = new Set<string>();

    let sandbox: SandboxProcess = await start();
    // A failing assertion must not leave the sandbox process behind.
    onTestFinished(() => sandbox.kill('SIGKILL'));
    let token = await login(agent, sandbox.url);
    const seeded = (await call<WithdrawalListResponse>(agent, sandbox.url, token, 'GET', '/withdrawals?limit=100')).body.data;
    for (const withdrawal of seeded) seen.add(withdrawal.id);
    expect((await call(agent, sandbox.url, token, 'POST', '/sandbox/balance', { pix: 1_000_000_000 })).status).toBe(200);
    const pixBefore = cents((await call<BalancesResponse>(agent, sandbox.url, token, 'GET', '/withdrawals/balance')).body.data.disponiblePixBalance);
    const bankAccountId = (await call<BankAccountListResponse>(agent, sandbox.url, token, 'GET', '/bank_accounts')).body.data[0]!.id;

    for (let round = 0; round < ROUNDS; round++) {
      const url = sandbox.url;
      let killed = false;
      let [createdThisRound, settledThisRound] = [0, 0];
      const writer = async (n: number) => {
        const mine: string[] = [];
        for (let i = 0; !killed; i++) {
          try {
            if (i % 5 === 4 && mine.length > 0) {
              const id = mine.shift()!;
              const status = (n + i) % 2 ? 'COMPLETED' : 'FAILED';
              const reply = await call(agent, url, token, 'POST', `/sandbox/withdrawals/${id}/settle`, { status });
              if (reply.status === 200) {
                settled.set(id, status);
                settledThisRound++;
              } else throw new Error(`settle answered ${reply.status}: ${JSON.stringify(reply.body)}`);
            } else {
              const amount = 100 + ((n * 7919 + i * 104729) % 900);
              const request = { withdrawalMethod: 'pix', amount, bankAccountId, pixKeyType: 'EMAIL', pixKey: `w${n}@example.com` };
              const reply = await call<WithdrawalResponse>(agent, url, token, 'POST', '/withdrawals/withdraw', request);
              if (reply.status !== 201) throw new Error(`withdraw answered ${reply.status}: ${JSON.stringify(reply.body)}`);
              created.set(reply.body.data.id, amount);
              createdThisRound++;
              mine.push(reply.body.data.id);
            }
          } catch (error) {
            if (killed) return; // the connection died with the process: that request's outcome is unknown, and it is not counted
            throw error;
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
      // Each round is killed once every writer has been answered and a settlement too, then after a random
      // number of further answers: the kill lands anywhere in the writes, counted, not timed.
      const further = Math.floor(Math.random() * 50);
      let answersWhenReady: number | undefined;
      for (const deadline = Date.now() + RUN_DEADLINE_MS; ; ) {
        const answers = createdThisRound + settledThisRound;
        if (answersWhenReady === undefined && createdThisRound >= WRITERS && settledThisRound >= 1) answersWhenReady = answers;
        if (answersWhenReady !== undefined && answers >= answersWhenReady + further) break;
        if (Date.now() > deadline) throw new Error(`round ${round}: only ${createdThisRound} withdrawals and ${settledThisRound} settlements answered`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      killed = true;
      process.kill(sandbox.pid, 'SIGKILL');
      expect(await sandbox.exited).toBe('SIGKILL');
      await Promise.all(writers);
      agent.destroy();

      sandbox = await start();
      expect(readdirSync(directory).sort(), `round ${round}`).toEqual(['state.json', 'state.json.log']);
      token = await login(agent, sandbox.url);
    }
    expect(created.size).toBeGreaterThan(ROUNDS * WRITERS);
    expect(settled.size).toBeGreaterThan(ROUNDS);

    // every withdrawal the restarted sandbox lists, newest first
    const listed = new Map<string, { amount: number; status: string }>();
    for (let page = 1; ; page++) {
      const reply = await call<WithdrawalListResponse>(agent, sandbox.url, token, 'GET', `/withdrawals?limit=100&page=${page}`);
      for (const withdrawal of reply.body.data) listed.set(withdrawal.id, withdrawal);
      if (reply.body.data.length < 100) break;
    }
    const lost = [...created.keys()].filter((id) => !listed.has(id));
    expect(lost, `${lost.length} of ${created.size} answered withdrawals lost`).toEqual([]);
    const unsettled = [...settled].filter(([id, status]) => listed.get(id)?.status !== status);
    expect(unsettled, `${unsettled.length} of ${settled.size} answered settlements lost`).toEqual([]);

    const balance = (await call<BalancesResponse>(agent, sandbox.url, token, 'GET', '/withdrawals/balance')).body.data;
    for (const value of Object.values(balance)) expect(value).toBeGreaterThanOrEqual(0);
    const all = [...listed.values()];
    const pending = all.filter((withdrawal) => withdrawal.status === 'PENDING').reduce((sum, withdrawal) => sum + withdrawal.amount, 0);
    expect(cents(balance.withdrawalsInProcessingBalance)).toBe(pending);
    // ours are every listed withdrawal not seeded (a request cut by the kill may have been saved unanswered: it counts too)
    const spent = [...listed]
      .filter(([id, withdrawal]) => !seen.has(id) && withdrawal.status !== 'FAILED')
      .reduce((sum, [, withdrawal]) => sum + withdrawal.amount, 0);
    expect(cents(balance.disponiblePixBalance)).toBe(pixBefore - spent);

    sandbox.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);
    agent.destroy();
    expect(readdirSync(directory).sort()).toEqual(['state.json', 'state.json.log']);
  });
});
