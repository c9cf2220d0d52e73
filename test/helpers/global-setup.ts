import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder the test files of every worker append their reports to (test/hardening/tally.ts, test/helpers/tools.ts). */
    suiteReportDir: string;
  }
}

/**
 * Makes the folder test files report into, and prints at the end of the run the hardening suite's
 * summary line and, when tools were missing, which tests did not run.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-suite-'));
  // The folders and files tests make (config folders, CSVs, journals, sandboxes' data) go into this
  // run's own temporary folder, removed with it: a run makes thousands, and /tmp kept them all.
  // Set before the workers start, which inherit it.
  process.env.TMPDIR = path.join(dir, 'tmp');
  mkdirSync(process.env.TMPDIR);
  // Extra CA certificates are read by every Node process at its start (about 60 ms of CPU for a
  // system bundle), and the suite starts hundreds: workers, sandboxes, payctl processes. Everything
  // the suite's processes talk to is on 127.0.0.1, with the tests' own certificates where TLS is used.
  delete process.env.NODE_EXTRA_CA_CERTS;
  // payctl takes the proxy variables from the process's environment (proxy-from-env reads it), so a
  // proxy set in the developer's shell would reach the in-process runs, which the tests give an
  // environment of their own; the proxy tests set these variables for the runs that need them.
  for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY']) delete process.env[name];
  project.provide('suiteReportDir', dir);
  return () => {
    const tally = path.join(dir, 'tally.ndjson');
    if (existsSync(tally)) console.log(summaryLine(readFileSync(tally, 'utf8')));
    const cpu = path.join(dir, 'cpu.ndjson');
    if (existsSync(cpu)) console.log(cpuTable(readFileSync(cpu, 'utf8')));
    const skipped = path.join(dir, 'skipped.ndjson');
    if (existsSync(skipped)) console.log(skippedLine(readFileSync(skipped, 'utf8')));
    rmSync(dir, { recursive: true, force: true });
  };
}

/** "SKIPPED: 40 tests did not run (zsh not installed: 12; …)", for a developer's machine without those tools. */
export function skippedLine(text: string): string {
  const records = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { missing: string[] });
  const byTool = new Map<string, number>();
  for (const { missing } of records) for (const tool of missing) byTool.set(tool, (byTool.get(tool) ?? 0) + 1);
  const tools = [...byTool].map(([tool, count]) => `${tool} not installed: ${count}`).join('; ');
  return `SKIPPED: ${records.length} tests did not run (${tools}); install those tools to run them (CI requires them)`;
}

/** The files that took most CPU (test/helpers/cpu-per-file.ts), and the sum over all of them. */
export function cpuTable(text: string, top = 15): string {
  const records = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { file: string; cpu: number });
  const total = records.reduce((sum, record) => sum + record.cpu, 0);
  const rows = records.sort((a, b) => b.cpu - a.cpu).slice(0, top).map((record) => `${record.cpu.toFixed(1).padStart(7)} s  ${record.file}`);
  return [`CPU of the test files (workers and the children they waited for): ${total.toFixed(0)} s in ${records.length} files; most:`, ...rows].join('\n');
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
