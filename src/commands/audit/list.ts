import { entriesOfRecords, readAuditEntries, type AuditSelection } from '../../audit/entries.js';
import type { AuditRecord } from '../../audit/log.js';
import { usageError } from '../../errors.js';
import { ledgerUrlOf } from '../../ledger/index.js';
import { LOCAL_LEDGER } from '../../ledger/url.js';
import type { Services } from '../../services.js';
import { auditFile } from '../../audit/log.js';
import type { Invocation } from '../spec.js';
import type { auditList } from './index.js';

const DEFAULT_LAST = 50;

export async function run({ io, services, opts, view }: Invocation<typeof auditList>): Promise<void> {
  const selection = { since: opts.since, last: opts.all ? undefined : DEFAULT_LAST };
  const { entries, more, damaged } = opts.team ? { ...(await teamEntries(services, selection)), damaged: 0 } : readAuditEntries(services.env, selection);
  const writer = io.output.list(view);
  await writer.write(entries);
  await writer.end();
  if (more) await io.output.note(`the last ${DEFAULT_LAST} entries shown; add --all for every one`);
  if (damaged > 0) await io.output.note(`warning: ${damaged} line${damaged > 1 ? 's' : ''} of the audit log in ${auditFile(services.env)}'s folder could not be read`);
}

/** The team's audit trail, from the profile's ledger. */
async function teamEntries(services: Services, selection: AuditSelection) {
  const url = ledgerUrlOf(services);
  const profile = services.settings().profileName;
  if (url === LOCAL_LEDGER) throw usageError(`--team: profile "${profile}" has no team ledger, so there is no team audit trail`, `name one: payctl profiles set ${profile} --ledger postgres://USER@HOST:PORT/DB`);
  const { teamAudit } = await import('../../ledger/postgres.js');
  return entriesOfRecords((await teamAudit(services, url, selection.since)) as unknown as AuditRecord[], selection);
}
