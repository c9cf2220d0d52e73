import { usageError } from '../../errors.js';
import { getPath } from '../../output/paths.js';
import type { View } from '../../output/views.js';
import { SPAN_UNIT_MS, type Parser } from '../../validation/flags.js';
import { command, defineCommand, switchOption, valueOption } from '../spec.js';

/**
 * `2h`, `30m`, `7d`: that long ago; `2026-11-01`, or `2026-11-01 09:30` as the tables print
 * times: then, here (TZ honoured, as tables show local times); a date-time with its zone: that moment.
 */
export const parseSince: Parser<number> = (flag, raw) => {
  const text = raw.trim();
  const [, count, unit] = /^(\d+)\s*([smhdw])$/.exec(text) ?? [];
  const unitMs = unit === undefined ? undefined : SPAN_UNIT_MS[unit];
  if (unitMs !== undefined) return Date.now() - Number(count) * unitMs;
  const local = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/.exec(text);
  const at = local ? localMoment(local) : /T.*(Z|[+-]\d{2}:?\d{2})$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) {
    throw usageError(`${flag} "${raw}" is not a duration or a date: use 2h, 30m, 7d (s, m, h, d, w), 2026-11-01, 2026-11-01 09:30 (local time), or 2026-11-01T09:00:00-03:00`);
  }
  return at;
};

/** A local date, and time to the minute, as typed; NaN when a part is out of range (2026-02-30, 25:00). */
function localMoment([, year, month, day, hours = '0', minutes = '0']: RegExpExecArray): number {
  const parts = [year, month, day, hours, minutes].map(Number) as [number, number, number, number, number];
  const at = new Date(parts[0], parts[1] - 1, parts[2], parts[3], parts[4]);
  const asTyped = at.getDate() === parts[2] && at.getHours() === parts[3] && at.getMinutes() === parts[4];
  return asTyped ? at.getTime() : NaN;
}

export const auditView: View = {
  noun: 'audit entries',
  fields: [
    'at', 'user', 'host', 'profile', 'env', 'baseUrl', 'account', 'method', 'path', 'query', 'body', 'outcome', 'status', 'resourceId', 'exitCode', 'error',
    'settledAt', 'settledBy', 'settledStatus', 'id',
  ],
  columns: [
    { field: 'at', header: 'time' },
    { field: 'profile', hide: 4 },
    { field: 'method' },
    { field: 'path', hide: 1 },
    { field: 'account', hide: 6 },
    { field: 'status', header: 'HTTP', hide: 5 },
    { field: 'resourceId', header: 'id', hide: 3 },
    { field: 'exitCode', header: 'exit', hide: 2 },
    { field: 'outcome' },
  ],
  // Finance's columns: when, what was sent to which resource, how much, and what became of it.
  tableColumns: [
    { field: 'at', header: 'time' },
    { field: 'request', header: 'sent', kind: 'id', value: (entry) => `${String(getPath(entry, 'method'))} ${String(getPath(entry, 'path'))}` },
    { field: 'amount', kind: 'cents', value: (entry) => getPath(entry, 'body.amount') },
    { field: 'outcome' },
    { field: 'resourceId', header: 'id', hide: 1 },
    { field: 'account', hide: 2, spare: true },
    { field: 'exitCode', header: 'exit', hide: 3, spare: true },
    { field: 'status', header: 'HTTP', hide: 4, spare: true },
    { field: 'profile', hide: 5, spare: true },
  ],
  // A path cut short names no route: kept whole, as ids are (those in it shortened as ids are).
  kinds: { at: 'time', path: 'id', account: 'id', resourceId: 'id', settledAt: 'time' },
};

export const auditList = defineCommand({
  name: 'audit',
  summary: 'Show the audit log: every POST, PUT and DELETE payctl sent, with its outcome',
  description:
    'Reads $XDG_STATE_HOME/payctl/audit.ndjson (default ~/.local/state/payctl/) and the files it was rotated into. Each write is ' +
    'recorded before it is sent and again with its outcome; one sent without an answer shows as unknown until a later ' +
    '`withdrawals get` or `withdraw batch --reconcile` finds what became of it. Dry runs send nothing and are not recorded. ' +
    'Shows the last 50 entries unless --all; --since keeps those made since a time.',
  options: {
    since: valueOption('when', 'only entries since then: 2h, 30m, 7d, or a local date or time as tables print it (2026-11-01, 2026-11-01 09:30)', parseSince),
    all: switchOption('every entry, not only the last 50'),
    team: switchOption("the team's audit trail, kept in the profile's ledger, instead of this machine's"),
  },
  view: auditView,
  examples: ['payctl audit', 'payctl audit --team --since 7d', 'payctl audit --since 2h', 'payctl audit --since 2026-11-01 --all -o csv > audit.csv', "payctl audit --json | jq '.[] | select(.outcome == \"unknown\")'"],
});

export const auditCommand = command(auditList, () => import('./list.js'));
