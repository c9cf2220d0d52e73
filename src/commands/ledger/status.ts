import { ExitCode, PayctlError } from '../../errors.js';
import { ledgerUrlOf } from '../../ledger/index.js';
import { LOCAL_LEDGER } from '../../ledger/url.js';
import type { Invocation } from '../spec.js';
import type { ledgerStatusCommand } from './index.js';

/** For people: a few lines, then the claims in flight as a table; with -o json, one document. Exit 4 when it does not answer, the error saying why. */
export async function run({ io, services, view }: Invocation<typeof ledgerStatusCommand>): Promise<void> {
  const url = ledgerUrlOf(services);
  const { ledgerStatus } = url === LOCAL_LEDGER ? { ledgerStatus: undefined } : await import('../../ledger/postgres.js');
  const status = ledgerStatus
    ? await ledgerStatus(services, url)
    : { ledger: LOCAL_LEDGER, answers: true, schemaVersion: null, expectedVersion: null, inFlight: [] };
  if (io.output.format === 'table') {
    await io.output.note(`profile ${services.settings().profileName}: ledger ${url === LOCAL_LEDGER ? 'local (the journal and locks on this machine)' : url}`);
    if (ledgerStatus) {
      // Why it does not answer is the run's error, on stderr after these lines.
      await io.output.note(status.answers ? `answers: yes; schema version ${status.schemaVersion ?? 'none (run payctl ledger init)'}` : 'answers: no');
      if (status.answers) {
        const writer = io.output.list(view);
        await writer.write(status.inFlight);
        await writer.end();
      }
    }
  } else {
    await io.output.item(undefined, status);
  }
  if (!status.answers) throw new PayctlError(('error' in status && status.error) || `the ledger ${url} does not answer`, ExitCode.network);
}
