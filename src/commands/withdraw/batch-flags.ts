import type { OptionSpec } from '../spec.js';

/** The options of a batch: `withdraw batch FILE`, and `withdraw pix|card|boleto --from-csv FILE`, which is the same. */
export const BATCH_OPTIONS: OptionSpec[] = [
  { flags: '--journal <file>', description: 'journal of what was paid, default FILE.journal beside the CSV', complete: 'files' },
  { flags: '--concurrency <n>', description: 'requests in flight at once, 1 to 16, default 4' },
  { flags: '--reconcile', description: 'settle rows of unknown outcome from withdrawals list, then send the rest' },
  { flags: '--allow-duplicate-rows', description: 'pay identical rows once each, instead of refusing the file' },
];

/** Options of a batch that a single withdrawal refuses, by commander's key. */
export const BATCH_ONLY_FLAGS: Readonly<Record<string, string>> = {
  journal: '--journal',
  concurrency: '--concurrency',
  reconcile: '--reconcile',
  allowDuplicateRows: '--allow-duplicate-rows',
};
