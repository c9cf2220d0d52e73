import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** Makes the folder the hardening tests count into, and prints the one summary line at the end. */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-hardening-'));
  project.provide('hardeningTallyDir', dir);
  return () => {
    const file = path.join(dir, 'tally.ndjson');
    if (existsSync(file)) console.log(summaryLine(readFileSync(file, 'utf8')));
    rmSync(dir, { recursive: true, force: true });
  };
}

export function summaryLine(text: string): string {
  const totals: Record<string, number> = { faults: 0, fuzz: 0, attacks: 0, secretChecks: 0, variants: 0 };
  const failed: string[] = [];
  for (const line of text.split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as { kind?: string; count?: number; failed?: string };
    if (record.failed) failed.push(record.failed);
    else if (record.kind) totals[record.kind] = (totals[record.kind] ?? 0) + (record.count ?? 0);
  }
  const tried = `${totals.faults} faults, ${totals.fuzz} fuzz cases, ${totals.attacks} attacks, ${totals.secretChecks} secret checks, ${totals.variants} answer variants tried`;
  return failed.length === 0
    ? `hardening: ${tried}; no data lost, no secret leaked`
    : `hardening: ${tried}; ${failed.length} FAILED: ${failed.join('; ')}`;
}
