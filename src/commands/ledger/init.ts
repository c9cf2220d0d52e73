import { usageError } from '../../errors.js';
import { ledgerUrlOf } from '../../ledger/index.js';
import { LOCAL_LEDGER } from '../../ledger/url.js';
import type { Invocation } from '../spec.js';
import type { ledgerInit } from './index.js';

export async function run({ io, services }: Invocation<typeof ledgerInit>): Promise<void> {
  const url = ledgerUrlOf(services);
  const profile = services.settings().profileName;
  if (url === LOCAL_LEDGER) throw usageError(`profile "${profile}" has no team ledger: its ledger is the local files`, `name one: payctl profiles set ${profile} --ledger postgres://USER@HOST:PORT/DB`);
  const { initLedger } = await import('../../ledger/postgres.js');
  const { from, to } = await initLedger(services, url);
  await io.output.note(from === to ? `ledger ${url} is at schema version ${to}: nothing to do` : `ledger ${url}: schema version ${from} → ${to}`);
}
