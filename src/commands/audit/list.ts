import { readAuditEntries } from '../../audit/entries.js';
import { auditFile } from '../../audit/log.js';
import type { Invocation } from '../spec.js';
import type { auditList } from './index.js';

const DEFAULT_LAST = 50;

export async function run({ io, services, opts, view }: Invocation<typeof auditList>): Promise<void> {
  const { entries, more, damaged } = readAuditEntries(services.env, { since: opts.since, last: opts.all ? undefined : DEFAULT_LAST });
  const writer = io.output.list(view);
  await writer.write(entries);
  await writer.end();
  if (more) await io.output.note(`the last ${DEFAULT_LAST} entries shown; add --all for every one`);
  if (damaged > 0) await io.output.note(`warning: ${damaged} line${damaged > 1 ? 's' : ''} of the audit log in ${auditFile(services.env)}'s folder could not be read`);
}
