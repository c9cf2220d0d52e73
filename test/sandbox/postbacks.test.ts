import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankAccountListResponse, PostbackPayload, WithdrawalResponse } from '../../src/api/types.js';
import { RUN_DEADLINE_MS } from '../helpers/cli.js';
import { expectDocumentedResponse, receiver, startSession, VALID, type Delivery, type Session } from './helpers.js';

describe('sandbox: withdrawal postbacks', () => {
  let session: Session;
  /** The sandbox's log: a line per postback attempt, written once its outcome is known. */
  const log: string[] = [];
  beforeAll(async () => {
    session = await startSession({ postbackRetryDelaysMs: [50, 100], log: (line) => log.push(line) });
  });
  const attemptLogged = async (url: string, attempt: number) => {
    while (!log.some((line) => line.startsWith(`postback ${url} attempt ${attempt}:`))) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  afterAll(() => session.sandbox.close());

  const withdrawTo = async (postbackUrl: string) => {
    const bankAccountId = (await session.acme.get<BankAccountListResponse>('/bank_accounts')).body.data[0]!.id;
    const request = { withdrawalMethod: 'pix', amount: 700, bankAccountId, pixKeyType: 'EMAIL', pixKey: VALID.email, postbackUrl };
    return (await session.acme.post<WithdrawalResponse>('/withdrawals/withdraw', request)).body.data;
  };

  it('POSTs the signed status change when a withdrawal settles, retrying after a 500', async () => {
    const hook = await receiver([500]);
    try {
      const withdrawal = await withdrawTo(hook.url);
      const settled = await session.acme.post<WithdrawalResponse>(`/sandbox/withdrawals/${withdrawal.id}/settle`, { status: 'COMPLETED' });
      await hook.waitFor(2);
      // creation sent nothing: the only deliveries are the settlement's, the failed one and its retry
      expect(hook.deliveries.map((delivery) => (JSON.parse(delivery.body) as PostbackPayload).data.status)).toEqual(['COMPLETED', 'COMPLETED']);
      const [failed, retried] = hook.deliveries as [Delivery, Delivery];
      expect(retried.body).toBe(failed.body);
      expect(retried.at - failed.at).toBeGreaterThanOrEqual(45);
      const payload = JSON.parse(retried.body) as PostbackPayload;
      expect(payload).toEqual({ event: 'withdrawal.status_changed', data: settled.body.data });
      expect(payload.data.status).toBe('COMPLETED');
      expectDocumentedResponse('GET', `/withdrawals/${withdrawal.id}`, 200, { data: payload.data, message: '' });
      const expected = `sha256=${createHmac('sha256', 'acme-sandbox-secret').update(retried.body).digest('hex')}`;
      expect(retried.headers['x-payctl-signature']).toBe(expected);
      expect(retried.headers['content-type']).toBe('application/json');
    } finally {
      await hook.close();
    }
  });

  it('gives up after the configured retries, and never delays the API answer', async () => {
    // The receiver answers no delivery until the API has answered the settlement: a sandbox that
    // waited for its postback before answering would never answer.
    let apiAnswered!: () => void;
    const hook = await receiver([503, 503, 503, 503], { answerAfter: new Promise<void>((resolve) => (apiAnswered = resolve)) });
    try {
      const withdrawal = await withdrawTo(hook.url);
      const settling = session.acme.post(`/sandbox/withdrawals/${withdrawal.id}/settle`, { status: 'FAILED' });
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'waited'>((resolve) => (timer = setTimeout(resolve, RUN_DEADLINE_MS, 'waited')));
      const settled = await Promise.race([settling, waited]);
      clearTimeout(timer);
      apiAnswered();
      expect(settled, 'the settlement waited for the postback receiver').not.toBe('waited');
      expect(settled !== 'waited' && settled.status).toBe(200);
      await attemptLogged(hook.url, 3);
      // The third attempt's line says that no fourth is scheduled.
      expect(log.filter((line) => line.startsWith(`postback ${hook.url} `))).toEqual([
        `postback ${hook.url} attempt 1: HTTP 503`,
        `postback ${hook.url} attempt 2: HTTP 503`,
        `postback ${hook.url} attempt 3: HTTP 503; no more attempts, the notification is dropped`,
      ]);
      expect(hook.deliveries).toHaveLength(3);
      expect(JSON.parse(hook.deliveries[0]!.body).data.status).toBe('FAILED');
    } finally {
      await hook.close();
    }
  });

  it('answers at once even when the receiver is unreachable', async () => {
    const hook = await receiver([]);
    await hook.close();
    const withdrawal = await withdrawTo(hook.url);
    expect((await session.acme.post(`/sandbox/withdrawals/${withdrawal.id}/settle`, { status: 'COMPLETED' })).status).toBe(200);
  });
});
