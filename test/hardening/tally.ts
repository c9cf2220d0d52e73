import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, inject } from 'vitest';

/**
 * What the hardening suite tried, counted across test files and workers: each
 * check that passed appends a line to a file in a folder made by the global
 * setup, which prints one summary line at the end of the run.
 */
export type TallyKind = 'faults' | 'fuzz' | 'attacks' | 'secretChecks' | 'variants';

declare module 'vitest' {
  export interface ProvidedContext {
    hardeningTallyDir: string;
  }
}

const tallyFile = () => path.join(inject('hardeningTallyDir'), 'tally.ndjson');

/** Counts `count` tries of `kind`; call it once the checks of those tries have passed. */
export function tally(kind: TallyKind, count = 1): void {
  appendFileSync(tallyFile(), `${JSON.stringify({ kind, count })}\n`);
}

/** Records every failing test of the file, so the summary never claims a clean run that was not. */
export function trackFailures(): void {
  beforeEach((context) => {
    context.onTestFailed(() => appendFileSync(tallyFile(), `${JSON.stringify({ failed: context.task.name })}\n`));
  });
}
